/**
 * `--timeout` counts the time the process was running (lib/http/attempt.ts `awakeTimeout`): a process stopped
 * (SIGSTOP, Ctrl-Z) or an event loop held longer than the timeout wakes to answers that arrived meanwhile,
 * and a late timer must not throw them away. The clock is injected: a stop is a jump of the clock between two
 * ticks of real timers. (test/e2e/outbox.test.ts stops a real process.)
 */
import { describe, expect, it } from 'vitest';
import { awakeTimeout } from '../../../src/lib/http/attempt.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the request timeout counts time awake', () => {
  it('fires after the timeout of time running', async () => {
    let fired = 0;
    const started = performance.now();
    awakeTimeout(300, () => (fired = performance.now() - started));
    await wait(600);
    expect(fired).toBeGreaterThanOrEqual(290);
    expect(fired).toBeLessThan(550);
  });

  it('a stop far longer than the timeout counts as one short step: what arrives next is still taken', async () => {
    let offset = 0;
    let fired = false;
    const t = awakeTimeout(
      1000,
      () => (fired = true),
      () => performance.now() + offset,
    );
    await wait(50);
    // 60 s pass while the process is stopped.
    offset += 60_000;
    await wait(300);
    expect(fired).toBe(false);
    t.clear();
    await wait(1200);
    expect(fired).toBe(false);
  });
});
