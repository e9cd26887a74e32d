/**
 * JSON in and out without losing numbers. `JSON.parse` rounds an id beyond 2^53 (`6789012345678901234`
 * becomes `6789012345678901000`) and turns `1e400` into Infinity (printed as `null`). Responses are parsed
 * here instead: ordinary numbers stay JS numbers (prices, totals and paging keep working), and only a
 * number whose text a double cannot hold exactly becomes an `ExactNumber` that keeps its text.
 * `stringifyJson` writes an `ExactNumber` back as that bare text. The lossless parser (lossless-json) is
 * JavaScript and slower than `JSON.parse`, so it runs only on a text that holds such a number: a quick scan
 * for candidates outside strings decides (README, Security, has the figures).
 */
import { isLosslessNumber, isSafeNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';

/**
 * A number kept as its exact text. Printing it (`String(n)`, a template, `stringifyJson`, csv/tsv cells)
 * gives that text; arithmetic and comparisons see the nearest double (`1e400` is Infinity), never an
 * exception, so code written for plain numbers keeps running on it.
 */
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

/** True for a number kept as text (ours, or any lossless-json number). */
export function isExactNumber(value: unknown): value is LosslessNumber {
  return typeof value === 'object' && value !== null && isLosslessNumber(value);
}

const parseNumber = (text: string): number | ExactNumber => (isSafeNumber(text) ? Number(text) : new ExactNumber(text));

// A number token with an exponent, or with 16 or more digits and dots: only such a token can fail to
// round-trip through a double. The same text inside a string (a long digit run in a URL) is no number.
const MAYBE_UNSAFE = /[\d.]{16}|\d[eE]/g;

/**
 * True when the JSON text may hold a number `JSON.parse` would not keep exactly. Each candidate is checked
 * where it stands: a JSON number starts the text or follows `[`, `,` or `:` (and spaces); anything else before
 * its run of number characters means the candidate is inside a string. A string that happens to hold
 * `: 12345678901234567` only sends the text to the slower exact parser.
 */
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

/**
 * `JSON.parse` that keeps numbers exact: a number a double cannot hold exactly comes back as an
 * `ExactNumber`, every other number as a JS number. Throws a SyntaxError on invalid JSON, like `JSON.parse`.
 */
export function parseJson(text: string): unknown {
  if (!mayHoldUnsafeNumber(text)) return JSON.parse(text);
  return parseLossless(text, null, parseNumber);
}

// A per-process random tag, so that no string in the data can pass for a marked number.
const MARK = `\u0000exact-${Math.random().toString(36).slice(2)}:`;
const MARKED = new RegExp(`"\\\\u0000${MARK.slice(1)}([^"]*)"`, 'g');
let marking = false;
let marked = 0;

/**
 * `JSON.stringify` (same arguments, same bytes) that writes each `ExactNumber` as its bare text. Data
 * without one costs one flag check more than `JSON.stringify`.
 */
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
