import { afterEach, describe, expect, it } from 'vitest';

import { humanCount, humanDate, percent, toNumber, truncate } from '../../../src/lib/output/humanize.js';
import { displayWidth } from '../../../src/lib/io/width.js';

describe('humanCount', () => {
  it('shortens counts with one decimal at most', () => {
    expect(humanCount(999)).toBe('999');
    expect(humanCount(12345)).toBe('12.3k');
    expect(humanCount(1234567)).toBe('1.2M');
    expect(humanCount(1.5e9)).toBe('1.5B');
    expect(humanCount(12000)).toBe('12k');
    expect(humanCount(0)).toBe('0');
    expect(humanCount(-12345)).toBe('-12.3k');
  });

  it('moves to the next unit when rounding reaches 1000', () => {
    expect(humanCount(999_950)).toBe('1M');
    expect(humanCount(999_949)).toBe('999.9k');
  });

  it('reads numeric strings and passes other text through', () => {
    expect(humanCount('11849.48')).toBe('11.8k');
    expect(humanCount(' 1500 ')).toBe('1.5k');
    expect(humanCount('n/a')).toBe('n/a');
    expect(humanCount('')).toBe('');
    expect(humanCount(null)).toBe('');
    expect(humanCount(undefined)).toBe('');
  });
});

describe('toNumber', () => {
  it('accepts decimal numbers and numeric strings only', () => {
    expect(toNumber('11849.48')).toBe(11849.48);
    expect(toNumber('1e3')).toBe(1000);
    expect(toNumber('0x10')).toBeUndefined();
    expect(toNumber('')).toBeUndefined();
    expect(toNumber(Number.NaN)).toBeUndefined();
    expect(toNumber(true)).toBeUndefined();
  });
});

describe('percent', () => {
  it('formats percent-unit values and fractions', () => {
    expect(percent(3.456)).toBe('3.46%');
    expect(percent('2.5')).toBe('2.5%');
    expect(percent(10)).toBe('10%');
    expect(percent(0.0345, { fraction: true })).toBe('3.45%');
    expect(percent(1 / 3, { fraction: true, digits: 1 })).toBe('33.3%');
    expect(percent('x')).toBe('x');
  });
});

describe('humanDate', () => {
  const savedTz = process.env.TZ;
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('shortens ISO timestamps and epoch numbers, naming the zone', () => {
    process.env.TZ = 'UTC';
    expect(humanDate('2024-05-06T07:08:09.123Z')).toBe('2024-05-06 07:08 UTC');
    expect(humanDate(1_700_000_000)).toBe('2023-11-14 22:13 UTC');
    expect(humanDate(1_700_000_000_000)).toBe('2023-11-14 22:13 UTC');
    expect(humanDate('2024-05-06T07:08:09Z', { seconds: true })).toBe('2024-05-06 07:08:09 UTC');
    expect(humanDate('2024-05-06')).toBe('2024-05-06');
    expect(humanDate('soon')).toBe('soon');
  });

  it('uses the time zone of the process (TZ)', () => {
    process.env.TZ = 'America/Los_Angeles';
    expect(humanDate('2024-05-06T07:08:09Z')).toBe('2024-05-06 00:08 PDT');
    expect(humanDate('2024-12-06T07:08:09Z')).toBe('2024-12-05 23:08 PST');
    process.env.TZ = 'Europe/Berlin';
    expect(humanDate('2024-05-06T23:30:00Z')).toBe('2024-05-07 01:30 GMT+2');
  });
});

describe('truncate', () => {
  it('cuts to the width with an ellipsis', () => {
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(displayWidth(truncate('hello world', 8))).toBe(8);
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('hello', 1)).toBe('…');
    expect(truncate('hello', 0)).toBe('');
  });

  it('counts wide characters as two columns and flattens line breaks', () => {
    expect(displayWidth('日本語')).toBe(6);
    expect(truncate('日本語テキスト', 7)).toBe('日本語…');
    expect(truncate('a\nb\tc', 10)).toBe('a b c');
  });
});

describe('durationText', () => {
  it('names a window in the largest unit it divides into, a day as 24 hours', async () => {
    const { durationText } = await import('../../../src/lib/output/humanize.js');
    expect(durationText(14 * 86_400_000)).toBe('14 days');
    expect(durationText(86_400_000)).toBe('24 hours');
    expect(durationText(2 * 86_400_000)).toBe('2 days');
    expect(durationText(90 * 60_000)).toBe('90 minutes');
    expect(durationText(30_000)).toBe('30 seconds');
  });
});
