/**
 * What a charge is read as (lib/store/memory.ts `readCharge`): the service's `credits_cost` only when it is a
 * finite, non-negative number within the route's price for the records returned; else the price table's charge,
 * with the refused figure named for the warning. Discounts are believed.
 */
import { describe, expect, it } from 'vitest';
import { readCharge } from '../../../src/lib/api/charge.js';
import { parseJson } from '../../../src/lib/exact-json.js';

const full = { path: 'creators/enrich/handle/full' };
const posts = { path: '/public/v1/creators/content/posts/' };
const search = { path: 'discovery' };
const searchWithValues = { path: 'discovery', query: { return_filter_values: 'true' } };
const page = (n: number, cost: unknown) => ({
  accounts: Array.from({ length: n }, (_, i) => ({ username: `c${i}` })),
  credits_cost: cost,
});

describe('readCharge', () => {
  it.each([
    ['-5', -5],
    ['1e300', 1e300],
    ['"5e15"', '5e15'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['"abc"', 'abc'],
    ['""', ''],
    ['"-0.5"', '-0.5'],
    ['1.001 (over the full price)', 1.001],
    ['true', true],
    ['an object', { value: 1 }],
  ])(
    'credits_cost %s on a found full enrichment: not believed, the price table charge (1) is logged',
    (shown, said) => {
      const r = readCharge(full, { result: { a: 1 }, credits_cost: said }, true);
      expect(r.milli).toBe(1000);
      expect(r.refused).toMatchObject({ mostMilli: 1000 });
      expect(r.refused?.said).toBe(typeof said === 'string' ? JSON.stringify(said) : String(said));
      expect(shown).toBeTruthy();
    },
  );

  it('a lie on a not-found answer logs nothing (nothing found is free)', () => {
    expect(readCharge(full, { result: null, credits_cost: -5 }, false)).toMatchObject({
      milli: 0,
      refused: { said: '-5' },
    });
  });

  it('a discount, zero, or the price itself is believed (as a number, a string or an exact number)', () => {
    expect(readCharge(full, { credits_cost: 0 }, true)).toEqual({ milli: 0 });
    expect(readCharge(full, { credits_cost: '0.25' }, true)).toEqual({ milli: 250 });
    expect(readCharge(full, { credits_cost: 1 }, true)).toEqual({ milli: 1000 });
    expect(readCharge(full, parseJson('{"credits_cost": 1.000000000000000000001}'), true)).toEqual({ milli: 1000 });
    // Posts: 0.03 charged, 0.15 the highest published figure: both believed.
    expect(readCharge(posts, { credits_cost: 0.15 }, true)).toEqual({ milli: 150 });
    expect(readCharge(posts, { credits_cost: 0.16 }, true)).toMatchObject({ milli: 30, refused: { mostMilli: 150 } });
  });

  it('per creator returned: the bound is the records in the answer at the route price for this query', () => {
    expect(readCharge(search, page(5, 0.05), true)).toEqual({ milli: 50 });
    expect(readCharge(search, page(5, 0.06), true)).toMatchObject({ milli: 50, refused: { mostMilli: 50 } });
    expect(readCharge(searchWithValues, page(5, 0.15), true)).toEqual({ milli: 150 });
    // An empty page costs nothing, whatever it says.
    expect(readCharge(search, page(0, 0.2), true)).toMatchObject({ milli: 0, refused: { mostMilli: 0 } });
  });

  it('no credits_cost: the price table, as before', () => {
    expect(readCharge(full, { result: { a: 1 } }, true)).toEqual({ milli: 1000 });
    expect(readCharge(full, { result: null }, false)).toEqual({ milli: 0 });
    expect(readCharge(search, page(3, undefined), true)).toEqual({ milli: 30 });
    expect(readCharge({ path: 'some/unpriced/route' }, {}, true)).toEqual({ milli: undefined });
  });

  it('an unpriced route: a plausible figure is believed, one past exact sums is not (and nothing is logged)', () => {
    expect(readCharge({ path: 'some/unpriced/route' }, { credits_cost: 2.5 }, true)).toEqual({ milli: 2500 });
    expect(readCharge({ path: 'some/unpriced/route' }, { credits_cost: '5e15' }, true)).toMatchObject({
      milli: undefined,
      refused: { said: '"5e15"' },
    });
  });
});
