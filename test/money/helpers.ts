import { expect } from 'vitest';

/**
 * `records` are the complete run's (`whole`), in its order, each once: every paid record kept, none
 * invented or repeated. A sequential run's stop leaves a prefix; with pages in flight together a stop
 * (a 402, Ctrl-C) can leave a gap, since a page after the refused one may already have been answered
 * and charged, and it is kept after the gap (paid records are never dropped).
 */
export function expectInPageOrder(records: readonly string[], whole: readonly string[], context: string): void {
  const at = records.map((r) => whole.indexOf(r));
  expect(
    at.every((i) => i >= 0),
    context,
  ).toBe(true);
  expect(
    at.every((i, k) => k === 0 || i > (at[k - 1] as number)),
    context,
  ).toBe(true);
}
