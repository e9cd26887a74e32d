/** The text charts: sparklines, bars, trend rows and histograms, Unicode and ASCII, fitted to a width. */
import { describe, expect, it } from 'vitest';
import { barRows, changeText, histogramRows, sparkline, trendRows } from '../../../src/lib/output/charts.js';
import { displayWidth } from '../../../src/lib/io/width.js';

const WIDTHS = [60, 100, 200] as const;
const BLOCKS = /[\u2580-\u259f▲]/;

describe('sparkline', () => {
  it('one level per value from 0 to the highest, Unicode or ASCII', () => {
    const rising = [0, 1, 2, 3, 4, 5, 6, 7];
    expect(sparkline(rising, { unicode: true })).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline(rising, { unicode: false })).toBe('_.:-=+*#');
    expect(sparkline([0, 0, 0], { unicode: true })).toBe('▁▁▁');
    // From 0: a flat series that is not zero is high; cells repeat each value.
    expect(sparkline([5, 5], { unicode: true, cell: 3 })).toBe('██████');
    // From the lowest value: the changes show.
    expect(sparkline([90, 95, 100], { unicode: true, baseline: 'lowest' })).toBe('▁▅█');
  });

  it('colour only with colour on', () => {
    expect(sparkline([1, 2], { unicode: true, color: true })).toContain('\x1b[36m');
    expect(sparkline([1, 2], { unicode: true })).not.toContain('\x1b');
  });
});

describe('barRows', () => {
  const rows = [
    { label: 'India', parts: [0.6] },
    { label: 'United States', parts: [0.209] },
    { label: 'Kolkata', parts: [0.002] },
  ];

  it.each(WIDTHS)('at %i columns: every line fits, bars start in one column, percentages right-aligned', (width) => {
    const lines = barRows(rows, { width, unicode: true, color: false });
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    const starts = lines.map((line) => line.search(/[█▏▎▍▌▋▊▉░]/));
    expect(new Set(starts).size).toBe(1);
    expect(lines.map((line) => line.trimEnd().split(/\s+/).at(-1))).toEqual(['60%', '20.9%', '0.2%']);
    expect(new Set(lines.map((line) => displayWidth(line))).size).toBe(1);
  });

  it('a bar is its share of the track: eighths in Unicode, whole cells in ASCII; a share above 0 is never empty', () => {
    const [half] = barRows([{ label: 'a', parts: [0.5], text: '50%' }], {
      width: 50,
      unicode: true,
      color: false,
      maxBar: 40,
    });
    expect(half).toBe(`a  ${'█'.repeat(20)}${'░'.repeat(20)}  50%`);
    const [eighth] = barRows([{ label: 'a', parts: [0.5 + 1 / 80], text: 'x' }], {
      width: 50,
      unicode: true,
      color: false,
      maxBar: 40,
    });
    expect(eighth).toContain(`${'█'.repeat(20)}▌${'░'.repeat(19)}`);
    const [ascii] = barRows([{ label: 'a', parts: [0.5], text: '50%' }], {
      width: 50,
      unicode: false,
      color: false,
      maxBar: 40,
    });
    expect(ascii).toBe(`a  ${'#'.repeat(20)}${'.'.repeat(20)}  50%`);
    const [tiny] = barRows([{ label: 'a', parts: [0.001], text: '0.1%' }], {
      width: 50,
      unicode: false,
      color: false,
      maxBar: 40,
    });
    expect(tiny).toContain(`#${'.'.repeat(39)}`);
  });

  it('a split bar: the first share full, the second shaded, together the whole bar', () => {
    const [line] = barRows([{ label: 'noah', parts: [0.56, 0.44], text: '56% unique' }], {
      width: 60,
      unicode: true,
      color: false,
      maxBar: 40,
    });
    expect(line).toContain(`${'█'.repeat(22)}${'▒'.repeat(18)}`);
    const [ascii] = barRows([{ label: 'noah', parts: [0.56, 0.44], text: '56% unique' }], {
      width: 60,
      unicode: false,
      color: false,
      maxBar: 40,
    });
    expect(ascii).toContain(`${'#'.repeat(22)}${'='.repeat(18)}`);
  });

  it('labels are cut only when the bar would be too narrow', () => {
    const long = 'a_really_long_handle_that_goes_on_and_on';
    const wide = barRows([{ label: long, parts: [0.5] }], { width: 100, unicode: true, color: false });
    expect(wide[0]).toContain(long);
    const narrow = barRows([{ label: long, parts: [0.5] }], { width: 40, unicode: true, color: false });
    expect(narrow[0]).toContain('…');
    expect(displayWidth(narrow[0]!)).toBeLessThanOrEqual(40);
  });
});

describe('trendRows', () => {
  const series = [
    { label: 'Posts', values: [10, 12, 9, 14, 20, 18, 15], format: String },
    { label: 'Reach', values: [0, 0, 0, 5, 6, 7, 8], format: String },
  ];

  it.each(WIDTHS)('at %i columns: a header, then label, sparkline, first, last and change per metric', (width) => {
    const lines = trendRows(series, { width, unicode: true, color: false, trendLabel: 'each day' });
    expect(lines[0]!.trim().split(/\s{2,}/)).toEqual(['each day', 'first', 'last', 'change']);
    expect(lines[1]).toMatch(/^Posts +[▁-█]+ +10 +15 +\+50%$/);
    expect(lines[2]).toMatch(/^Reach +[▁-█]+ +0 +8 +from 0$/);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
  });

  it('ASCII when not Unicode', () => {
    const lines = trendRows(series, { width: 100, unicode: false, color: false });
    expect(lines.join('\n')).not.toMatch(BLOCKS);
    expect(lines[1]).toMatch(/^Posts +[_.:\-=+*#]+ +10 +15 +\+50%$/);
  });

  it('change: signed percent, one decimal under 10%, from 0', () => {
    expect(changeText(100, 125)).toBe('+25%');
    expect(changeText(100, 32)).toBe('-68%');
    expect(changeText(100, 103.4)).toBe('+3.4%');
    expect(changeText(0, 5)).toBe('from 0');
    expect(changeText(0, 0)).toBe('0%');
  });
});

describe('histogramRows', () => {
  const histogram = { counts: [1, 3, 8, 5, 2], low: '50%', high: '100%', mark: { bin: 3, label: '85%' } };

  it.each(WIDTHS)('at %i columns: the bins between their ends, the marker under its bin', (width) => {
    const [bars, mark] = histogramRows(histogram, { width, unicode: true, color: false });
    expect(bars).toMatch(/^50% [▁-█]+ 100%$/);
    const cell = (bars!.length - '50% '.length - ' 100%'.length) / 5;
    expect(mark!.indexOf('▲')).toBe(4 + 3 * cell + Math.floor((cell - 1) / 2));
    expect(mark!.endsWith('▲ 85%')).toBe(true);
    expect(displayWidth(bars!)).toBeLessThanOrEqual(width);
  });

  it('ASCII: levels and a caret', () => {
    const lines = histogramRows(histogram, { width: 60, unicode: false, color: false });
    expect(lines.join('\n')).not.toMatch(BLOCKS);
    expect(lines[1]).toContain('^ 85%');
  });
});
