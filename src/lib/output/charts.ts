/**
 * Small text charts for a terminal, each as lines at most `width` columns wide for the caller to place. Colour
 * only paints what the shapes already say, so `--no-color` loses nothing.
 */
import { colors, type Colors } from '../io/color.js';
import { percent, truncate } from './humanize.js';
import { displayWidth } from '../io/width.js';

export interface ChartStyle {
  width: number;
  unicode: boolean;
  color: boolean;
}

interface Glyphs {
  levels: readonly string[];
  full: string;
  /** ASCII has none and rounds to whole cells. */
  eighths: readonly string[];
  track: string;
  second: string;
  marker: string;
}

const UNICODE: Glyphs = {
  levels: [...'▁▂▃▄▅▆▇█'],
  full: '█',
  eighths: ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'],
  track: '░',
  second: '▒',
  marker: '▲',
};

const ASCII: Glyphs = {
  levels: [...'_.:-=+*#'],
  full: '#',
  eighths: [],
  track: '.',
  second: '=',
  marker: '^',
};

export function chartGlyphs(unicode: boolean): { full: string; second: string; track: string } {
  const g = unicode ? UNICODE : ASCII;
  return { full: g.full, second: g.second, track: g.track };
}

const GAP = '  ';

function paintIf(paint: (text: string) => string, text: string): string {
  return text === '' ? '' : paint(text);
}

/**
 * Scaled from 0, so a flat non-zero series is drawn high and an all-zero one low; `baseline: 'lowest'` for a
 * series whose shape is in its changes (a follower count).
 */
export function sparkline(
  values: readonly number[],
  options: { unicode: boolean; color?: boolean; cell?: number; baseline?: 'zero' | 'lowest' },
): string {
  const g = options.unicode ? UNICODE : ASCII;
  const cell = Math.max(1, Math.floor(options.cell ?? 1));
  const finite = values.map((v) => (Number.isFinite(v) ? v : 0));
  const low = options.baseline === 'lowest' ? Math.min(...finite) : Math.min(0, ...finite);
  const high = Math.max(...finite);
  const top = g.levels.length - 1;
  const text = finite
    .map((v) => {
      const level = high === low ? 0 : Math.round(((v - low) / (high - low)) * top);
      return (g.levels[level] ?? g.levels[0]!).repeat(cell);
    })
    .join('');
  return paintIf(colors(options.color ?? false).cyan, text);
}

/** A share above 0 is never drawn empty. */
function drawBar(parts: readonly number[], width: number, g: Glyphs, paint: Colors): string {
  const clamp = (v: number): number => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
  if (parts.length <= 1) {
    const exact = clamp(parts[0] ?? 0) * width;
    let full = g.eighths.length === 0 ? Math.round(exact) : Math.floor(exact);
    let eighth = g.eighths.length === 0 ? 0 : Math.round((exact - full) * 8);
    if (eighth === 8) {
      full++;
      eighth = 0;
    }
    if (exact > 0 && full === 0 && eighth === 0) {
      if (g.eighths.length === 0) full = 1;
      else eighth = 1;
    }
    const fill = g.full.repeat(full) + (eighth > 0 ? (g.eighths[eighth] ?? '') : '');
    const rest = Math.max(0, width - full - (eighth > 0 ? 1 : 0));
    return paintIf(paint.cyan, fill) + paintIf(paint.dim, g.track.repeat(rest));
  }
  // Split bars: each boundary rounded from the running total, so the parts always add up to the same width.
  let out = '';
  let used = 0;
  let total = 0;
  parts.forEach((part, i) => {
    total += clamp(part);
    const end = Math.min(width, Math.round(clamp(total) * width));
    const cells = Math.max(0, end - used);
    used += cells;
    out +=
      i === 0
        ? paintIf(paint.cyan, g.full.repeat(cells))
        : paintIf(paint.yellow, (i === 1 ? g.second : g.track).repeat(cells));
  });
  return out + paintIf(paint.dim, g.track.repeat(Math.max(0, width - used)));
}

export interface BarRow {
  label: string;
  parts: readonly number[];
  /** By default the first part as a percentage. */
  text?: string;
}

export function shareText(share: number): string {
  return percent(share, { fraction: true, digits: 1 });
}

/** `label  ██████▌░░░░░  60%`; the bar at most `maxBar` cells, so on a wide terminal the value stays near its bar. */
export function barRows(
  rows: readonly BarRow[],
  style: ChartStyle & { labelWidth?: number; maxBar?: number },
): string[] {
  if (rows.length === 0) return [];
  const g = style.unicode ? UNICODE : ASCII;
  const paint = colors(style.color);
  const texts = rows.map((row) => row.text ?? shareText(row.parts[0] ?? 0));
  const textWidth = Math.max(...texts.map(displayWidth));
  const widest = style.labelWidth ?? Math.max(...rows.map((row) => displayWidth(row.label)));
  const minBar = 10;
  const labelWidth = Math.max(1, Math.min(widest, style.width - textWidth - 2 * GAP.length - minBar));
  const barWidth = Math.max(1, Math.min(style.maxBar ?? 40, style.width - labelWidth - textWidth - 2 * GAP.length));
  return rows.map((row, i) => {
    const label = truncate(row.label, labelWidth);
    const pad = ' '.repeat(Math.max(0, labelWidth - displayWidth(label)));
    const text = texts[i] ?? '';
    return `${label}${pad}${GAP}${drawBar(row.parts, barWidth, g, paint)}${GAP}${' '.repeat(textWidth - displayWidth(text))}${text}`;
  });
}

