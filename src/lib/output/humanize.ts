/**
 * Human-friendly renderings for terminal tables: 12.3k counts, percentages, dates, and truncation by
 * display width. Only the `table` format on a terminal uses these; machine formats print raw values.
 */

/**
 * Reads a number from a number or a numeric string (the API sends some numbers as strings, like
 * `"11849.48"`). Returns `undefined` for anything else, including `''`, `NaN` and infinities.
 */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    // Number('') is 0 and Number('0x10') is 16: accept plain decimal notation only.
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return undefined;
    const parsed = Number(text);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/**
 * A count for a person: `1,234` (thousands separators, up to three decimals), as every message of the CLI
 * writes numbers. A string is taken as already written (an exact big number, or the API's text).
 */
export function countText(count: number | string): string {
  return typeof count === 'number' ? count.toLocaleString('en-US', { maximumFractionDigits: 3 }) : count;
}

/**
 * A count with its noun, singular for exactly one: `plural(1, 'credit')` -> `1 credit`, `plural(0, 'row')` ->
 * `0 rows`, `plural(1234, 'match', 'matches')` -> `1,234 matches`, `plural(0.5, 'credit')` -> `0.5 credits`.
 * The one rule for every count printed to people (notices, summaries, stop reports, plans, errors).
 */
export function plural(count: number | string, singular: string, pluralForm = `${singular}s`): string {
  const text = countText(count);
  const one = typeof count === 'number' ? count === 1 : /^1(\.0*)?$/.test(count.trim());
  return `${text} ${one ? singular : pluralForm}`;
}

/** ` (3 pages; 2 from the store)` after a paging run's spend when the store answered some of its pages, else ''. */
export function storedPages(got: { pages: number; fromStore: number }): string {
  return got.fromStore > 0 ? ` (${plural(got.pages, 'page')}; ${countText(got.fromStore)} from the store)` : '';
}

/** Credits from thousandths for a person: `1 credit`, `0.01 credits`, `1,234.5 credits`. */
export function creditCount(milli: number): string {
  return plural(Math.round(milli) / 1000, 'credit');
}

const UNITS = ['', 'k', 'M', 'B', 'T'] as const;

/**
 * A short count: `999` -> `999`, `12345` -> `12.3k`, `1234567` -> `1.2M`, `1.5e9` -> `1.5B`.
 * One decimal at most, dropped when it is zero (`12000` -> `12k`); rounding that reaches 1000 moves to the
 * next unit (`999950` -> `1M`). Numeric strings are read as numbers; other values come back as text,
 * `null`/`undefined` as `''`.
 */
export function humanCount(value: unknown): string {
  const num = toNumber(value);
  if (num === undefined) return value === null || value === undefined ? '' : String(value);
  const sign = num < 0 ? '-' : '';
  let abs = Math.abs(num);
  let unit = 0;
  while (abs >= 1000 && unit < UNITS.length - 1) {
    abs /= 1000;
    unit++;
  }
  let rounded = Math.round(abs * 10) / 10;
  if (rounded >= 1000 && unit < UNITS.length - 1) {
    rounded = Math.round(rounded / 100) / 10;
    unit++;
  }
  const text = rounded.toFixed(1).replace(/\.0$/, '');
  return text === '0' ? '0' : `${sign}${text}${UNITS[unit]}`;
}

/**
 * A percentage with at most `digits` decimals (trailing zeros dropped): `percent(3.456)` -> `3.46%`.
 * The API's `*_percent` fields are already in percent units; pass `{ fraction: true }` for a 0..1 ratio
 * (`percent(0.0345, { fraction: true })` -> `3.45%`). Non-numeric values come back as text.
 */
export function percent(value: unknown, options: { fraction?: boolean; digits?: number } = {}): string {
  const num = toNumber(value);
  if (num === undefined) return value === null || value === undefined ? '' : String(value);
  const scaled = options.fraction ? num * 100 : num;
  const text = scaled.toFixed(options.digits ?? 2).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return `${text === '-0' ? '0' : text}%`;
}

