import { UsageError } from './errors.js';

/**
 * The most requests in flight: `--concurrency` at most, and the cap of the concurrency sized from the service's pace.
 */
export const CONCURRENCY_CAP = 64;

/** The one rule for case in choices: any case matches, and the choice's own spelling is passed on (`RAW` is `raw`). */
export function matchChoice<T extends string>(value: string, choices: readonly T[]): T | undefined {
  const wanted = value.trim().toLowerCase();
  return choices.find((choice) => choice.toLowerCase() === wanted);
}

/** Parses a whole-number flag value; a usage error names the flag when it is not one. */
export function parseIntegerOption(raw: unknown, flag: string, min = Number.MIN_SAFE_INTEGER): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = String(raw).trim();
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n)) {
    throw new UsageError(`Invalid ${flag} '${String(raw)}': expected a whole number.`);
  }
  if (n < min) throw new UsageError(`Invalid ${flag} '${String(raw)}': must be ${min} or more.`);
  return n;
}

export function parseTimeoutSeconds(raw: string, what: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`Invalid ${what} '${raw}': expected a non-negative number.`);
  if (n === 0) throw new UsageError(`Invalid ${what} '${raw}': expected a number of seconds above 0.`);
  return n;
}

export function parseRetries(raw: string, what: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`Invalid ${what} '${raw}': expected a non-negative number.`);
  if (!Number.isInteger(n)) throw new UsageError(`Invalid ${what} '${raw}': expected a whole number.`);
  return n;
}

/** Exact thousandths (`0.03` is 30, not 0.03 x 1000 in floating point); a fourth decimal rounds half up. */
export function parseCreditsMilli(raw: string, what: string): number {
  const plain = /^\s*\+?(\d*)(?:\.(\d*))?\s*$/.exec(raw);
  if (plain && /\d/.test(raw)) {
    const fraction = plain[2] ?? '';
    const milli =
      Number(plain[1] || '0') * 1000 +
      Number(fraction.padEnd(3, '0').slice(0, 3)) +
      (Number(fraction[3] ?? '0') >= 5 ? 1 : 0);
    if (Number.isSafeInteger(milli)) return milli;
  }
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`Invalid ${what} '${raw}': expected a number, 0 or more.`);
  return Math.round(n * 1000);
}

/** Comma lists become arrays of typed items; `"quoted"` values stay strings. */
export function typedValue(raw: string): unknown {
  const v = raw.trim();
  if (/^".*"$/s.test(v)) return v.slice(1, -1);
  if (v.includes(','))
    return v
      .split(',')
      .map((part) => typedValue(part))
      .filter((x) => x !== '');
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(v) && !/^-?0\d/.test(v)) return Number(v);
  return v;
}

/** One `key=value` as typed: the dot path of the key, the value typed (`typedValue`). */
export interface KeyValue {
  path: string[];
  value: unknown;
}

/** Reads `key=value` (dot paths nest, e.g. `number_of_followers.min=10000`). */
export function readPair(pair: string, what: string): KeyValue {
  const eq = pair.indexOf('=');
  const key = eq > 0 ? pair.slice(0, eq).trim() : '';
  if (eq <= 0 || !key || key.split('.').some((part) => part === '')) {
    throw new UsageError(
      `Malformed ${what} '${pair}': expected key=value (dot paths nest, e.g. number_of_followers.min=10000).`,
    );
  }
  return { path: key.split('.'), value: typedValue(pair.slice(eq + 1)) };
}

/** Sets each pair in `target`, in order (later wins), making the objects its path goes through. */
export function setPairs(pairs: readonly KeyValue[], target: Record<string, unknown> = {}): Record<string, unknown> {
  for (const { path, value } of pairs) {
    let node = target;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[path[path.length - 1] as string] = value;
  }
  return target;
}

/** `readPair` of each (the first malformed one refused), then `setPairs`. */
export function assignPairs(
  pairs: readonly string[],
  flag: string,
  target: Record<string, unknown> = {},
): Record<string, unknown> {
  return setPairs(
    pairs.map((p) => readPair(p, flag)),
    target,
  );
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `14d`, `24h`, `90m`, `30s`, `2w` or `0` in ms; a bare number is days. */
export function parseDuration(raw: string, what: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$/i.exec(raw);
  if (!m) throw new UsageError(`Invalid ${what} '${raw}': expected a duration such as 14d, 24h, 30m or 0.`);
  return Math.round(Number(m[1]) * (DURATION_UNITS[(m[2] || 'd').toLowerCase()] as number));
}

/** A moment as typed: an age back from the moment the command runs (`7d`), or a time (`at`, ms); `text` as typed. */
export type When = { text: string } & ({ at: number; ago?: undefined } | { ago: number; at?: undefined });

/** A duration back from now, a date (local midnight, as the budgets' days are) or an ISO 8601 time with its zone. */
export function readWhen(raw: string, what: string): When {
  const text = raw.trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const date = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    // 2026-13-01 or 2026-02-30 would roll over into another date: refused instead.
    if (date.getMonth() === Number(day[2]) - 1 && date.getDate() === Number(day[3]))
      return { text: raw, at: date.getTime() };
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(text) && Number.isFinite(Date.parse(text))) {
    return { text: raw, at: Date.parse(text) };
  } else if (/^\s*\d/.test(text) && !/^\d{4}-/.test(text)) {
    return { text: raw, ago: parseDuration(text, what) };
  }
  throw new UsageError(
    `Invalid ${what} '${raw}': expected a duration such as 7d or 24h, or a date such as 2026-11-01.`,
  );
}

/** The moment `when` names, ages counted back from `now`. */
export function whenAt(when: When, now: number): number {
  return when.at ?? now - when.ago;
}

/** A duration as typed (`90d`): `ms` long. */
export interface Age {
  ms: number;
  text: string;
}
