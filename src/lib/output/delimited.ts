/**
 * One-line row encoders for the delimited outputs: csv (RFC 4180 quoting by csv-stringify, loaded on
 * demand) and tab-separated text (tsv, and `table` when stdout is not a terminal).
 */

/** Encodes one row of cell texts as a line ending in `\n`. */
export type RowEncoder = (cells: readonly string[]) => string;

/** A tab-separated line; tabs and line breaks inside values become spaces so every row stays one line. */
export function tabLine(cells: readonly string[]): string {
  return `${cells.map((cell) => cell.replace(/\r\n|[\t\r\n]/g, ' ')).join('\t')}\n`;
}

/**
 * The encoder for a format: `csv` quotes fields holding a comma, quote or line break (quotes doubled),
 * per RFC 4180, with `\n` line ends like most Unix tools; anything else is tab-separated.
 */
export async function rowEncoder(format: 'csv' | 'tsv' | 'table'): Promise<RowEncoder> {
  if (format !== 'csv') return tabLine;
  const { stringify } = await import('csv-stringify/sync');
  return (cells) => stringify([cells as string[]], { eof: true, record_delimiter: 'unix' });
}
