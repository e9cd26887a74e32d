import { describe, expect, it } from 'vitest';
import { assignPairs, parseIntegerOption, typedValue } from '../../src/lib/options.js';

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
    expect(assignPairs(['number_of_followers.min=10000', 'number_of_followers.max=50000', 'is_verified=true'], '--filter')).toEqual({
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
