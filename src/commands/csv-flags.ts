import { delimiter, type FlagDefs } from '../app/command.js';
import type { ColumnNames } from '../lib/csv/detect.js';
import type { CsvNames, CsvReadOptions } from '../lib/csv/read.js';

/** How a user's CSV is read (lib/csv/read.ts): shared by every verb that reads one. */
export const CSV_INPUT_FLAGS = {
  delimiter: {
    flags: '--delimiter <char>',
    description:
      'input delimiter: comma, semicolon, tab, pipe or any one character (default: detected from the header line)',
    value: delimiter,
  },
  relaxColumns: {
    flags: '--relax-columns',
    description:
      'accept input rows wider or narrower than the header (padded or cut to it) instead of refusing the file',
  },
} as const satisfies FlagDefs;

/** How the CSV reader's messages name these flags. */
export const CSV_NAMES: CsvNames = { delimiter: '--delimiter', relaxColumns: '--relax-columns' };

/** The CSV flags as the reader takes them, with their words. */
export function csvReadOptions(flags: {
  delimiter?: string | undefined;
  relaxColumns?: boolean | undefined;
}): CsvReadOptions {
  return { delimiter: flags.delimiter, relaxColumns: flags.relaxColumns === true, named: CSV_NAMES };
}

/**
 * How the column detection's messages name the flag that picks the column, and the verbs that take a file of
 * emails (for a file of emails given where handles were wanted): the verbs that enrich from a file.
 */
export const COLUMN_NAMES: ColumnNames = { column: '--column', byEmail: 'enrich email, batch --mode basic|advanced' };
