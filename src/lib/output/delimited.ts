/**
 * Line encoders for the delimited outputs. csv and tsv are written by csv-stringify (RFC 4180 quoting; tsv is
 * csv with a tab delimiter and the same quoting, so a CSV reader given a tab delimiter reads it back exactly).
 * The plain tab-separated rows of `--format table` when stdout is not a terminal are not csv: no quoting,
 * tabs and line breaks in values become spaces, one row per line (like `gh`).
 */
import type { FlatValue } from './flatten.js';

/** Encodes one row of raw cell values (`null` an empty cell) as a line ending in `\n`. */
export type LineEncoder = (values: readonly FlatValue[]) => string;

/** csv-stringify options the user chooses: `--csv-safe` and `--bom`. */
export interface CsvWriteOptions {
  /** Prefix a cell starting with `=`, `+`, `-`, `@`, tab or CR with `'` (OWASP's CSV injection advice). */
  csvSafe?: boolean | undefined;
  /** Start the output with a UTF-8 byte order mark, so Excel reads it as UTF-8. */
  bom?: boolean | undefined;
}

/**
 * One csv-stringify `Stringifier` (its streaming API) for one whole output: each call writes a record to it
 * and reads back the line it produced. The transform runs synchronously inside `write`, so the line comes
 * back at once: each record is written out before the next is pulled from its source, which keeps the
 * printers' backpressure (a paging command stops buying pages nobody reads) and their rule that a run
 * stopped part-way keeps every record it already had.
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
  stringifier.setEncoding('utf8');
  let failure: Error | undefined;
  stringifier.on('error', (err: Error) => {
    failure = err;
  });
  return (values) => {
    stringifier.write(values);
    const line = stringifier.read() as string | null;
    if (failure !== undefined) throw failure;
    // Every record gives at least its line end; nothing back would mean the transform did not run in step.
    if (line === null) throw new Error('csv-stringify wrote nothing for a record');
    return line;
  };
}

/** A plain tab-separated line (piped `--format table`): tabs and line breaks inside values become spaces. */
export function tabLine(values: readonly FlatValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const text = value === null || value === undefined ? '' : typeof value === 'string' ? tabCell(value) : String(value);
    line += i === 0 ? text : `\t${text}`;
  }
  return `${line}\n`;
}

/** One plain tab-separated cell: tabs and line breaks become spaces. */
function tabCell(cell: string): string {
  return cell.replace(/\r\n|[\t\r\n]/g, ' ');
}
