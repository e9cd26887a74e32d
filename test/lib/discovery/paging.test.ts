import { describe, expect, it } from 'vitest';
import type { DiscoveryPage } from '../../../src/lib/api/discovery.js';
import { choosePageLimit, discoveryRecords, newTally, nextLimit, pageBase } from '../../../src/lib/discovery/paging.js';

const page = (ids: string[], total?: number): DiscoveryPage => ({
  total,
  limit: 2,
  credits_left: '9.98',
  accounts: ids.map((id) => ({ user_id: id, profile: { username: `u${id}` } })),
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('discovery paging (lib)', () => {
  it('asks for wire pages from the base and stops at a short page', async () => {
    const asked: number[] = [];
    const tally = newTally();
    const pages: Record<number, DiscoveryPage> = { 1: page(['a', 'b']), 2: page(['c']) };
    const got = await collect(
      discoveryRecords(
        { limit: 2, page: 1, all: true, priceMilli: 10 },
        1,
        async (n) => (asked.push(n), pages[n]!),
        tally,
      ),
    );
    expect(asked).toEqual([1, 2]);
    expect(got.map((a) => a.user_id)).toEqual(['a', 'b', 'c']);
    expect(tally).toMatchObject({
      pages: 2,
      returned: 3,
      printed: 3,
      spentMilli: 30,
      creditsLeft: '9.98',
      stop: 'end',
    });
  });

  it('stops at total without asking for an empty page', async () => {
    const asked: number[] = [];
    const tally = newTally();
    await collect(
      discoveryRecords(
        { limit: 2, page: 1, all: true, priceMilli: 10 },
        0,
        async (n) => (asked.push(n), page([`x${n}a`, `x${n}b`], 4)),
        tally,
      ),
    );
    expect(asked).toEqual([0, 1]);
    expect(tally.stop).toBe('end');
  });

  it('a server that repeats a page (wrong base) stops the run instead of paying again', async () => {
    const tally = newTally();
    const got = await collect(
      discoveryRecords({ limit: 2, page: 1, all: true, priceMilli: 10 }, 0, async () => page(['a', 'b']), tally),
    );
    expect(got).toHaveLength(2);
    expect(tally).toMatchObject({ pages: 2, stop: 'repeat', spentMilli: 40 });
  });
});

describe('--max-results page sizes (lib)', () => {
  it.each([
    [7, 7],
    [50, 50],
    [51, 50],
    [100, 50],
    [101, 50],
    [104, 50],
    [120, 40],
    [149, 50],
    [150, 50],
    [500, 50],
    [9_999, 50],
    [10_000, 50],
    [20_000, 50],
  ])('n=%i -> page size %i (equal pages when they exist, else 50 and a smaller tail)', (n, limit) => {
    expect(choosePageLimit(n)).toBe(limit);
  });

  it('the tail requests land on aligned offsets and add up to exactly n, for every n and page size', () => {
    for (const limit of [7, 20, 34, 50]) {
      for (let n = 1; n <= 400; n++) {
        let offset = 0;
        let requests = 0;
        while (offset < n) {
          const size = nextLimit(offset, n - offset, limit);
          expect(offset % size, `limit=${limit} n=${n} offset=${offset}`).toBe(0);
          expect(size).toBeLessThanOrEqual(Math.min(limit, n - offset));
          offset += size;
          requests++;
        }
        expect(offset).toBe(n);
        expect(requests).toBeLessThanOrEqual(Math.floor(n / limit) + 8);
      }
    }
  });
});

describe('page base', () => {
  it('is 0 unless CREATORS_PAGE_BASE or the page-base setting says 1', () => {
    expect(pageBase(undefined)).toBe(0);
    expect(pageBase(' 1 ')).toBe(1);
    expect(() => pageBase('2')).toThrow(/^Invalid page base '2': use 0 or 1/);
  });
});
