import { describe, expect, it } from 'vitest';
import { rawRequestPlan } from '../../../src/lib/api/raw-plan.js';

describe('rawRequestPlan', () => {
  it('prices Discovery from paging.limit at 0.01 a creator', () => {
    const plan = rawRequestPlan({ method: 'POST', path: 'discovery', body: { paging: { limit: 10 } } });
    expect(plan).toMatchObject({
      method: 'POST',
      path: 'discovery',
      worstCaseMilli: 100,
      costBasis: '10 creators x 1 page x 0.01',
    });
  });

  it('reads return_filter_values=true from the path of a POST (0.03 a creator)', () => {
    const plan = rawRequestPlan({
      method: 'POST',
      path: 'discovery?return_filter_values=true',
      body: { paging: { limit: 10 } },
    });
    expect(plan).toMatchObject({ worstCaseMilli: 300, costBasis: '10 creators x 1 page x 0.03' });
  });

  it('reads it from the full /public/v1/ path as well; without paging.limit, the service default of 20', () => {
    const plan = rawRequestPlan({ method: 'POST', path: '/public/v1/discovery/?return_filter_values=true', body: {} });
    expect(plan).toMatchObject({ worstCaseMilli: 600, costBasis: '20 creators x 1 page x 0.03' });
  });

  it('keeps the query and body of the request', () => {
    const plan = rawRequestPlan({ method: 'GET', path: 'discovery/classifier/brands', query: { search: 'nike' } });
    expect(plan).toEqual({
      method: 'GET',
      path: 'discovery/classifier/brands',
      query: { search: 'nike' },
      body: undefined,
      worstCaseMilli: 0,
      costBasis: undefined,
      label: 'Looking up the dictionary…',
    });
  });

  it('an unknown write has an unknown worst case', () => {
    expect(rawRequestPlan({ method: 'POST', path: 'some/new/route', body: { x: 1 } }).worstCaseMilli).toBeNull();
  });

  it('monitoring: creators x days, one day when open-ended; a PATCH naming no creators is unknown', () => {
    expect(
      rawRequestPlan({ method: 'POST', path: 'social/listening/campaign', body: { creators: ['a', 'b'], days: 3 } })
        .worstCaseMilli,
    ).toBe(1800);
    expect(
      rawRequestPlan({ method: 'POST', path: 'social/listening/subscription/7/creators', body: { creators: ['a'] } })
        .worstCaseMilli,
    ).toBe(300);
    expect(
      rawRequestPlan({ method: 'POST', path: 'social/listening/subscription', body: { name: 'x' } }).worstCaseMilli,
    ).toBe(0);
    expect(
      rawRequestPlan({ method: 'PATCH', path: 'social/listening/campaign/7', body: { days: 30 } }).worstCaseMilli,
    ).toBeNull();
  });

  it('free writes and deletes', () => {
    expect(
      rawRequestPlan({ method: 'POST', path: 'discovery/exclusion-lists', body: { name: 'x' } }).worstCaseMilli,
    ).toBe(0);
    expect(rawRequestPlan({ method: 'PATCH', path: 'accounts/tokens/3', body: {} }).worstCaseMilli).toBe(0);
    expect(rawRequestPlan({ method: 'DELETE', path: 'social/listening/subscription/3' }).worstCaseMilli).toBe(0);
  });

  it('carries the spinner text of the typed plan of its route', () => {
    expect(rawRequestPlan({ method: 'POST', path: 'discovery', body: {} }).label).toBe('Searching…');
    expect(rawRequestPlan({ method: 'POST', path: 'creators/enrich/handle/full', body: {} }).label).toBe('Enriching…');
    expect(rawRequestPlan({ method: 'GET', path: 'accounts/credits' }).label).toBe('Checking credits…');
    expect(rawRequestPlan({ method: 'GET', path: 'social/listening/events' }).label).toBeUndefined();
  });
});
