/**
 * Adaptive concurrency (Little's law) on a fake clock: the runner, a real Pacer and a simulated service
 * that answers after a fixed latency all read one virtual clock, which a driver moves to the next timer
 * whenever everything is idle. No real time passes, so no assertion depends on the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import {
  concurrencyFor,
  inFlightCap,
  INITIAL_CONCURRENCY,
  MAX_IN_FLIGHT,
  pagesInFlightFor,
} from '../../../src/lib/bulk/concurrency.js';
import { CONCURRENCY_CAP } from '../../../src/lib/options.js';
import { OrderedRunner } from '../../../src/lib/bulk/runner.js';
import { Pacer } from '../../../src/lib/http/pacer.js';

describe('concurrencyFor', () => {
  it('is rate x latency (+15 % and one), within [1, cap]; a few at first', () => {
    expect(concurrencyFor({ perSecond: 5, latencyMs: undefined, oldestInFlightMs: 0 })).toBe(INITIAL_CONCURRENCY);
    expect(concurrencyFor({ perSecond: 5, latencyMs: 2000, oldestInFlightMs: 0 })).toBe(13);
    expect(concurrencyFor({ perSecond: 5, latencyMs: 2, oldestInFlightMs: 0 })).toBe(2);
    // Before the first answer, the oldest request's age is the latency's floor.
    expect(concurrencyFor({ perSecond: 10, latencyMs: undefined, oldestInFlightMs: 1000 })).toBe(13);
    // 10 s an answer at 300/min needs 59, under the cap; 30 s needs more than the cap.
    expect(concurrencyFor({ perSecond: 5, latencyMs: 10_000, oldestInFlightMs: 0 })).toBe(59);
    expect(CONCURRENCY_CAP).toBeGreaterThanOrEqual(59);
    expect(concurrencyFor({ perSecond: 5, latencyMs: 30_000, oldestInFlightMs: 0 })).toBe(inFlightCap(5, 30_000));
    expect(concurrencyFor({ perSecond: 10, latencyMs: 3000, oldestInFlightMs: 0 }, 8)).toBe(8);
  });

  it("is capped by the account's rate: 10 s answers fit at 600 and 1,200/min, never past the bound", () => {
    // The pacer runs at 98 % of the limit.
    expect(concurrencyFor({ perSecond: 9.8, latencyMs: 10_000, oldestInFlightMs: 0 })).toBe(
      Math.ceil(9.8 * 10 * 1.15) + 1,
    );
    expect(concurrencyFor({ perSecond: 19.6, latencyMs: 10_000, oldestInFlightMs: 0 })).toBe(
      Math.ceil(19.6 * 10 * 1.15) + 1,
    );
    expect(inFlightCap(5, 10_000)).toBeGreaterThanOrEqual(CONCURRENCY_CAP);
    expect(inFlightCap(50, 10_000)).toBe(MAX_IN_FLIGHT);
    // A local sandbox's huge rate: its latency is this process's own, and more in flight only queues.
    expect(inFlightCap(16_000, 10_000)).toBe(CONCURRENCY_CAP);
    expect(inFlightCap(Number.POSITIVE_INFINITY, 10_000)).toBe(CONCURRENCY_CAP);
    // A quick service (a local sandbox at a huge rate) keeps the fixed 64: more would queue behind this process.
    expect(inFlightCap(16_000, 50)).toBe(CONCURRENCY_CAP);
    expect(concurrencyFor({ perSecond: 16_000, latencyMs: 50, oldestInFlightMs: 0 })).toBe(CONCURRENCY_CAP);
    expect(concurrencyFor({ perSecond: 50, latencyMs: 60_000, oldestInFlightMs: 0 })).toBe(MAX_IN_FLIGHT);
  });
});

describe('pagesInFlightFor', () => {
  it('is 1 below 300 ms a page (page by page, as before), rate x latency above, within the cap', () => {
    expect(pagesInFlightFor({ perSecond: 5, latencyMs: 2, oldestInFlightMs: 0 })).toBe(1);
    expect(pagesInFlightFor({ perSecond: 5, latencyMs: 299, oldestInFlightMs: 0 })).toBe(1);
    expect(pagesInFlightFor({ perSecond: 5, latencyMs: 1000, oldestInFlightMs: 0 })).toBe(6);
    expect(pagesInFlightFor({ perSecond: 5, latencyMs: undefined, oldestInFlightMs: 2000 })).toBe(12);
    expect(pagesInFlightFor({ perSecond: 50, latencyMs: 3000, oldestInFlightMs: 0 })).toBe(Math.ceil(50 * 3 * 1.15));
    expect(pagesInFlightFor({ perSecond: 50, latencyMs: 30_000, oldestInFlightMs: 0 })).toBe(MAX_IN_FLIGHT);
    expect(pagesInFlightFor({ perSecond: 5000, latencyMs: 30_000, oldestInFlightMs: 0 })).toBe(CONCURRENCY_CAP);
  });
});

/** A virtual clock with timers; `drive` runs until `done` settles. */
function virtualTime() {
  let now = 0;
  const timers: { at: number; fire: () => void }[] = [];
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      timers.push({ at: now + ms, fire: resolve });
    });
  const idle = (): Promise<void> => new Promise((r) => setImmediate(r));
  async function drive(done: Promise<unknown>): Promise<void> {
    let finished = false;
    void done.finally(() => (finished = true));
    for (;;) {
      await idle();
      if (finished) return;
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift();
      if (!next) throw new Error('stuck: nothing to wait for');
      now = Math.max(now, next.at);
      next.fire();
    }
  }
  return { now: () => now, sleep, drive };
}

