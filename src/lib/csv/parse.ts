/**
 * A streaming RFC 4180 CSV parser over text chunks: `push` takes whatever text has arrived and returns
 * the records it completes; a record cut by the chunk's end is carried to the next chunk. Empty lines are
 * skipped, rows may differ in width (the reader fits them to the header), and a record may end with
 * `\n`, `\r\n` or a lone `\r` (a file may mix them; old spreadsheet exports end lines with `\r`).
 *
 * Written here rather than taken from csv-parse because every row of a bulk file passes through it: a
 * loop over character codes with one slice per field is several times faster than csv-parse's general
 * state machine (bench: the CSV path), and the errors name the line and what to do.
 */

export interface CsvParseOptions {
  /** Keep quotes that appear inside an unquoted value, or after a closing quote, as text (lenient input). */
  relaxQuotes?: boolean;
  /** Longest field accepted, in characters: past it the input is refused (an unclosed quote, usually). */
  maxFieldLength?: number;
}

/** Malformed CSV; the message names the line. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

const enum State {
  /** At the start of a field (after a comma or a record break). */
  FieldStart,
  /** Inside an unquoted field; `field` holds its text so far. */
  Unquoted,
  /** Inside a quoted field; `field` holds its text so far. */
  Quoted,
  /** A quote was seen inside a quoted field: a doubled quote or the closing one, the next character says. */
  QuoteInQuoted,
  /** After a closing quote: a comma, a record break or the end must follow. */
  Closed,
}

const DEFAULT_MAX_FIELD = 16 * 1024 * 1024;

/** A value as an error message quotes it: line breaks escaped, at most 20 characters. */
function shown(value: string): string {
  const flat = value.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return flat.length > 20 ? `${flat.slice(0, 20)}...` : flat;
}

export class CsvParser {
  private state = State.FieldStart;
  private field = '';
  private record: string[] = [];
  /** The record has content (a quote counts): an empty line is skipped, `""` is a record of one empty field. */
  private touched = false;
  /** A `\r` ended the last record: a `\n` right after it belongs to it. */
  private afterCr = false;
  /** 1-based line of the parse position, and of the quote that opened the current quoted field. */
  private line = 1;
  /** The quoted text so far ended with `\r`: a `\n` next is the same line break. */
  private quotedCr = false;
  private quoteLine = 1;
  private readonly relax: boolean;
  private readonly maxField: number;

  constructor(options: CsvParseOptions = {}) {
    this.relax = options.relaxQuotes ?? false;
    this.maxField = options.maxFieldLength ?? DEFAULT_MAX_FIELD;
  }

