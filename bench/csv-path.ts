/**
 * Benchmark harness: the CLI's own CSV path for `enrich handle --input` with the network taken out.
 * Rows stream from the CLI's CSV reader (lib/csv/read.ts on csv-parse), through the ordered concurrent runner (lib/bulk/runner.ts)
 * with a fixed result per row, into the command's printer (lib/bulk/records.ts printOutcomes: result
 * columns, csv lines, atomic file sink). Usage: node csv-path.js <in.csv> <out.csv>
 */
import { createReadStream } from 'node:fs';
import { readCsv } from '../src/lib/csv/read.js';
import { OrderedRunner } from '../src/lib/bulk/runner.js';
import { handleResultColumns, printOutcomes, type RowOutcome } from '../src/lib/bulk/records.js';
import { Terminal } from '../src/lib/io/terminal.js';

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: csv-path <in.csv> <out.csv>');

const resultColumns = handleResultColumns('instagram');
const input$ = await readCsv(createReadStream(input), input, { kindHint: 'handle' });
const runner = new OrderedRunner<string[], RowOutcome>({
  items: input$.rows,
  concurrency: 4,
  work: async (cells) => ({
    cells,
    status: 'ok',
    error: null,
    creditsMilli: 30,
    result: {
      instagram: {
        username: cells[0],
        userid: '1234567',
        full_name: 'Some Creator',
        follower_count: 12345,
        engagement_percent: 2.5,
      },
      email: null,
    },
  }),
});
const streams = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
};
const io = new Terminal(streams, { quiet: true, color: false, debug: false, yes: false, cwd: process.cwd() });
const rows = await printOutcomes(
  io,
  { format: 'csv', formatExplicit: true, outputPath: output, color: false, quiet: true } as never,
  input$.header,
  resultColumns,
  [],
  runner.run(),
);
process.stdout.write(`${rows}\n`);
