import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/lib/errors.js';
import {
  backoffMs,
  mayRetry,
  nextWait,
  pause,
  POLICIES,
  retryPolicy,
  withRetries,
  type RetryClock,
} from '../../src/lib/retry-policy.js';

/** Time moves only when something waits: no real timer, no timing assertion. */
function fakeClock(
  opts: { abortAfterWaits?: number; random?: () => number } = {},
): RetryClock & { waits: number[]; t: number; ctrl: AbortController } {
  const ctrl = new AbortController();
  const clock = {
    t: 0,
    waits: [] as number[],
    ctrl,
    signal: ctrl.signal,
    now: () => clock.t,
    random: opts.random ?? (() => 0.5),
    sleep: async (ms: number, signal?: AbortSignal) => {
      clock.waits.push(ms);
      if (opts.abortAfterWaits !== undefined && clock.waits.length >= opts.abortAfterWaits) ctrl.abort();
      if (signal?.aborted) throw new Error('aborted');
      clock.t += ms;
    },
  };
  return clock;
}

const seq = (policy: Parameters<typeof backoffMs>[0], n: number, random?: () => number): number[] =>
  Array.from({ length: n }, (_, i) => backoffMs(policy, i + 1, random));

class Passing extends Error {}

describe('the waits', () => {
  it('HTTP: from 0.5 s doubling to 8 s, each between half and all of it', () => {
    expect(seq(POLICIES.http, 7, () => 1)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(seq(POLICIES.http, 6, () => 0)).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    expect(backoffMs(POLICIES.http, 2, () => 0.5)).toBe(750);
  });

  it('the others are not left to chance: the forward from 1 s to 30 s, the tail from 2 s to 5 min, the reconnect 100/300/600 ms, the claim every 200 ms', () => {
    const never = (): number => {
      throw new Error('no jitter, no random');
    };
    expect(seq(POLICIES.forward, 7, never)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(seq(POLICIES.tail, 10, never)).toEqual([
      2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000,
    ]);
    expect(seq(POLICIES.storeReconnect, 3, never)).toEqual([100, 300, 600]);
    expect(seq(POLICIES.claimWait, 4, never)).toEqual([200, 200, 200, 200]);
    expect(POLICIES.forward.attempts).toBe(5);
    expect(POLICIES.storeReconnect.attempts).toBe(4);
    expect(POLICIES.claimWait.deadlineMs).toBe(120_000);
  });

  it("a server's wait comes first, and one over the policy's limit is refused, not waited out", () => {
    expect(nextWait(POLICIES.http, 1, 3_000, () => 0)).toEqual({ waitMs: 3_000, tooLong: false });
    expect(nextWait(POLICIES.http, 1, 60_000)).toEqual({ waitMs: 60_000, tooLong: false });
    expect(nextWait(POLICIES.http, 1, 61_000)).toEqual({ waitMs: 61_000, tooLong: true });
    expect(nextWait(POLICIES.http, 3, undefined, () => 1)).toEqual({ waitMs: 2_000, tooLong: false });
    // Its own back-off is never "too long", whatever the limit.
    expect(nextWait(retryPolicy({ baseMs: 10_000, maxServerWaitMs: 1_000 }), 1, undefined)).toEqual({
      waitMs: 10_000,
      tooLong: false,
    });
  });

  it('attempts and the deadline each stop the retries', () => {
    const p = retryPolicy({ attempts: 3, deadlineMs: 1_000 });
    expect(mayRetry(p, 1, 0)).toBe(true);
    expect(mayRetry(p, 2, 999)).toBe(true);
    expect(mayRetry(p, 3, 0)).toBe(false);
    expect(mayRetry(p, 1, 1_000)).toBe(false);
    expect(mayRetry(retryPolicy({}), 1_000_000, 1e12)).toBe(true);
  });
});

describe('withRetries', () => {
  it('tries again after each passing failure, waiting the policy between, and returns the first success', async () => {
    const clock = fakeClock();
    const said: string[] = [];
    const tries: number[] = [];
    const value = await withRetries(
      POLICIES.forward,
      clock,
      { retryable: (e) => e instanceof Passing, onRetry: (_e, n, ms) => said.push(`${n}:${ms}`) },
      async (n) => {
        tries.push(n);
        if (n < 3) throw new Passing();
        return 'ok';
      },
    );
    expect(value).toBe('ok');
    expect(tries).toEqual([1, 2, 3]);
    expect(clock.waits).toEqual([1000, 2000]);
    expect(said).toEqual(['1:1000', '2:2000']);
  });

  it('a failure that is not retryable is thrown at once, with no wait', async () => {
    const clock = fakeClock();
    const boom = new Error('denied');
    await expect(
      withRetries(POLICIES.forward, clock, { retryable: (e) => e instanceof Passing }, async () =>
        Promise.reject(boom),
      ),
    ).rejects.toBe(boom);
    expect(clock.waits).toEqual([]);
  });

  it('when the attempts are used up the last failure is thrown, after attempts - 1 waits', async () => {
    const clock = fakeClock();
    let n = 0;
    const err = await withRetries(POLICIES.storeReconnect, clock, { retryable: () => true }, async () => {
      n++;
      throw new Passing(`try ${n}`);
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('try 4');
    expect(clock.waits).toEqual([100, 300, 600]);
  });

  it('the deadline counts from the first attempt, waits included: no attempt starts after it', async () => {
    const clock = fakeClock();
    let n = 0;
    await expect(
      withRetries(
        retryPolicy({ baseMs: 200, factor: 1, capMs: 200, deadlineMs: 1_000 }),
        clock,
        { retryable: () => true },
        async () => {
          n++;
          throw new Passing();
        },
      ),
    ).rejects.toBeInstanceOf(Passing);
    expect(n).toBe(6); // at 0, 200, 400, 600, 800, 1000 ms; none after
    expect(clock.waits).toEqual([200, 200, 200, 200, 200]);
  });

  it("waits the server's time when it gives one, and refuses a wait over the limit without waiting", async () => {
    const clock = fakeClock();
    const policy = retryPolicy({ attempts: 3, maxServerWaitMs: 5_000 });
    let n = 0;
    const asks = [4_000, 6_000];
    const err = await withRetries(
      policy,
      clock,
      { retryable: () => true, serverWaitMs: () => asks[n - 1] },
      async () => {
        n++;
        throw new Passing(`try ${n}`);
      },
    ).catch((e: unknown) => e);
    expect((err as Error).message).toBe('try 2');
    expect(clock.waits).toEqual([4_000]);
  });

  it('Ctrl-C during a wait ends it: InterruptedError, no further attempt', async () => {
    const clock = fakeClock({ abortAfterWaits: 1 });
    let n = 0;
    await expect(
      withRetries(POLICIES.forward, clock, { retryable: () => true }, async () => {
        n++;
        throw new Passing();
      }),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(n).toBe(1);
  });

  it('Ctrl-C before the first attempt: nothing is tried', async () => {
    const clock = fakeClock();
    clock.ctrl.abort();
    let n = 0;
    await expect(
      withRetries(POLICIES.forward, clock, { retryable: () => true }, async () => ++n),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(n).toBe(0);
  });

  it('a failure while Ctrl-C is pending is the interruption, not the failure', async () => {
    const clock = fakeClock();
    await expect(
      withRetries(POLICIES.forward, clock, { retryable: () => false }, async () => {
        clock.ctrl.abort();
        throw new Error('socket closed');
      }),
    ).rejects.toBeInstanceOf(InterruptedError);
  });

  it('jitter draws from the injected random', async () => {
    const draws = [0, 1, 0.5];
    const clock = fakeClock({ random: () => draws.shift() as number });
    let n = 0;
    await withRetries(POLICIES.http, clock, { retryable: () => true }, async () => {
      if (++n < 4) throw new Passing();
    });
    expect(clock.waits).toEqual([250, 1000, 1500]);
  });
});

describe('pause', () => {
  it('resolves when its wait is cut short by the signal: the caller decides what an interruption means', async () => {
    const clock = fakeClock({ abortAfterWaits: 1 });
    await expect(pause(clock, 5_000)).resolves.toBeUndefined();
    expect(clock.waits).toEqual([5_000]);
    expect(clock.signal?.aborted).toBe(true);
  });
});
