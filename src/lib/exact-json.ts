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
