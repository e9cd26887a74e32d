import { describe, expect, it } from 'vitest';
import { rawRequestPlan } from '../../../src/lib/api/raw.js';

describe('rawRequestPlan', () => {
  it('prices Discovery from paging.limit at 0.01 a creator', () => {
    const plan = rawRequestPlan({ method: 'POST', path: 'discovery', body: { paging: { limit: 10 } } });
    expect(plan).toMatchObject({ method: 'POST', path: 'discovery', worstCaseMilli: 100, costBasis: '10 creators x 0.01' });
  });

  it('reads return_filter_values=true from the path of a POST (0.03 a creator)', () => {
    const plan = rawRequestPlan({ method: 'POST', path: 'discovery?return_filter_values=true', body: { paging: { limit: 10 } } });
    expect(plan).toMatchObject({ worstCaseMilli: 300, costBasis: '10 creators x 0.03' });
  });

  it('reads it from the full /public/v1/ path as well', () => {
    const plan = rawRequestPlan({ method: 'POST', path: '/public/v1/discovery/?return_filter_values=true', body: {} });
    expect(plan).toMatchObject({ worstCaseMilli: 1500, costBasis: '50 creators x 0.03' });
  });

  it('keeps the query and body of the request', () => {
    const plan = rawRequestPlan({ method: 'GET', path: 'discovery/classifier/brands', query: { search: 'nike' } });
    expect(plan).toEqual({ method: 'GET', path: 'discovery/classifier/brands', query: { search: 'nike' }, body: undefined, worstCaseMilli: 0, costBasis: undefined });
  });

  it('an unknown write has an unknown worst case', () => {
    expect(rawRequestPlan({ method: 'POST', path: 'some/new/route', body: { x: 1 } }).worstCaseMilli).toBeNull();
  });
});