/**
 * A time for a terminal table: `YYYY-MM-DD HH:MM <zone>` in the process's time zone (`TZ`), the zone named
 * as the platform's short name (`UTC`, `EDT`, or an offset such as `GMT+2`), so a copied table is never
 * read in the wrong zone and does not age as a relative time would. ISO timestamps and epoch numbers
 * (seconds or milliseconds) are converted; a bare `YYYY-MM-DD` stays a date. Anything unparseable comes
 * back unchanged (`{ seconds: true }` adds `:SS`, for event lines). Machine formats never come here: they keep
 * the API's value.
 */
export function humanDate(value: unknown, options: { seconds?: boolean } = {}): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const num = toNumber(value);
  let date: Date;
  if (num !== undefined) date = new Date(num < 1e12 ? num * 1000 : num);
  else if (typeof value === 'string') date = new Date(value);
  else if (value instanceof Date) date = value;
  else return String(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return localTime(date, options.seconds ?? false);
}

/** `YYYY-MM-DD HH:MM[:SS] <zone>` in the process's current time zone (read on each call: `TZ` may change). */
function localTime(date: Date, seconds: boolean): string {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' as const } : {}),
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}${seconds ? `:${parts.second}` : ''} ${parts.timeZoneName}`;
}

// East Asian wide/fullwidth ranges and emoji take two terminal columns.
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
// Combining marks, zero-width characters and variation selectors take none.
const ZERO = /^[\p{Mn}\p{Me}\u200B-\u200F\u2060\uFE00-\uFE0F]$/u;
const ANSI = /\x1b\[[0-9;]*m/g;

/** Terminal columns a single code point takes (approximate; good enough for table layout). */
function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (ZERO.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

/** Terminal columns the text takes, ignoring ANSI colour codes; wide CJK and emoji count as two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(ANSI, '')) width += charWidth(char);
  return width;
}

/**
 * Cuts text to at most `width` terminal columns, ending with `…` (or the `ellipsis` given: `...` where the
 * locale is not UTF-8) when something was cut.
 * Line breaks (CRLF, LF) and tabs become spaces first, so a cell stays on one line; a lone CR is left
 * for the control-character escaping (`\r`), as it only ever rewrites what was already printed.
 */
export function truncate(text: string, width: number, ellipsis = '…'): string {
  const flat = text.replace(/\r\n|[\n\t]/g, ' ');
  if (displayWidth(flat) <= width) return flat;
  if (width <= 0) return '';
  const mark = displayWidth(ellipsis) <= width ? ellipsis : '';
  let out = '';
  let used = 0;
  for (const char of flat) {
    const w = charWidth(char);
    if (used + w > width - displayWidth(mark)) break;
    out += char;
    used += w;
  }
  return `${out}${mark}`;
}

/** Splits escaped text into lines of at most `width` columns, at spaces where it can, inside words where it must. */
export function wrapText(value: string, width: number): string[] {
  const room = Math.max(1, width);
  const out: string[] = [];
  for (const paragraph of value.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ').filter((w) => w !== '')) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (displayWidth(candidate) <= room) {
        line = candidate;
        continue;
      }
      if (line !== '') out.push(line);
      line = '';
      // A word wider than the line is cut into pieces.
      let piece = '';
      for (const char of word) {
        if (displayWidth(piece + char) > room) {
          out.push(piece);
          piece = '';
        }
        piece += char;
      }
      line = piece;
    }
    if (line !== '') out.push(line);
  }
  return out;
}

/** `a tiktok`, `an instagram`: the article a word (a platform name) takes, by its first letter. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** A window for people: `14 days`, `24 hours`, `90 minutes`, `30 seconds` (the largest unit it divides into; a day is `24 hours`, as the defaults are documented). */
export function durationText(ms: number): string {
  for (const [unit, size] of [['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000]] as const) {
    if (ms >= size && ms % size === 0 && !(unit === 'day' && ms < 2 * size)) return plural(ms / size, unit);
  }
  return plural(Math.round(ms / 1000), 'second');
}
