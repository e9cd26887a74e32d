import { Readable, Writable } from 'node:stream';
import type { Context } from '../context.js';
import type { Deps } from '../deps.js';

/** `main()` as the server calls it (main.ts, handed in by the verb: src/app does not import it). */
export type MainFn = (argv: string[], deps: Deps, options?: { onContext?: (ctx: Context) => void }) => Promise<number>;

/** One command run in this process: what it printed and what the purchase memory saw it spend. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  spentMilli: number;
  /** Answers the store gave at 0 credits. */
  reused: number;
}

/**
 * Runs CLI command lines in this process with the server's own deps (env, config directory, clock) and the
 * global options `creators mcp` was started with, over memory streams: nothing a command prints (notices,
 * warnings, data) can reach the server's stdout, which carries only protocol messages.
 */
export class CliRunner {
  constructor(
    private readonly main: MainFn,
    private readonly deps: Deps,
    private readonly globals: string[],
  ) {}

  async run(argv: readonly string[], stdinText?: string): Promise<CliRun> {
    let stdout = '';
    let stderr = '';
    const sink = (add: (s: string) => void): Writable =>
      new Writable({
        write(chunk: Buffer | string, _enc, done) {
          add(String(chunk));
          done();
        },
      });
    let ctx: Context | undefined;
    const deps: Deps = {
      ...this.deps,
      io: {
        stdin: Readable.from(stdinText === undefined ? [] : [stdinText]),
        stdout: sink((s) => (stdout += s)),
        stderr: sink((s) => (stderr += s)),
        stdinIsTTY: false,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        columns: 100,
      },
      // A client that goes away must not cut a paid request short: its answer lands in the store either way.
      signal: undefined,
      startPager: undefined,
      waitSpinnerDelayMs: Number.POSITIVE_INFINITY,
      secrets: undefined,
    };
    const code = await this.main([...argv, ...this.globals], deps, { onContext: (c) => (ctx = c) });
    const memory = await (ctx as Context | undefined)?.store.madeMemory();
    return { code, stdout, stderr, spentMilli: memory?.spentMilli ?? 0, reused: memory?.tally.reused ?? 0 };
  }
}

/**
 * The global options of `creators mcp` that each tool's command repeats (profile, key, base URL, store...),
 * after the verb's words so the command tree is built for that verb alone.
 */
export async function forwardedGlobals(ctx: Context): Promise<string[]> {
  const g = ctx.globals;
  const out: string[] = [];
  const add = (flag: string, value: string | number | undefined): void => {
    if (value !== undefined) out.push(flag, String(value));
  };
  add('--profile', g.profile);
  add('--base-url', g.baseUrl);
  add('--api-key', g.apiKey);
  // Standard input is the protocol's: a key read from it is read once, here, and handed on.
  if (g.apiKeyFile === '-') add('--api-key', (await ctx.credential())?.value);
  else add('--api-key-file', g.apiKeyFile);
  add('--timeout', g.timeout);
  add('--retries', g.retries);
  if (g.maxAge !== undefined) out.push('--max-age', g.maxAge === null ? '' : `${g.maxAge / 1000}s`);
  if (g.store === false) out.push('--no-store');
  if (g.debug) out.push('--debug');
  if (g.csvSafe !== undefined) out.push(g.csvSafe ? '--csv-safe' : '--no-csv-safe');
  if (g.bom !== undefined) out.push(g.bom ? '--bom' : '--no-bom');
  return out;
}
