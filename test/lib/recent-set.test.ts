import { describe, expect, it } from 'vitest';
import { RecentSet } from '../../src/lib/recent-set.js';

describe('RecentSet (what a long run recognises again: flat memory)', () => {
  it('knows the last `limit` values, forgets the oldest beyond them, whatever the count added', () => {
    const recent = new RecentSet<string>(2);
    expect(recent.add('a')).toBe(true);
    expect(recent.add('b')).toBe(true);
    expect(recent.has('a')).toBe(true);
    expect(recent.add('c')).toBe(true);
    expect(recent.has('a')).toBe(false);
    expect([recent.has('b'), recent.has('c')]).toEqual([true, true]);
    for (let i = 0; i < 50_000; i++) recent.add(`k${i}`);
    expect([recent.has('k49999'), recent.has('k49998'), recent.has('k49997')]).toEqual([true, true, false]);
  });
});
