/**
 * One-line row encoders for the delimited outputs: csv (RFC 4180 quoting, byte for byte as csv-stringify
 * writes it) and tab-separated text (tsv, and `table` when stdout is not a terminal).
 */

/** Encodes one row of cell texts as a line ending in `\n`. */
export type RowEncoder = (cells: readonly string[]) => string;

/** A tab-separated line; tabs and line breaks inside values become spaces so every row stays one line. */
export const tabLine: RowEncoder = valueLineEncoder('tsv');

/** One tab-separated cell: tabs and line breaks become spaces. */
export function tabCell(cell: string): string {
  return cell.replace(/\r\n|[\t\r\n]/g, ' ');
}

/**
 * One csv cell as csv-stringify writes a string with its defaults (delimiter `,`, quote `"`, record
 * delimiter `\n`): quoted when it holds a quote, a comma or `\n`, quotes doubled; anything else as is
 * (a lone `\r` included). test/lib/output/delimited.test.ts checks this against csv-stringify itself.
 * Done here because csv-stringify's per-call set-up costs more than the row when called once per row.
 */
export function csvCell(cell: string): string {
  // RFC 4180: a field holding a quote, a comma, or a line break of either kind is quoted. A bare CR left
  // unquoted is read as a row break by Excel and many parsers.
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * The encoder for a format: `csv` quotes fields holding a comma, quote or line break (quotes doubled),
 * per RFC 4180, with `\n` line ends like most Unix tools; anything else is tab-separated.
 */
export async function rowEncoder(format: 'csv' | 'tsv' | 'table'): Promise<RowEncoder> {
  return valueLineEncoder(format === 'csv' ? 'csv' : 'tsv');
}

/**
 * Encodes one row of raw cell values straight to a line (csv or tab-separated), without an array of
 * cell texts in between: this runs for every row of a csv export. Numbers and booleans never need
 * quoting, so only strings are checked; `null` is an empty cell.
 */
export function valueLineEncoder(format: 'csv' | 'tsv'): (values: ArrayLike<string | number | boolean | null>) => string {
  const cell = format === 'csv' ? csvCell : tabCell;
  const sep = format === 'csv' ? ',' : '\t';
  return (values) => {
    let line = '';
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      const text = value === null || value === undefined ? '' : typeof value === 'string' ? cell(value) : String(value);
      line += i === 0 ? text : sep + text;
    }
    return `${line}\n`;
  };
}