  /** Parses `text` (the next piece of the input) and returns the records it completed, in order. */
  push(text: string): string[][] {
    const out: string[][] = [];
    const n = text.length;
    let i = 0;
    if (this.afterCr && n > 0) {
      this.afterCr = false;
      if (text.charCodeAt(0) === LF) i = 1;
    }
    while (i < n) {
      switch (this.state) {
        case State.FieldStart:
          if (text.charCodeAt(i) === QUOTE) {
            this.state = State.Quoted;
            this.touched = true;
            this.quoteLine = this.line;
            this.quotedCr = false;
            i++;
          } else {
            this.state = State.Unquoted;
          }
          break;
        case State.Unquoted: {
          let j = i;
          let c = 0;
          for (; j < n; j++) {
            c = text.charCodeAt(j);
            if (c === COMMA || c === LF || c === CR || c === QUOTE) break;
          }
          const piece = text.slice(i, j);
          const value = this.field === '' ? piece : this.field + piece;
          if (j === n) {
            this.field = value;
            if (value.length > 0) this.touched = true;
            this.checkLength();
            i = j;
            break;
          }
          if (c === QUOTE) {
            if (!this.relax) {
              throw new CsvSyntaxError(
                `line ${this.line}, field ${this.record.length + 1}: a quote inside an unquoted value (${shown(value)}"...); ` +
                  'put the whole value in quotes and double each quote inside it, like "a ""b"" c".',
                this.line,
              );
            }
            this.field = `${value}"`;
            this.state = State.Unquoted;
            this.touched = true;
            i = j + 1;
            break;
          }
          i = this.endField(text, value, c, j, out);
          break;
        }
        case State.Quoted: {
          const q = text.indexOf('"', i);
          const end = q === -1 ? n : q;
          const piece = text.slice(i, end);
          this.countLines(piece);
          this.field += piece;
          this.checkLength();
          if (q === -1) {
            i = n;
            break;
          }
          this.state = State.QuoteInQuoted;
          i = q + 1;
          break;
        }
        case State.QuoteInQuoted: {
          const c = text.charCodeAt(i);
          if (c === QUOTE) {
            this.field += '"';
            this.quotedCr = false;
            this.state = State.Quoted;
            i++;
            break;
          }
          this.state = State.Closed;
          break;
        }
        case State.Closed: {
          const c = text.charCodeAt(i);
          if (c === COMMA || c === LF || c === CR) {
            i = this.endField(text, this.field, c, i, out);
            break;
          }
          if (!this.relax) {
            throw new CsvSyntaxError(
              `line ${this.line}, field ${this.record.length + 1}: the closing quote of "${shown(this.field)}" is followed by ` +
                `${JSON.stringify(text[i])} instead of a comma or the end of the line; double a quote inside a quoted value ("").`,
              this.line,
            );
          }
          // Lenient: the quotes were text after all.
          this.field = `"${this.field}"`;
          this.state = State.Unquoted;
          break;
        }
      }
    }
    return out;
  }

  /** Ends the input: completes the last record (a missing final line break is fine) into `out`. */
  end(out: string[][] = []): string[][] {
    switch (this.state) {
      case State.Quoted:
        throw new CsvSyntaxError(`a quote opened on line ${this.quoteLine} is never closed; close it, or double it ("") if it is part of the value.`, this.quoteLine);
      case State.QuoteInQuoted:
      case State.Closed:
      case State.Unquoted:
        this.record.push(this.field);
        break;
      case State.FieldStart:
        if (this.record.length > 0) this.record.push('');
        break;
    }
    if (this.record.length > 0 && this.touched) out.push(this.record);
    this.record = [];
    this.field = '';
    this.touched = false;
    this.state = State.FieldStart;
    return out;
  }

  /** Completes a field ended by `c` (a comma or a line break) at `text[at]`; returns where parsing goes on. */
  private endField(text: string, value: string, c: number, at: number, out: string[][]): number {
    this.field = '';
    if (c === COMMA) {
      this.record.push(value);
      this.touched = true;
      this.state = State.FieldStart;
      return at + 1;
    }
    this.state = State.FieldStart;
    if (this.touched || value.length > 0 || this.record.length > 0) {
      this.record.push(value);
      out.push(this.record);
    }
    this.record = [];
    this.touched = false;
    this.line++;
    if (c === CR) {
      // `\r\n` is one break; the `\n` may be the first character of the next chunk.
      if (at + 1 === text.length) this.afterCr = true;
      else if (text.charCodeAt(at + 1) === LF) return at + 2;
    }
    return at + 1;
  }

  /** Counts the line breaks inside a quoted value (`\n`, `\r\n` or a lone `\r`, like record breaks). */
  private countLines(piece: string): void {
    for (let k = 0; k < piece.length; k++) {
      const c = piece.charCodeAt(k);
      if (c === LF) {
        if (!this.quotedCr) this.line++;
        this.quotedCr = false;
      } else {
        this.quotedCr = c === CR;
        if (this.quotedCr) this.line++;
      }
    }
  }

  private checkLength(): void {
    if (this.field.length > this.maxField) {
      const where = this.state === State.Quoted ? `a quoted value opened on line ${this.quoteLine}` : `a value on line ${this.line}`;
      throw new CsvSyntaxError(`${where} is longer than ${this.maxField} characters; is a quote left open?`, this.line);
    }
  }
}
