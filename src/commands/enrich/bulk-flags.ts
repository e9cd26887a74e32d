import type { FlagDefs } from '../../app/command.js';

/** The many-values flags of `enrich handle` and `enrich email` (declared only; nothing heavy). */
export function bulkFlags(what: 'handles' | 'emails') {
  return {
    input: { flags: '--input <file.csv|->', description: `read ${what} from a CSV file (or - for stdin); output keeps its columns` },
    column: { flags: '--column <name>', description: `the column holding the ${what} (default: detected by header, then by content)` },
    concurrency: { flags: '--concurrency <n>', description: 'requests in flight at once, 1 to 16 (default 4); pacing still keeps under the rate limit' },
    maxRows: { flags: '--max-rows <n>', description: 'stop after this many input rows (also bounds the worst-case cost of a stdin run)' },
  } as const satisfies FlagDefs;
}
