/**
 * Concurrent paging (discoveryRecords with a window > 1) against a scripted server whose pages answer
 * out of order: the output stays in page order, the pages bought are exactly those of a sequential run
 * (window 1), and a failed page or an interruption keeps every page that came back (paid).
 */
import { describe, expect, it } from 'vitest';
import type { DiscoveryPage } from '../../../src/lib/api/discovery.js';
import { CreditsError, InterruptedError, ApiError } from '../../../src/lib/errors.js';
import { discoveryRecords, newTally, type RunTally } from '../../../src/lib/discovery/paging.js';

interface Server {
  total: number;
  /** The wire page -> an error to answer with instead. */
  fail?: (wire: number, limit: number) => Error | undefined;
  /** Answer page n after the later ones (reverse order within the window). */
  reverse?: boolean;
}

/** Runs a search --all against the scripted server; returns the creators printed, the requests made, and the most in flight at once. */
async function run(server: Server, plan: { limit: number; page?: number; maxResults?: number }, window: number) {
  const asked: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const pending: (() => void)[] = [];
  const tally: RunTally = newTally();
  const fetchPage = (wire: number, limit: number): Promise<DiscoveryPage> => {
    asked.push(`${wire}x${limit}`);
    inFlight++;
    peak = Math.max(peak, inFlight);
    return new Promise<DiscoveryPage>((resolve, reject) => {
      const answer = (): void => {
        inFlight--;
        const err = server.fail?.(wire, limit);
        if (err) return reject(err);
        const from = wire * limit;
        const ids = Array.from({ length: Math.max(0, Math.min(limit, server.total - from)) }, (_, i) => `c${from + i}`);
        resolve({
          total: server.total,
          limit,
          credits_left: '1',
          accounts: ids.map((id) => ({ user_id: id, profile: { username: id } })),
        });
      };
      pending.push(answer);
      // Answered when everything sent so far is waiting: in reverse order, or in order.
      queueMicrotask(() =>
        setImmediate(() => {
          const batch = pending.splice(0);
          for (const a of server.reverse ? batch.reverse() : batch) a();
        }),
      );
    });
  };
  const printed: string[] = [];
  let error: unknown;
  try {
    for await (const a of discoveryRecords(
      { limit: plan.limit, page: plan.page ?? 1, all: true, maxResults: plan.maxResults, priceMilli: 10 },
      0,
      fetchPage,
      tally,
      undefined,
      () => window,
    )) {
      printed.push(String(a.user_id));
    }
  } catch (err) {
    error = err;
  }
  return { printed, asked, peak, tally, error };
}

describe('concurrent paging', () => {
  it.each([
    ['the whole result set', { total: 437 }, { limit: 20 }],
    ['--max-results with aligned tail requests', { total: 5000 }, { limit: 50, maxResults: 1234 }],
    ['--max-results at the total', { total: 300 }, { limit: 50, maxResults: 300 }],
    ['from page 3', { total: 500 }, { limit: 25, page: 3, maxResults: 180 }],
    ['the 10,000 cap', { total: 50_000 }, { limit: 50 }],
  ])(
    '%s: same pages bought and printed as a sequential run, in page order, several at once',
    async (_name, server, plan) => {
      const sequential = await run(server, plan, 1);
      const concurrent = await run({ ...server, reverse: true }, plan, 6);
      expect(sequential.error).toBeUndefined();
      expect(concurrent.error).toBeUndefined();
      expect(sequential.peak).toBe(1);
      expect(concurrent.peak).toBeGreaterThan(1);
      expect(concurrent.peak).toBeLessThanOrEqual(6);
      expect([...concurrent.asked].sort()).toEqual([...sequential.asked].sort());
      expect(concurrent.printed).toEqual(sequential.printed);
      expect(concurrent.tally).toEqual(sequential.tally);
    },
  );

  it('402 part-way: the pages before it are printed, the ones after it fail too, nothing paid is lost, and the error is thrown', async () => {
    // The balance runs out at wire page 7: that page and every later one are refused.
    const server: Server = {
      total: 1000,
      reverse: true,
      fail: (wire) => (wire >= 7 ? new CreditsError('Insufficient credits.') : undefined),
    };
    const r = await run(server, { limit: 20 }, 6);
    expect(r.error).toBeInstanceOf(CreditsError);
    expect(r.printed).toEqual(Array.from({ length: 7 * 20 }, (_, i) => `c${i}`));
    expect(r.tally).toMatchObject({ pages: 7, returned: 140, printed: 140, spentMilli: 1400 });
    // Sent ahead within the window, never past it.
    expect(r.asked.length).toBeLessThanOrEqual(7 + 6);
  });

  it('a page failing while later ones come back: the later ones were paid, so they are printed (after the gap) before the error', async () => {
    const server: Server = {
      total: 1000,
      reverse: true,
      fail: (wire) => (wire === 4 ? new ApiError('Server error (HTTP 500).', { status: 500 }) : undefined),
    };
    const r = await run(server, { limit: 20 }, 4);
    expect(r.error).toBeInstanceOf(ApiError);
    const pagesPrinted = [...new Set(r.printed.map((id) => Math.floor(Number(id.slice(1)) / 20)))];
    expect(pagesPrinted.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(pagesPrinted).not.toContain(4);
    // Every page that came back is counted as spent and printed.
    expect(r.tally.spentMilli).toBe(r.printed.length * 10);
    expect(r.tally.pages).toBe(pagesPrinted.length);
    expect(r.asked.length - 1).toBe(pagesPrinted.length);
  });

  it('Ctrl-C: pages not yet sent are refused by the client; those sent come back and are printed in order', async () => {
    let interrupted = false;
    const server: Server = {
      total: 1000,
      reverse: true,
      fail: (wire) => {
        if (wire === 5) interrupted = true;
        return interrupted && wire > 6 ? new InterruptedError() : undefined;
      },
    };
    const r = await run(server, { limit: 20 }, 4);
    expect(r.error).toBeInstanceOf(InterruptedError);
    expect(r.printed).toEqual(Array.from({ length: r.printed.length }, (_, i) => `c${i}`));
    expect(r.printed.length).toBeGreaterThanOrEqual(7 * 20);
    expect(r.tally.spentMilli).toBe(r.printed.length * 10);
  });
});
