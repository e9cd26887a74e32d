/**
 * Benchmark harness: the CLI's own CSV path for `enrich handle --input` with the network taken out.
 * Rows stream from csv-parse (lib/csv/read.ts), through the ordered concurrent runner (lib/bulk/runner.ts)
 * with a fixed result per row, into result columns (lib/bulk/records.ts flatRecord) and the csv printer
 * (lib/output printList -> csv-stringify -> atomic file sink). Usage: node csv-path.js <in.csv> <out.csv>
 */
import { createReadStream } from 'node:fs';
import { readCsv } from '../src/lib/csv/read.js';
import { OrderedRunner } from '../src/lib/bulk/runner.js';
import { flatRecord, handleResultColumns, TRAILING_COLUMNS, type RowOutcome } from '../src/lib/bulk/records.js';
import { printList, type DataRecord } from '../src/lib/output/index.js';

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: csv-path <in.csv> <out.csv>');

const resultColumns = handleResultColumns('instagram');
const input$ = await readCsv(createReadStream(input), input, 'handle');
const runner = new OrderedRunner<string[], RowOutcome>({
  items: input$.rows,
  concurrency: 4,
  work: async (cells) => ({
    cells,
    status: 'ok',
    error: null,
    creditsMilli: 30,
    result: { instagram: { username: cells[0], userid: '1234567', full_name: 'Some Creator', follower_count: 12345, engagement_percent: 2.5 }, email: null },
  }),
});
const records = (async function* (): AsyncGenerator<DataRecord> {
  for await (const row of runner.run()) yield flatRecord(input$.header, resultColumns, row);
})();
const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
const rows = await printList(
  io,
  { format: 'csv', formatExplicit: true, outputPath: output, fields: [...input$.header, ...resultColumns, ...TRAILING_COLUMNS], color: false, quiet: true } as never,
  records,
  [],
);
process.stdout.write(`${rows}\n`);
