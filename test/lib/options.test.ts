import { describe, expect, it } from 'vitest';
import { assignPairs, parseCreditsMilli, parseIntegerOption, typedValue } from '../../src/lib/options.js';

describe('typed key=value', () => {
  it.each([
    ['10000', 10000],
    ['-2.5', -2.5],
    ['true', true],
    ['false', false],
    ['null', null],
    ['a,b', ['a', 'b']],
    ['1,2', [1, 2]],
    ['"10000"', '10000'],
    ['007', '007'],
    ['new york', 'new york'],
  ])('%s', (raw, expected) => {
    expect(typedValue(raw)).toEqual(expected);
  });

  it('nests dot paths', () => {
    expect(
      assignPairs(['number_of_followers.min=10000', 'number_of_followers.max=50000', 'is_verified=true'], '--filter'),
    ).toEqual({
      number_of_followers: { min: 10000, max: 50000 },
      is_verified: true,
    });
  });

  it.each(['novalue', '=x', 'a..b=1', '.a=1'])('refuses %j', (pair) => {
    expect(() => assignPairs([pair], '--filter')).toThrow(/Malformed --filter/);
  });

  it('parses integers strictly', () => {
    expect(parseIntegerOption('12', '--limit')).toBe(12);
    expect(parseIntegerOption(undefined, '--limit')).toBeUndefined();
    expect(() => parseIntegerOption('1.5', '--limit')).toThrow(/expected a whole number/);
    expect(() => parseIntegerOption('-1', '--limit', 0)).toThrow(/must be 0 or more/);
  });
});

describe('credits in thousandths', () => {
  it.each([
    ['0.03', 30],
    ['0.5', 500],
    ['12', 12_000],
    ['.25', 250],
    ['7.', 7000],
    // Exact from the decimal text: 0.5005 x 1000 in floating point is 500.4999..., which rounded down.
    ['0.5005', 501],
    ['1.0004', 1000],
    ['0.0005', 1],
    [' 2.5 ', 2500],
    ['1e3', 1_000_000],
  ])('%j is %i', (raw, milli) => {
    expect(parseCreditsMilli(raw, '--max-credits')).toBe(milli);
  });

  it.each(['-1', 'lots', '.', 'Infinity'])('refuses %j naming what it reads', (raw) => {
    expect(() => parseCreditsMilli(raw, 'CREATORS_MAX_CREDITS')).toThrow(
      `Invalid CREATORS_MAX_CREDITS '${raw}': expected a number, 0 or more.`,
    );
  });
});
