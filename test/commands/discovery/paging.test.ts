import { describe, expect, it } from 'vitest';
import type { DiscoveryPage } from '../../../src/lib/api/discovery.js';
import { discoveryRecords, maxPages, newTally, worstCase } from '../../../src/lib/discovery/paging.js';
import { runCli } from '../../helpers/run-cli.js';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';

const page = (ids: string[], total?: number): DiscoveryPage => ({
  total, limit: 2, credits_left: '9.98', accounts: ids.map((id) => ({ user_id: id, profile: { username: `u${id}` } })),
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('discovery paging (lib)', () => {
  it('counts pages and worst case: one page, or --max-results / the 10,000 cap in whole pages', () => {
    const plan = { limit: 20, page: 1, all: false, priceMilli: 10 };
    expect(maxPages(plan)).toBe(1);
    expect(worstCase(plan)).toEqual({ milli: 200, basis: '20 creators x 1 page x 0.01' });
    expect(maxPages({ ...plan, all: true })).toBe(500);
    expect(maxPages({ ...plan, all: true, maxResults: 41 })).toBe(3);
    expect(maxPages({ ...plan, all: true, page: 499 })).toBe(2);
  });

  it('asks for wire pages from the base and stops at a short page', async () => {
    const asked: number[] = [];
    const tally = newTally();
    const pages: Record<number, DiscoveryPage> = { 1: page(['a', 'b']), 2: page(['c']) };
    const got = await collect(discoveryRecords({ limit: 2, page: 1, all: true, priceMilli: 10 }, 1, async (n) => (asked.push(n), pages[n]!), tally));
    expect(asked).toEqual([1, 2]);
    expect(got.map((a) => a.user_id)).toEqual(['a', 'b', 'c']);
    expect(tally).toMatchObject({ pages: 2, returned: 3, printed: 3, spentMilli: 30, creditsLeft: '9.98', stop: 'end' });
  });

  it('stops at total without asking for an empty page', async () => {
    const asked: number[] = [];
    const tally = newTally();
    await collect(discoveryRecords({ limit: 2, page: 1, all: true, priceMilli: 10 }, 0, async (n) => (asked.push(n), page([`x${n}a`, `x${n}b`], 4)), tally));
    expect(asked).toEqual([0, 1]);
    expect(tally.stop).toBe('end');
  });

  it('a server that repeats a page (wrong base) stops the run instead of paying again', async () => {
    const tally = newTally();
    const got = await collect(discoveryRecords({ limit: 2, page: 1, all: true, priceMilli: 10 }, 0, async () => page(['a', 'b']), tally));
    expect(got).toHaveLength(2);
    expect(tally).toMatchObject({ pages: 2, stop: 'repeat', spentMilli: 40 });
  });

  it('the CLI warns about the page base when pages repeat', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, page(['a', 'b']), JSON_HEADERS).times(2);
    const res = await runCli(['search', '--platform', 'instagram', '--all', '--limit', '2', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.json<unknown[]>()).toHaveLength(2);
    expect(res.stderr).toMatch(/^warning: The server sent a page of creators already seen; .*page-base/);
    agent.assertNoPendingInterceptors();
  });

  it('CREATORS_PAGE_BASE must be 0 or 1', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['search', '--platform', 'instagram'], { env: { ...env, CREATORS_PAGE_BASE: '2' }, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Invalid page base '2'/);
  });
});
