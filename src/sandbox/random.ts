/**
 * Seeded randomness for the sandbox's synthetic data. Everything generated from a seed must be
 * reproducible across runs and machines, so nothing here touches Math.random or the clock.
 */

/** A PRNG returning floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast, good enough for test data, and identical on every JS engine. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over a string, used to derive independent streams ("42:instagram") from one seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An independent generator for one purpose, derived from the sandbox seed. */
export function streamFor(seed: number, purpose: string): Rng {
  return mulberry32(hash32(`${seed}:${purpose}`));
}

/** Integer in [min, max], both inclusive. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick() from an empty list');
  return items[Math.floor(rng() * items.length)] as T;
}

/** Up to `count` distinct items, in a random order (cheap for a few items from a long list). */
export function pickSome<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const want = Math.min(count, items.length);
  const chosen = new Set<number>();
  const out: T[] = [];
  while (out.length < want) {
    const i = Math.floor(rng() * items.length);
    if (chosen.has(i)) continue;
    chosen.add(i);
    out.push(items[i] as T);
  }
  return out;
}

/** Picks by weight; weights need not sum to 1. */
export function pickWeighted<T>(rng: Rng, items: readonly T[], weights: readonly number[]): T {
  let total = 0;
  for (const w of weights) total += w;
  let r = rng() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i] ?? 0;
    if (r < 0) return items[i] as T;
  }
  return items[items.length - 1] as T;
}

/** Standard normal deviate (Box-Muller); consumes two draws. */
export function normal(rng: Rng): number {
  const u = 1 - rng(); // (0, 1], so log() stays finite
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** `digits` random decimal digits, the first one non-zero (for numeric platform ids). */
export function digitString(rng: Rng, digits: number): string {
  let out = String(intBetween(rng, 1, 9));
  for (let i = 1; i < digits; i++) out += String(intBetween(rng, 0, 9));
  return out;
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
