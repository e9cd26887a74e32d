/**
 * tsv is csv with a tab delimiter and the same quoting, so a CSV reader given a tab reads it back exactly.
 * Piped `--format table` rows are not csv: no quoting, tabs and line breaks become spaces (like `gh`).
 */
import type { FlatValue } from './flatten.js';

export type LineEncoder = (values: readonly FlatValue[]) => string;

export interface CsvWriteOptions {
  /** Prefix a cell starting with `=`, `+`, `-`, `@`, tab or CR with `'` (OWASP's CSV injection advice). */
  csvSafe?: boolean | undefined;
  /** So Excel reads it as UTF-8. */
  bom?: boolean | undefined;
}

/**
 * One `Stringifier` for the whole output, its record writer called directly (no stream a row): each record is out
 * before the next is pulled, so backpressure holds (no page bought nobody reads), and a stopped run keeps all.
 */
export async function csvLineEncoder(format: 'csv' | 'tsv', options: CsvWriteOptions = {}): Promise<LineEncoder> {
  const { Stringifier } = await import('csv-stringify');
  const stringifier = new Stringifier({
    delimiter: format === 'csv' ? ',' : '\t',
    record_delimiter: 'unix',
    eof: true,
    // A value holding a line break of either kind is quoted: a bare CR left unquoted reads as a row break
    // in Excel and many parsers (csv-stringify only checks `\n` once a record delimiter is given).
    quote_record_delimiter: true,
    bom: options.bom === true,
    escape_formulas: options.csvSafe === true,
    // csv-stringify's default writes booleans as `1` and an empty cell; the data says true/false.
    cast: { boolean: (value: boolean) => String(value) },
  });
  // The stream's own transform (`Stringifier._transform`) is this call and a push: the push a row cost a third of
  // the encoding. The first record is preceded by the BOM, pushed as bytes.
  const api = (stringifier as unknown as { api: StringifierApi }).api;
  let line = '';
  const push = (chunk: string | Buffer): void => {
    line += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  };
  const delimiter = format === 'csv' ? ',' : '\t';
  let first = true;
  return (values) => {
    // The first record through csv-stringify (its BOM); with formulas escaped, every record.
    if (!first && options.csvSafe !== true) {
      const plain = plainLine(values, delimiter);
      if (plain !== undefined) return plain;
    }
    first = false;
    line = '';
    const failure = api.__transform(values, push);
    if (failure !== undefined) throw failure;
    if (line === '') throw new Error('csv-stringify wrote nothing for a record');
    return line;
  };
}

/** What makes csv-stringify quote a cell (the delimiter, a quote, LF, CR). */
const SPECIAL_CSV = /[",\n\r]/;
const SPECIAL_TSV = /["\t\n\r]/;

/**
 * The line csv-stringify writes for a record of text, numbers, booleans and empty cells with the options above
 * (`lib/api/index.js` stringify: a cell holding the delimiter, a quote, LF or CR quoted, its quotes doubled), or
 * undefined for any other cell (an object, a bigint, a date: csv-stringify casts those). Its cast and option lookups
 * a cell were most of a row's encoding (checked against it in test/lib/output/delimited.test.ts).
 */
function plainLine(values: readonly FlatValue[], delimiter: string): string | undefined {
  const special = delimiter === ',' ? SPECIAL_CSV : SPECIAL_TSV;
  let out = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as unknown;
    let text: string;
    if (typeof v === 'string') text = v;
    else if (typeof v === 'number') text = `${v}`;
    else if (typeof v === 'boolean') text = String(v);
    else if (v === null || v === undefined) text = '';
    else return undefined;
    if (i > 0) out += delimiter;
    if (special.test(text)) out += `"${text.replaceAll('"', '""')}"`;
    else out += text;
  }
  return `${out}\n`;
}

/** csv-stringify's record writer (`lib/api/index.js`), which its `Stringifier` stream wraps. */
interface StringifierApi {
  __transform(record: readonly unknown[], push: (chunk: string | Buffer) => void): Error | undefined;
}

export function tabLine(values: readonly FlatValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const text =
      value === null || value === undefined ? '' : typeof value === 'string' ? tabCell(value) : String(value);
    line += i === 0 ? text : `\t${text}`;
  }
  return `${line}\n`;
}

function tabCell(cell: string): string {
  return cell.replace(/\r\n|[\t\r\n]/g, ' ');
}
