/**
 * Benchmark harness: `enrich handle --input` with the store on and the network taken out. The run is the
 * command's own (lib/bulk/enrich.ts runEnrichment: the input's passes, the store's count of rows it holds
 * before the money gate, the ordered runner, the CSV printer into an atomic file) over a real SQLite store
 * in a temporary folder; only each row's request is replaced by a fixed answer. Prints its peak heap.
 * Usage: node bulk-path.js <in.csv> <out.csv> <store.db>
 */
import { BULK_NAMES } from '../src/commands/enrich/bulk-flags.js';
import { handleJob } from '../src/lib/bulk/jobs.js';
import { runEnrichment } from '../src/lib/bulk/enrich.js';
import type { HttpClient } from '../src/lib/http/client.js';
import { Terminal } from '../src/lib/io/terminal.js';
import { DEFAULT_MAX_AGE_MS, PurchaseMemoryImpl } from '../src/lib/store/memory.js';
import { openStore } from '../src/lib/store/open.js';

const [input, output, storeFile] = process.argv.slice(2);
if (!input || !output || !storeFile) throw new Error('usage: bulk-path <in.csv> <out.csv> <store.db>');

const job = handleJob({ platform: 'instagram', mode: 'raw' } as never);
job.send = async (_http, handle) =>
  ({
    status: 'ok',
    creditsCost: 0.03,
    result: {
      instagram: {
        username: handle,
        userid: '1234567',
        full_name: 'Some Creator',
        follower_count: 12345,
        engagement_percent: 2.5,
      },
      email: null,
    },
  }) as never;
const streams = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
};
const term = new Terminal(streams, { quiet: true, color: false, debug: false, yes: false, cwd: process.cwd() });
const store = await openStore({ file: storeFile });
if (!store) throw new Error('no store');
const memory = new PurchaseMemoryImpl({
  store,
  baseUrl: 'http://127.0.0.1:1/',
  profile: 'default',
  command: 'enrich handle',
  maxAge: { ...DEFAULT_MAX_AGE_MS },
  now: Date.now,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
});
await runEnrichment(
  {
    term,
    http: async () => ({ load: () => ({ perMinute: 1e9, latencyMs: 0 }) }) as unknown as HttpClient,
    output: async () => ({ format: 'csv', formatExplicit: true, outputPath: output, color: false, quiet: true }),
    gate: async () => true,
    mustCount: false,
    now: Date.now,
    memory: async () => memory,
  },
  job,
  { values: [], input, concurrency: 4, named: BULK_NAMES },
);
await store.close();