/** N rows through the runner against a service answering in `latencyMs`, paced at `perMinute`. */
async function simulate(rows: number, latencyMs: number, perMinute: number, forced?: number) {
  const t = virtualTime();
  const pacer = new Pacer(perMinute, t.now, (ms) => t.sleep(ms));
  const flights = new Map<number, number>();
  let avg: number | undefined;
  const sent: number[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  const load = () => ({
    perSecond: pacer.perSecond(),
    latencyMs: avg,
    oldestInFlightMs: Math.max(0, ...[...flights.values()].map((s) => t.now() - s)),
  });
  const runner = new OrderedRunner<number, number>({
    items: (async function* () {
      for (let i = 0; i < rows; i++) yield i;
    })(),
    concurrency: forced ?? (() => concurrencyFor(load())),
    recheckMs: 60_000,
    work: async (i) => {
      await pacer.acquire();
      sent.push(t.now());
      flights.set(i, t.now());
      inFlight++;
      peakInFlight = Math.max(peakInFlight, inFlight);
      const started = t.now();
      await t.sleep(latencyMs);
      inFlight--;
      flights.delete(i);
      const took = t.now() - started;
      avg = avg === undefined ? took : avg * 0.8 + took * 0.2;
      return i;
    },
  });
  const out: number[] = [];
  await t.drive(
    (async () => {
      for await (const v of runner.run()) out.push(v);
    })(),
  );
  return { out, sent, peak: runner.peak, peakInFlight, pacer, wallMs: t.now() };
}

describe('the runner sized from observed latency', () => {
  it('at 2 s a request and 300/min it reaches rate x latency in flight and sends at the pacer rate; 4 fixed workers get 2 a second', async () => {
    const adaptive = await simulate(600, 2000, 300);
    expect(adaptive.out).toEqual(Array.from({ length: 600 }, (_, i) => i));
    const target = concurrencyFor({ perSecond: adaptive.pacer.perSecond(), latencyMs: 2000, oldestInFlightMs: 0 });
    expect(target).toBe(13);
    expect(adaptive.peak).toBe(target);
    // Steady state (after the first minute's ramp): requests leave at the pacer's rate, the limit's 98 %.
    const steady = adaptive.sent.filter((at) => at >= 30_000 && at < 90_000).length;
    expect(steady).toBeGreaterThanOrEqual(Math.floor(adaptive.pacer.perSecond() * 60) - 1);
    expect(steady / 300).toBeGreaterThan(0.95);
    // Never more than the limit in any 60 s window: no 429 from a sliding-window server.
    for (let i = 0, j = 0; i < adaptive.sent.length; i++) {
      while ((adaptive.sent[i] as number) - (adaptive.sent[j] as number) >= 60_000) j++;
      expect(i - j + 1).toBeLessThanOrEqual(300);
    }
    const fixed = await simulate(600, 2000, 300, 4);
    expect(fixed.sent.filter((at) => at >= 30_000 && at < 90_000).length).toBe(120);
    expect(adaptive.wallMs).toBeLessThan(fixed.wallMs / 2);
  });

  it('at 10 s and 300/min it still sends at the limit (about 58 in flight; the old cap of 32 gave 32 / 10 s = 192/min)', async () => {
    const slow = await simulate(600, 10_000, 300);
    expect(slow.out).toHaveLength(600);
    const target = concurrencyFor({ perSecond: slow.pacer.perSecond(), latencyMs: 10_000, oldestInFlightMs: 0 });
    expect(target).toBeLessThan(CONCURRENCY_CAP);
    // The runner reaches (about) rate x latency, far past the old cap.
    expect(slow.peak).toBeGreaterThan(32);
    expect(slow.peak).toBeLessThanOrEqual(target);
    const steady = slow.sent.filter((at) => at >= 30_000 && at < 90_000).length;
    expect(steady / 300).toBeGreaterThan(0.95);
    const capped = await simulate(600, 10_000, 300, 32);
    expect(capped.sent.filter((at) => at >= 30_000 && at < 90_000).length).toBeLessThanOrEqual(192);
  });

  it('at 10 s it sends at the limit of a 600 and a 1,200/min account too (the old fixed cap of 64 gave 384/min)', async () => {
    for (const perMinute of [600, 1200]) {
      const run = await simulate(perMinute * 2, 10_000, perMinute);
      expect(run.out).toHaveLength(perMinute * 2);
      expect(run.peak).toBeGreaterThan(perMinute / 6);
      const steady = run.sent.filter((at) => at >= 30_000 && at < 90_000).length;
      expect(steady / perMinute).toBeGreaterThan(0.95);
      for (let i = 0, j = 0; i < run.sent.length; i++) {
        while ((run.sent[i] as number) - (run.sent[j] as number) >= 60_000) j++;
        expect(i - j + 1).toBeLessThanOrEqual(perMinute);
      }
    }
  });

  it('at 30 s and 300/min it grows to the cap (needs 174); at 2 ms it stays at a few', async () => {
    const slow = await simulate(400, 30_000, 300);
    expect(slow.peak).toBe(inFlightCap(slow.pacer.perSecond(), 30_000));
    const quick = await simulate(200, 2, 300);
    expect(quick.peak).toBeLessThanOrEqual(INITIAL_CONCURRENCY);
    expect(quick.out).toHaveLength(200);
  });
});
