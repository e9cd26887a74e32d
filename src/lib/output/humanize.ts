/** Renderings for people (12.3k, dates, widths); machine formats print raw values. */
import { charWidth, displayWidth } from '../io/width.js';
import { countText, plural } from '../words.js';

/** A number or a numeric string (the API sends some numbers as strings, like `"11849.48"`). */
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

/** ` (3 pages; 2 from the store)`, or ''. */
/** `clause`: how fresh, how to buy fresh (StorePort.storeClause), said here so the run says it once. */
export function storedPages(got: { pages: number; fromStore: number }, clause = ''): string {
  return got.fromStore > 0
    ? ` (${plural(got.pages, 'page')}; ${countText(got.fromStore)} from the store${clause})`
    : '';
}

const UNITS = ['', 'k', 'M', 'B', 'T'] as const;

/** `12345` -> `12.3k`; rounding that reaches 1000 moves to the next unit (`999950` -> `1M`). */
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

/** The API's `*_percent` fields are already in percent; `{ fraction: true }` for a 0..1 ratio. */
export function percent(value: unknown, options: { fraction?: boolean; digits?: number } = {}): string {
  const num = toNumber(value);
  if (num === undefined) return value === null || value === undefined ? '' : String(value);
  const scaled = options.fraction ? num * 100 : num;
  const text = scaled
    .toFixed(options.digits ?? 2)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  return `${text === '-0' ? '0' : text}%`;
}

/**
 * `YYYY-MM-DD HH:MM <zone>` in the local zone, named, so a copied table is never read in the wrong zone and
 * does not age as a relative time would. Epoch numbers may be seconds or milliseconds.
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

/** The zone is read on each call: `TZ` may change. */
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

/** Line breaks and tabs become spaces; a lone CR is left for the control-character escaping (`\r`). */
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

export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** `14 days`, `24 hours` (not `1 day`: as the defaults are documented). */
export function durationText(ms: number): string {
  for (const [unit, size] of [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ] as const) {
    if (ms >= size && ms % size === 0 && !(unit === 'day' && ms < 2 * size)) return plural(ms / size, unit);
  }
  return plural(Math.round(ms / 1000), 'second');
}
