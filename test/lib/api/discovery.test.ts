import { describe, expect, it } from 'vitest';
import { discoveryPlan, discoveryPriceMilli, maxPages, worstCase } from '../../../src/lib/api/discovery.js';

describe('Discovery worst case (lib/api)', () => {
  it('counts pages and worst case: one page, or --max-results / the 10,000 cap in whole pages', () => {
    const plan = { limit: 20, page: 1, all: false, priceMilli: 10 };
    expect(maxPages(plan)).toBe(1);
    expect(worstCase(plan)).toEqual({ milli: 200, basis: '20 creators x 1 page x 0.01' });
    expect(maxPages({ ...plan, all: true })).toBe(500);
    expect(maxPages({ ...plan, all: true, maxResults: 41 })).toBe(3);
    expect(maxPages({ ...plan, all: true, page: 499 })).toBe(2);
  });

  it('--all without --max-results: 50 a page, the worst case is the 10,000 cap', () => {
    expect(worstCase({ limit: 50, page: 1, all: true, priceMilli: 10 })).toEqual({
      milli: 100_000,
      basis: '50 creators x 200 pages x 0.01',
    });
  });

  it('prices come from the contract: 0.01, 0.03 with filter values, 0.01 for similar', () => {
    expect(discoveryPriceMilli('search')).toBe(10);
    expect(discoveryPriceMilli('search', true)).toBe(30);
    expect(discoveryPriceMilli('similar', true)).toBe(10);
  });

  it('a plan is the first request with the worst case of the run (limit x pages x price)', () => {
    const req = {
      kind: 'search' as const,
      body: { platform: 'instagram', paging: { limit: 10, page: 0 } },
      returnFilterValues: true,
    };
    expect(discoveryPlan(req)).toEqual({
      method: 'POST',
      path: 'discovery',
      query: { return_filter_values: 'true' },
      body: req.body,
      worstCaseMilli: 300,
      costBasis: '10 creators x 1 page x 0.03',
      purchase: { kind: 'page', platform: 'instagram' },
      label: 'Searching…',
    });
    const run = discoveryPlan(req, { limit: 10, page: 1, all: true, maxResults: 25 });
    expect(run).toMatchObject({
      worstCaseMilli: 750,
      costBasis: '25 creators x 0.03, in pages of 10 and a smaller last request',
    });
    const similar = discoveryPlan(
      { kind: 'similar', body: { paging: { limit: 5, page: 0 } } },
      { limit: 5, page: 1, all: true },
    );
    expect(similar).toMatchObject({
      path: 'discovery/creators/similar',
      query: undefined,
      worstCaseMilli: 10_000 * 10,
      costBasis: '5 creators x 2,000 pages x 0.01',
    });
  });
});
