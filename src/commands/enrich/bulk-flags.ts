import { integer, type FlagDefs } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';
import { CONCURRENCY_CAP } from '../../lib/options.js';
import type { BulkOptions } from '../../lib/bulk/enrich.js';
import type { BulkNames } from '../../lib/bulk/source.js';
import { COLUMN_NAMES, CSV_INPUT_FLAGS, csvReadOptions } from '../csv-flags.js';

/** The many-values flags of `enrich handle` and `enrich email` (declared only; nothing heavy). */
export function bulkFlags(what: 'handles' | 'emails') {
  return {
    input: {
      flags: '--input <file.csv|->',
      description: `read ${what} from a CSV file (or - for stdin, which cannot be resumed); output keeps its columns`,
      stdin: true,
    },
    column: {
      flags: '--column <name>',
      description: `the column holding the ${what} (default: detected by header, then by content)`,
    },
    concurrency: {
      flags: '--concurrency <n>',
      description:
        'force the requests in flight, 1 to 64 (default: sized from the rate limit and the latency the service shows); pacing still keeps under the rate limit',
      value: integer({ min: 1, max: CONCURRENCY_CAP }),
    },
    ...CSV_INPUT_FLAGS,
    maxRows: {
      flags: '--max-rows <n>',
      description: 'stop after this many input rows (also bounds the worst-case cost of a stdin run)',
      value: integer({ min: 1 }),
    },
    restart: {
      flags: '--restart',
      description:
        'rows answered within --max-age are taken from the store, whatever the -o path or input file; --restart buys every row fresh (as --max-age 0)',
    },
  } as const satisfies FlagDefs;
}

/** The many-values flags as the run takes them: the CSV flags only with `--input`. */
/** How the bulk workflow's messages name what it was given: these flags. */
export const BULK_NAMES: BulkNames = {
  ...COLUMN_NAMES,
  input: '--input',
  maxRows: '--max-rows',
  restart: '--restart',
  noStore: '--no-store',
  maxAge: '--max-age',
};

export function bulkOptions(
  values: string[],
  flags: {
    input: string | undefined;
    column: string | undefined;
    concurrency: number | undefined;
    maxRows: number | undefined;
    restart?: boolean | undefined;
    delimiter?: string | undefined;
    relaxColumns?: boolean | undefined;
  },
): BulkOptions {
  if ((flags.delimiter !== undefined || flags.relaxColumns) && flags.input === undefined)
    throw new UsageError(`--${flags.delimiter !== undefined ? 'delimiter' : 'relax-columns'} needs --input.`);
  const csv = csvReadOptions(flags);
  return {
    values,
    input: flags.input,
    named: BULK_NAMES,
    column: flags.column,
    concurrency: flags.concurrency,
    maxRows: flags.maxRows,
    restart: flags.restart ?? false,
    csv,
  };
}

/** The values come as arguments or with `--input`: one of them, and `--column` only with `--input`. Checked as the run starts. */
export function checkBulkValues(kind: string, o: Pick<BulkOptions, 'values' | 'input' | 'column'>): void {
  if (o.input !== undefined && o.values.length > 0)
    throw new UsageError(`Give the ${kind}s as arguments or with --input, not both.`);
  if (o.input !== undefined) return;
  if (o.column !== undefined) throw new UsageError('--column needs --input.');
  if (o.values.length === 0)
    throw new UsageError(`No ${kind} given.`, { hint: `Pass one or more ${kind}s, or --input <file.csv|->.` });
}
