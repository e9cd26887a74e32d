/** A screen to look at on a terminal; any other format, `--fields` or an unknown shape prints the record itself. */
import { colors } from '../io/color.js';
import { escapeControls } from '../io/safe-text.js';
import type { Terminal } from '../io/terminal.js';
import { trendRows, type TrendSeries } from '../output/charts.js';
import { humanCount, humanDate, percent, toNumber, wrapText } from '../output/humanize.js';
import { countText, plural } from '../words.js';
import { displayWidth } from '../io/width.js';
import {
  isTerminalTable,
  printList,
  printText,
  type ColumnSpec,
  type DataRecord,
  type OutputSettings,
} from '../output/index.js';
import { pageOnce } from '../output/pager.js';
import { DEFAULT_COLUMNS } from '../output/table.js';
import { printWithRows } from './print.js';

/** How many posts the screen shows; `campaigns content` lists them all. */
export const TOP_POSTS = 5;

const KNOWN = new Set([
  'campaign_id',
  'id',
  'name',
  'status',
  'creators_count',
  'totals',
  'posts',
  'trends_7d',
  'report',
]);
const LABELS: Record<string, string> = {
  posts: 'Posts',
  views: 'Views',
  likes: 'Likes',
  comments: 'Comments',
  engagement: 'Engagement',
  engagement_rate: 'Engagement rate',
  estimated_reach: 'Est. reach',
  reach: 'Reach',
  emv: 'EMV',
};
const INDENT = '  ';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function label(key: string): string {
  const known = LABELS[key];
  if (known !== undefined) return known;
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function figure(key: string, value: unknown): string | undefined {
  if (value === null || value === undefined || value === '' || typeof value === 'object') return undefined;
  if (toNumber(value) !== undefined)
    return /(_rate|_percent|_percentage)$/.test(key) ? percent(value) : humanCount(value);
  if (/(_at|_date)$/.test(key)) return humanDate(value);
  return escapeControls(String(value));
}

function pairLines(pairs: [string, string][], width: number): string[] {
  const labelWidth = Math.max(0, ...pairs.map(([name]) => displayWidth(name)));
  const room = Math.max(10, width - INDENT.length - labelWidth - 2);
  return pairs.flatMap(([name, value]) =>
    wrapText(value, room).map((line, i) => `${INDENT}${(i === 0 ? name : '').padEnd(labelWidth)}  ${line}`.trimEnd()),
  );
}

function trendSeries(days: Obj[]): TrendSeries[] {
  const keys = [...new Set(days.flatMap((day) => Object.keys(day)))].filter(
    (key) => key !== 'date' && days.some((day) => toNumber(day[key]) !== undefined),
  );
  return keys.map((key) => ({
    label: label(key),
    values: days.map((day) => toNumber(day[key]) ?? 0),
    format: (value: number) => humanCount(value),
  }));
}

/** The posts to show: the highest EMV first (else the most likes and comments), at most TOP_POSTS. */
function topPosts(posts: Obj[]): { posts: Obj[]; by: string } {
  const hasEmv = posts.some((post) => toNumber(post.emv) !== undefined);
  const score = (post: Obj): number =>
    hasEmv ? (toNumber(post.emv) ?? 0) : (toNumber(post.likes) ?? 0) + (toNumber(post.comments) ?? 0);
  return {
    posts: [...posts].sort((a, b) => score(b) - score(a)).slice(0, TOP_POSTS),
    by: hasEmv ? 'EMV' : 'engagement',
  };
}

function headText(record: Obj, id: string, settings: OutputSettings, width: number, now: number): string {
  const paint = colors(settings.color);
  const dot = settings.unicode ? ' · ' : ' - ';
  const out: string[] = [];
  const name = typeof record.name === 'string' && record.name !== '' ? escapeControls(record.name) : undefined;
  const creators = toNumber(record.creators_count);
  const rest = [
    `campaign ${id}`,
    figure('status', record.status),
    creators === undefined ? undefined : plural(creators, 'creator'),
  ].filter((part) => part !== undefined);
  const title = wrapText([name, rest.join(dot)].filter((part) => part !== undefined).join(dot), width);
  if (name !== undefined && title[0]?.startsWith(name)) title[0] = paint.bold(name) + title[0].slice(name.length);
  out.push(...title);
  const others = Object.entries(record).flatMap(([key, value]): [string, string][] => {
    const shown = KNOWN.has(key) ? undefined : figure(key, value);
    return shown === undefined ? [] : [[label(key), shown]];
  });
  if (others.length > 0) out.push(...pairLines(others, width));

  if (isObj(record.totals)) {
    const totals = Object.entries(record.totals).flatMap(([key, value]): [string, string][] => {
      const shown = figure(key, value);
      return shown === undefined ? [] : [[label(key), shown]];
    });
    if (totals.length > 0) out.push('', paint.bold('Totals'), ...pairLines(totals, width));
  }

  const all = Array.isArray(record.trends_7d) ? record.trends_7d.filter(isObj) : [];
  // The day the record was made is not over: it is shown apart, never compared with whole days.
  const today = partialDay(all, asOf(record, now));
  const days = today === undefined ? all : all.slice(0, -1);
  const series = trendSeries(days);
  if (series.length > 0) {
    const dates = days.map((day) => (typeof day.date === 'string' ? escapeControls(day.date) : undefined));
    const span =
      dates[0] !== undefined && dates[dates.length - 1] !== undefined
        ? ` (${dates[0]} to ${dates[dates.length - 1]})`
        : '';
    out.push(
      '',
      paint.bold(`Last ${today === undefined ? plural(days.length, 'day') : plural(days.length, 'whole day')}${span}`),
    );
    const rows = trendRows(series, {
      width: width - INDENT.length,
      unicode: settings.unicode ?? false,
      color: settings.color,
      trendLabel: 'each day',
    });
    out.push(...rows.map((line) => `${INDENT}${line}`));
  }
  if (today !== undefined) {
    const figures = trendSeries([today.day]).map((s) => `${s.label} ${s.format(s.values[0] ?? 0)}`);
    const text = `${today.date} so far (to ${today.until}, not a whole day): ${figures.join(figures.length > 2 ? ', ' : ' and ')}`;
    if (series.length === 0) out.push('');
    out.push(...wrapText(text, width - INDENT.length).map((line) => `${INDENT}${line}`));
  }
  return `${out.join('\n')}\n`;
}

/** When the figures were made: the report's `generated_at`, else now. */
function asOf(record: Obj, now: number): number {
  const report = record.report;
  const generated = isObj(report) && typeof report.generated_at === 'string' ? Date.parse(report.generated_at) : NaN;
  return Number.isFinite(generated) ? generated : now;
}

/** The last trend day when it is the (UTC) day of `at` and `at` is not its end: the day is still running. */
function partialDay(days: Obj[], at: number): { day: Obj; date: string; until: string } | undefined {
  const day = days[days.length - 1];
  if (day === undefined || typeof day.date !== 'string') return undefined;
  const iso = new Date(at).toISOString();
  if (day.date !== iso.slice(0, 10)) return undefined;
  return { day, date: escapeControls(day.date), until: humanDate(at).replace(/^\d{4}-\d{2}-\d{2} /, '') };
}

function tailText(
  record: Obj,
  id: string,
  shown: number,
  total: number,
  settings: OutputSettings,
  width: number,
): string {
  const paint = colors(settings.color);
  const out: string[] = [];
  if (total > shown)
    out.push(...wrapText(`All ${plural(total, 'post')}: creators listening campaigns content ${id}`, width));
  const report = record.report;
  if (isObj(report)) {
    const pairs = Object.entries(report).flatMap(([key, value]): [string, string][] => {
      const text = figure(key, value);
      return text === undefined ? [] : [[label(key), text]];
    });
    if (pairs.length > 0) out.push('', paint.bold('Report'), ...pairLines(pairs, width));
  } else if (typeof report === 'string' && report.trim() !== '') {
    out.push(
      '',
      paint.bold('Report'),
      ...wrapText(escapeControls(report), width - INDENT.length).map((line) => `${INDENT}${line}`),
    );
  }
  out.push('', ...wrapText('Full record: add --json', width).map((line) => paint.dim(line)));
  return `${out.join('\n')}\n`;
}

/** `now`: when the record was read, for a record without `report.generated_at` (the day still running). */
export async function printOverview(
  io: Terminal,
  settings: OutputSettings,
  record: DataRecord,
  id: string,
  postColumns: ColumnSpec[],
  now: number,
): Promise<void> {
  const posts = Array.isArray(record.posts) ? record.posts.filter(isObj) : undefined;
  const known = isObj(record.totals) || Array.isArray(record.trends_7d) || posts !== undefined;
  if (!isTerminalTable(io, settings) || settings.fields || !known) {
    await printWithRows(io, settings, record, 'posts', postColumns);
    return;
  }
  const width = io.columns !== undefined && io.columns > 0 ? io.columns : DEFAULT_COLUMNS;
  const paint = colors(settings.color);
  const top = topPosts(posts ?? []);
  await pageOnce(settings, async (screen) => {
    await printText(io, screen, headText(record, id, settings, width, now));
    if (top.posts.length > 0) {
      const total = posts?.length ?? 0;
      const heading =
        total > top.posts.length ? `Top ${top.posts.length} posts by ${top.by}, of ${countText(total)}` : 'Posts';
      await printText(io, screen, `\n${paint.bold(heading)}\n`);
      await printList(io, screen, top.posts, postColumns);
    }
    await printText(io, screen, tailText(record, id, top.posts.length, posts?.length ?? 0, settings, width));
  });
}
