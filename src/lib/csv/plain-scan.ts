/**
 * The pass before the money gate reads a whole file to count its rows, refuse a malformed one and hand one column's
 * values to the store's count. csv-parse costs ~2.6 us a row of ~110 bytes there (a second time in the run): this scans
 * the plain case, where every field is bare or fully quoted, and gives up (`false`) on anything else (a quote inside a
 * bare field, text after a closing quote, a row of another width, a quote left open, a row over 1 MB), so the caller
 * counts with csv-parse instead and its error names the line. What it accepts, csv-parse reads alike (checked against
 * it in test/lib/csv/plain-scan.test.ts): records split at `\r\n`, `\n` or `\r`, empty lines skipped, `""` a quote.
 */

/** A record longer than this is left to csv-parse (its own limit is 16 MB). */
const MOST_CHARS = 1024 * 1024;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export interface PlainScanOptions {
  /** One character, not a quote or a line break. */
  delimiter: string;
  /** The first record is the header: not handed to `row`. */
  skipFirst: boolean;
  /** The column whose value `row` gets. */
  index: number;
  /** Each data record, in order: its value at `index` ('' when it has no such column). */
  row(value: string): void;
  /** Each data record whole, in order (its fields as csv-parse gives them), when wanted. */
  record?: ((cells: string[]) => void) | undefined;
}

export interface PlainScan {
  /** The next piece of decoded text; false when the input is not plain (count it another way). */
  push(text: string): boolean;
  /** The input ended; false when it is not plain. */
  end(): boolean;
}

export function plainScanner(o: PlainScanOptions): PlainScan {
  const delim = o.delimiter.charCodeAt(0);
  const whole = o.record;
  let carry = '';
  let width = -1;
  let first = true;

  /** Scans whole records of `s`; the index where an unfinished record starts, or -1 when not plain. */
  const scan = (s: string, final: boolean): number => {
    const len = s.length;
    let pos = 0;
    for (;;) {
      const start = pos;
      if (pos >= len) return len;
      let c = s.charCodeAt(pos);
      // An empty line is skipped (a lone CR at the end of a piece may be the first half of CRLF).
      if (c === LF) {
        pos++;
        continue;
      }
      if (c === CR) {
        if (pos + 1 >= len && !final) return start;
        pos += s.charCodeAt(pos + 1) === LF ? 2 : 1;
        continue;
      }
      let fields = 0;
      let value: string | undefined;
      const cells: string[] | undefined = whole ? [] : undefined;
      for (;;) {
        // One field from `pos`.
        let end: number;
        c = pos < len ? s.charCodeAt(pos) : -1;
        if (c === QUOTE) {
          let j = pos + 1;
          for (;;) {
            const k = s.indexOf('"', j);
            if (k === -1) return final ? -1 : start;
            if (k + 1 >= len) {
              if (!final) return start;
              end = k;
              break;
            }
            const next = s.charCodeAt(k + 1);
            if (next === QUOTE) {
              j = k + 2;
              continue;
            }
            if (next !== delim && next !== LF && next !== CR) return -1;
            end = k;
            break;
          }
          if (fields === o.index || cells) {
            const text = s.slice(pos + 1, end).replaceAll('""', '"');
            if (fields === o.index) value = text;
            cells?.push(text);
          }
          pos = end + 1;
        } else {
          end = pos;
          while (end < len) {
            const ch = s.charCodeAt(end);
            if (ch === delim || ch === LF || ch === CR) break;
            if (ch === QUOTE) return -1;
            end++;
          }
          if (end >= len && !final) return start;
          if (fields === o.index || cells) {
            const text = s.slice(pos, end);
            if (fields === o.index) value = text;
            cells?.push(text);
          }
          pos = end;
        }
        fields++;
        if (pos - start > MOST_CHARS) return -1;
        if (pos >= len) break;
        c = s.charCodeAt(pos);
        if (c === delim) {
          pos++;
          continue;
        }
        if (c === LF) {
          pos++;
          break;
        }
        // CR: a record ends; CRLF is one break, so a CR ending the piece waits for the next.
        if (pos + 1 >= len && !final) return start;
        pos += s.charCodeAt(pos + 1) === LF ? 2 : 1;
        break;
      }
      if (width === -1) width = fields;
      else if (fields !== width) return -1;
      if (first && o.skipFirst) first = false;
      else {
        first = false;
        o.row(value ?? '');
        if (cells) whole?.(cells);
      }
    }
  };

  return {
    push(text) {
      const s = carry === '' ? text : carry + text;
      const at = scan(s, false);
      if (at === -1) return false;
      carry = s.slice(at);
      return carry.length <= MOST_CHARS;
    },
    end() {
      const s = carry;
      carry = '';
      return scan(s, true) !== -1;
    },
  };
}
