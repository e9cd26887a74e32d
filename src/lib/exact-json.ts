/**
 * `JSON.parse` rounds ids beyond 2^53 and turns `1e400` into Infinity: a number a double cannot hold exactly
 * becomes an `ExactNumber` keeping its text; others stay JS numbers. The lossless parser is slower, so it
 * runs only when a quick scan finds such a number outside strings (README, Security, has the figures).
 */
import { isLosslessNumber, isSafeNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';

/** Prints as its exact text; arithmetic sees the nearest double, so code written for numbers keeps running. */
export class ExactNumber extends LosslessNumber {
  override valueOf(): number {
    return Number(this.value);
  }
  /** Plain `JSON.stringify` gets the exact text as a string; `stringifyJson` writes it as a bare number. */
  toJSON(): string {
    if (marking) {
      marked++;
      return `${MARK}${this.value}`;
    }
    return this.value;
  }
}

export function isExactNumber(value: unknown): value is LosslessNumber {
  return typeof value === 'object' && value !== null && isLosslessNumber(value);
}

const parseNumber = (text: string): number | ExactNumber => (isSafeNumber(text) ? Number(text) : new ExactNumber(text));

// A number token with an exponent, or with 16 or more digits and dots: only such a token can fail to
// round-trip through a double. The same text inside a string (a long digit run in a URL) is no number.
const MAYBE_UNSAFE = /[\d.]{16}|\d[eE]/g;

/** A JSON number starts the text or follows `[`, `,` or `:`; anything else before it means it is in a string. */
export function mayHoldUnsafeNumber(text: string): boolean {
  MAYBE_UNSAFE.lastIndex = 0;
  for (let m = MAYBE_UNSAFE.exec(text); m !== null; m = MAYBE_UNSAFE.exec(text)) {
    let i = m.index - 1;
    while (i >= 0 && isNumberChar(text.charCodeAt(i))) i--;
    while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
    const before = i < 0 ? 0x3a : text.charCodeAt(i);
    if (before === 0x3a /* : */ || before === 0x2c /* , */ || before === 0x5b /* [ */) return true;
  }
  return false;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function parseJson(text: string): unknown {
  if (!mayHoldUnsafeNumber(text)) return JSON.parse(text);
  return parseLossless(text, null, parseNumber);
}

// A per-process random tag, so that no string in the data can pass for a marked number.
const MARK = `\u0000exact-${Math.random().toString(36).slice(2)}:`;
const MARKED = new RegExp(`"\\\\u0000${MARK.slice(1)}([^"]*)"`, 'g');
let marking = false;
let marked = 0;

/** `JSON.stringify`'s bytes, each `ExactNumber` bare; data without one costs one flag check more. */
export function stringifyJson(value: unknown, indent?: number): string {
  marking = true;
  marked = 0;
  let text: string;
  try {
    text = JSON.stringify(value, null, indent);
  } finally {
    marking = false;
  }
  if (marked === 0 || text === undefined) return text;
  return text.replace(MARKED, '$1');
}

/**
 * A JSON value held as the text `stringifyJson` writes for it (`canonicalEntries`: a stored answer's part not parsed):
 * written out as is where compact JSON is wanted, parsed exactly where anything else is (`value`; `toJSON`, so any
 * stringify of it gives the same bytes).
 */
export class JsonText {
  constructor(readonly text: string) {}
  value(): unknown {
    return parseJson(this.text);
  }
  toJSON(): unknown {
    return parseJson(this.text);
  }
}

// ---- canonical text: what `stringifyJson(parseJson(text))` gives back unchanged

/** A scan's state (one at a time, synchronous): no allocation a value. */
let src = '';
let at = 0;
/** The hash of the last string scanned, for repeated keys. */
let lastHash = 0;
let keyHashes = new Int32Array(256);
let keyStarts = new Int32Array(256);
let keyTop = 0;
const MAX_DEPTH = 512;
const NOT_CANONICAL = new Error('not canonical JSON');

function refuse(): never {
  throw NOT_CANONICAL;
}

/** A string at `at` (its opening quote); escapes only where `JSON.stringify` writes them, in its spelling. */
function scanString(): void {
  const s = src;
  let j = at + 1;
  let h = 0;
  for (;;) {
    const c = s.charCodeAt(j);
    if (c === 0x22) break;
    if (c < 0x20 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) j = scanSpecial(s, j, c);
    else j++;
    h = (Math.imul(h, 31) + c) | 0;
  }
  at = j + 1;
  lastHash = h;
}

function scanSpecial(s: string, j: number, c: number): number {
  if (c === 0x5c) {
    const e = s.charCodeAt(j + 1);
    // \" \\ \b \f \n \r \t
    if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) return j + 2;
    // \u00XX in lower case, for the control characters that have no short escape.
    if (e === 0x75 && s.charCodeAt(j + 2) === 0x30 && s.charCodeAt(j + 3) === 0x30) {
      const hi = s.charCodeAt(j + 4);
      const lo = s.charCodeAt(j + 5);
      const high = hi === 0x30 ? 0 : hi === 0x31 ? 16 : -1;
      const low = lo >= 0x30 && lo <= 0x39 ? lo - 0x30 : lo >= 0x61 && lo <= 0x66 ? lo - 0x57 : -1;
      const code = high + low;
      if (high < 0 || low < 0 || code === 8 || code === 9 || code === 10 || code === 12 || code === 13) refuse();
      return j + 6;
    }
    refuse();
  }
  // A surrogate pair as it is; a lone surrogate would be written escaped.
  if (c <= 0xdbff) {
    const next = s.charCodeAt(j + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return j + 2;
  }
  // A control character, a lone surrogate, or the end of the text (NaN).
  return refuse();
}

/**
 * A number as `stringifyJson` writes what `parseJson` reads: a plain one with at most 15 significant digits is its
 * own shortest form; any other is checked as the parser treats it (exact text kept, or a double's text).
 */
function scanNumber(): void {
  const s = src;
  const start = at;
  let j = at;
  let c = s.charCodeAt(j);
  let plain = true;
  let digits = 0;
  if (c === 0x2d) c = s.charCodeAt(++j);
  if (c === 0x30) {
    c = s.charCodeAt(++j);
    if (c >= 0x30 && c <= 0x39) refuse();
    // -0 is written 0.
    if (j - start === 2 && c !== 0x2e) plain = false;
  } else if (c >= 0x31 && c <= 0x39) {
    do {
      digits++;
      c = s.charCodeAt(++j);
    } while (c >= 0x30 && c <= 0x39);
  } else refuse();
  if (c === 0x2e) {
    c = s.charCodeAt(++j);
    if (!(c >= 0x30 && c <= 0x39)) refuse();
    if (digits === 0) {
      let zeros = 0;
      while (c === 0x30) {
        zeros++;
        c = s.charCodeAt(++j);
      }
      // 1e-7 and smaller are written with an exponent.
      if (zeros > 5) plain = false;
    }
    while (c >= 0x30 && c <= 0x39) {
      digits++;
      c = s.charCodeAt(++j);
    }
    if (s.charCodeAt(j - 1) === 0x30) plain = false;
  }
  if (c === 0x65 || c === 0x45) {
    plain = false;
    c = s.charCodeAt(++j);
    if (c === 0x2b || c === 0x2d) c = s.charCodeAt(++j);
    if (!(c >= 0x30 && c <= 0x39)) refuse();
    do c = s.charCodeAt(++j);
    while (c >= 0x30 && c <= 0x39);
  }
  at = j;
  if (plain && digits <= 15) return;
  // Such a token turns the exact parser on (MAYBE_UNSAFE): an unsafe number keeps its text, a safe one is a double.
  const text = s.slice(start, j);
  if (isSafeNumber(text) && String(Number(text)) !== text) refuse();
}

function scanValue(depth: number): void {
  const c = src.charCodeAt(at);
  if (c === 0x22) scanString();
  else if (c === 0x7b) scanObject(depth + 1, undefined);
  else if (c === 0x5b) scanArray(depth + 1);
  else if (c === 0x74) scanWord('true');
  else if (c === 0x66) scanWord('false');
  else if (c === 0x6e) scanWord('null');
  else scanNumber();
}

function scanWord(word: string): void {
  if (!src.startsWith(word, at)) refuse();
  at += word.length;
}

/** Keys in the order a JS object keeps them (array indexes first, ascending), none twice, no `__proto__`. */
function scanObject(depth: number, entries: [string, string][] | undefined): void {
  if (depth > MAX_DEPTH) refuse();
  const s = src;
  at++;
  if (s.charCodeAt(at) === 0x7d) {
    at++;
    return;
  }
  const base = keyTop;
  let lastIndex = -1;
  let named = false;
  for (;;) {
    const start = at;
    if (s.charCodeAt(start) !== 0x22) refuse();
    scanString();
    const end = at;
    const first = s.charCodeAt(start + 1);
    if (first >= 0x30 && first <= 0x39) {
      const key = s.slice(start + 1, end - 1);
      const n = Number(key);
      if (String(n) === key && n < 4294967295) {
        if (named || n <= lastIndex) refuse();
        lastIndex = n;
      } else named = true;
    } else {
      named = true;
      if (first === 0x5f && end - start === 11 && s.startsWith('"__proto__"', start)) refuse();
    }
    const hash = lastHash;
    for (let k = base; k < keyTop; k++) {
      if (keyHashes[k] === hash && s.startsWith(s.slice(start, end), keyStarts[k] as number)) refuse();
    }
    if (keyTop === keyHashes.length) {
      const hashes = new Int32Array(keyTop * 2);
      hashes.set(keyHashes);
      keyHashes = hashes;
      const starts = new Int32Array(keyTop * 2);
      starts.set(keyStarts);
      keyStarts = starts;
    }
    keyHashes[keyTop] = hash;
    keyStarts[keyTop] = start;
    keyTop++;
    if (s.charCodeAt(at) !== 0x3a) refuse();
    const value = ++at;
    scanValue(depth);
    if (entries !== undefined) entries.push([s.slice(start + 1, end - 1), s.slice(value, at)]);
    const c = s.charCodeAt(at);
    at++;
    if (c === 0x2c) continue;
    if (c !== 0x7d) refuse();
    keyTop = base;
    return;
  }
}

function scanArray(depth: number): void {
  if (depth > MAX_DEPTH) refuse();
  at++;
  if (src.charCodeAt(at) === 0x5d) {
    at++;
    return;
  }
  for (;;) {
    scanValue(depth);
    const c = src.charCodeAt(at);
    at++;
    if (c === 0x2c) continue;
    if (c !== 0x5d) refuse();
    return;
  }
}

/**
 * The entries of a JSON object written as `stringifyJson` writes what `parseJson` reads (what the store keeps): each
 * key with the text of its value; undefined for any other text (not JSON, spaces, a number or an escape spelt another
 * way, a key twice or out of a JS object's order). Such a text gives the same bytes written out as is as parsed and
 * written again, in one pass and without building the value.
 */
export function canonicalEntries(text: string): [string, string][] | undefined {
  if (text.charCodeAt(0) !== 0x7b) return undefined;
  src = text;
  at = 0;
  keyTop = 0;
  try {
    const entries: [string, string][] = [];
    scanObject(1, entries);
    return at === text.length ? entries : undefined;
  } catch (err) {
    if (err === NOT_CANONICAL) return undefined;
    throw err;
  } finally {
    src = '';
  }
}
