/**
 * Benchmark harness: `enrich handle --input` with the store on and the network taken out. The run is the
 * command's own (lib/bulk/enrich.ts runEnrichment: the input's passes, the store's count of rows it holds
 * before the money gate, the ordered runner, the CSV printer into an atomic file) over a real SQLite store
 * in a temporary folder; only each row's request is replaced by a fixed answer. Prints its peak heap.
 * With --buy, each row is bought as the command buys it: the request goes through the purchase memory (the claim,
 * the answer committed with its spend entry before the row is written), only the network replaced by the answer.
 * Usage: node bulk-path.js <in.csv> <out.csv> <store.db> [--buy]
 */
import { BULK_NAMES } from '../src/commands/enrich/bulk-flags.js';
import { enrichHandlePlan, readOutcome } from '../src/lib/api/enrichment.js';
import { handleJob } from '../src/lib/bulk/jobs.js';
import { runEnrichment } from '../src/lib/bulk/enrich.js';
import type { HttpClient } from '../src/lib/http/client.js';
import { Terminal } from '../src/lib/io/terminal.js';
import { DEFAULT_MAX_AGE_MS, PurchaseMemoryImpl } from '../src/lib/store/memory.js';
import { openStore } from '../src/lib/store/open.js';

const [input, output, storeFile, mode] = process.argv.slice(2);
if (!input || !output || !storeFile) throw new Error('usage: bulk-path <in.csv> <out.csv> <store.db>');

const options = { platform: 'instagram', mode: 'raw' } as const;
const job = handleJob(options as never);
const answer = (handle: string) => ({
  status: 'ok',
  credits_cost: 0.03,
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
});
job.send =
  mode === '--buy'
    ? async (_http, handle) => {
        // lib/api/enrichment.ts enrichHandle, with the HTTP client's hand-over to the memory (client.ts request).
        const plan = enrichHandlePlan(handle, options as never);
        const res = await memory.request(plan, async () => ({
          status: 200,
          headers: {},
          url: '',
          data: answer(handle) as never,
        }));
        return readOutcome(res.data, plan);
      }
    : async (_http, handle) => {
        const data = answer(handle);
        return { status: 'ok', creditsCost: data.credits_cost, result: data.result } as never;
      };
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