export interface TrendSeries {
  label: string;
  values: readonly number[];
  format: (value: number) => string;
}

/** `+25%`, or `from 0` when the first value is 0. */
export function changeText(first: number, last: number): string {
  if (first === 0) return last === 0 ? '0%' : 'from 0';
  const change = ((last - first) / Math.abs(first)) * 100;
  const text = percent(change, { digits: Math.abs(change) < 10 ? 1 : 0 });
  return change > 0 ? `+${text}` : text;
}

export function trendRows(series: readonly TrendSeries[], style: ChartStyle & { trendLabel?: string }): string[] {
  if (series.length === 0) return [];
  const paint = colors(style.color);
  const cells = Math.max(...series.map((s) => s.values.length));
  const rows = series.map((s) => {
    const first = s.values[0] ?? 0;
    const last = s.values[s.values.length - 1] ?? 0;
    return {
      label: s.label,
      values: s.values,
      first: s.format(first),
      last: s.format(last),
      change: changeText(first, last),
    };
  });
  const trendLabel = style.trendLabel ?? 'trend';
  const width = (pick: (row: (typeof rows)[number]) => string, header: string): number =>
    Math.max(header.length, ...rows.map((row) => displayWidth(pick(row))));
  const firstW = width((row) => row.first, 'first');
  const lastW = width((row) => row.last, 'last');
  const changeW = width((row) => row.change, 'change');
  const numbers = firstW + lastW + changeW + 3 * GAP.length;
  let labelWidth = Math.max(...rows.map((row) => displayWidth(row.label)));
  labelWidth = Math.max(1, Math.min(labelWidth, style.width - numbers - GAP.length - cells));
  const cell = Math.max(
    1,
    Math.min(4, Math.floor((style.width - labelWidth - GAP.length - numbers) / Math.max(1, cells))),
  );
  const sparkWidth = Math.max(cells * cell, trendLabel.length);
  const right = (text: string, w: number): string => ' '.repeat(Math.max(0, w - displayWidth(text))) + text;
  const left = (text: string, w: number): string => text + ' '.repeat(Math.max(0, w - displayWidth(text)));
  const header = `${' '.repeat(labelWidth)}${GAP}${left(trendLabel, sparkWidth)}${GAP}${right('first', firstW)}${GAP}${right('last', lastW)}${GAP}${right('change', changeW)}`;
  const lines = [paint.dim(header.trimEnd())];
  for (const row of rows) {
    const spark = sparkline(row.values, { unicode: style.unicode, color: style.color, cell });
    const sparkPad = ' '.repeat(Math.max(0, sparkWidth - row.values.length * cell));
    lines.push(
      `${left(truncate(row.label, labelWidth), labelWidth)}${GAP}${spark}${sparkPad}${GAP}${right(row.first, firstW)}${GAP}${right(row.last, lastW)}${GAP}${right(row.change, changeW)}`,
    );
  }
  return lines;
}

export interface Histogram {
  counts: readonly number[];
  low: string;
  high: string;
  mark?: { bin: number; label: string } | undefined;
}

/** `50% ▁▂▃▅▇█▆▃▁ 100%`, and a line with the marker under the marked bin. */
export function histogramRows(histogram: Histogram, style: ChartStyle): string[] {
  const n = histogram.counts.length;
  if (n === 0) return [];
  const g = style.unicode ? UNICODE : ASCII;
  const lowW = displayWidth(histogram.low);
  const cell = Math.max(1, Math.min(4, Math.floor((style.width - lowW - displayWidth(histogram.high) - 2) / n)));
  const lines = [
    `${histogram.low} ${sparkline(histogram.counts, { unicode: style.unicode, color: style.color, cell })} ${histogram.high}`,
  ];
  const mark = histogram.mark;
  if (mark !== undefined && mark.bin >= 0 && mark.bin < n) {
    const at = lowW + 1 + mark.bin * cell + Math.floor((cell - 1) / 2);
    const after = `${' '.repeat(at)}${g.marker} ${mark.label}`;
    const before = `${mark.label} ${g.marker}`;
    lines.push(
      displayWidth(after) <= style.width || displayWidth(before) > at + 1
        ? after
        : `${' '.repeat(at + 1 - displayWidth(before))}${before}`,
    );
  }
  return lines;
}
