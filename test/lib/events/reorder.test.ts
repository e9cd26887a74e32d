import { describe, expect, it } from 'vitest';
import { ReorderWindow } from '../../../src/lib/events/reorder.js';

/** Events read in id order, each occurring up to `jitterS` seconds before its creation second. */
function drive(
  window: ReorderWindow,
  n: number,
  jitterS: number,
  at?: (i: number) => number,
): { order: number[]; maxHeld: number } {
  let seed = 7;
  const rnd = (): number => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
  const order: number[] = [];
  let maxHeld = 0;
  const out = (): void => {
    const next = window.peek();
    if (!next) throw new Error('empty window');
    order.push(next.id);
    window.take(next.id);
  };
  for (let i = 0; i < n; i++) {
    const ms = at ? at(i) : i * 1000 - Math.floor(rnd() * jitterS * 1000);
    window.add(i, { id: i, date_occurance: new Date(1e12 + ms).toISOString() });
    maxHeld = Math.max(maxHeld, window.size);
    while (window.full) out();
  }
  while (window.size > 0) out();
  return { order, maxHeld };
}

describe('the reorder window of events tail', () => {
  it('puts events read in id order into order of occurrence, holding no more than its size', () => {
    const times = new Map<number, number>();
    const { order, maxHeld } = drive(new ReorderWindow(50), 5_000, 20, undefined);
    expect(order).toHaveLength(5_000);
    expect(new Set(order).size).toBe(5_000);
    expect(maxHeld).toBeLessThanOrEqual(51);
    // Recompute the same times to check the order (same generator, same seed).
    let seed = 7;
    const rnd = (): number => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 5_000; i++) times.set(i, i * 1000 - Math.floor(rnd() * 20_000));
    const t = order.map((id) => times.get(id) as number);
    expect(t.every((v, i) => i === 0 || v >= (t[i - 1] as number))).toBe(true);
  });

  it('an event far out of order is printed late, not held for ever: the oldest pending id stays close', () => {
    const window = new ReorderWindow(10);
    // Every event occurs before all those read earlier: the heap alone would hold the first for ever.
    let worstLag = 0;
    for (let i = 0; i < 1_000; i++) {
      window.add(i, { id: i, date_occurance: new Date(1e12 - i * 1000).toISOString() });
      while (window.full) {
        const next = window.peek();
        if (!next) break;
        window.take(next.id);
      }
      worstLag = Math.max(worstLag, i - (window.oldestPending() ?? i));
    }
    expect(worstLag).toBeLessThanOrEqual(21);
  });
});
