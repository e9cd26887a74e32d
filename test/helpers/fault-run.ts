/**
 * What the fault matrix and the clock and holder tests share: a bulk enrichment of the built CLI in its own
 * process against the sandbox, the sandbox's ledger as the judge, and readers of what a store and its outbox
 * hold after a run (a copy of a SQLite file; PostgreSQL through an admin connection).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/lib/store/sqlite.js';
import type { StoredAnswer } from '../../src/lib/store/types.js';
import { csvObjects } from '../commands/enrich/helpers.js';
import { sandboxEnv, type StartedSandbox } from './sandbox.js';
import { BIN, type SpawnResult } from './spawn-cli.js';
import { tempDir } from './temp.js';

export interface World {
  dir: string;
  config: string;
  /** The SQLite store's file (the default one unless CREATORS_STORE names another). */
  store: string;
  outbox: string;
  env: Record<string, string>;
}

export function world(sb: StartedSandbox, extra: Record<string, string> = {}): World {
  const dir = tempDir('creators-fault-');
  const config = join(dir, 'config');
  const env = { ...sandboxEnv(sb), CREATORS_CONFIG_DIR: config, CREATORS_RATE_LIMIT: '100000', ...extra };
  return {
    dir,
    config,
    store: extra.CREATORS_STORE ?? join(config, 'store', 'default.db'),
    outbox: join(config, 'store', 'default.outbox.jsonl'),
    env,
  };
}

export function writeInput(file: string, handles: readonly string[]): void {
  writeFileSync(file, `handle\n${handles.join('\n')}\n`);
}

export function enrichArgs(input: string, out: string, ...extra: string[]): string[] {
  return ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', input, '-o', out, ...extra];
}

/** The sandbox's charges from now on, by enriched handle (its note is `raw instagram:<handle>`). */
export function ledgerFrom(sb: StartedSandbox) {
  const from = sb.state.ledger.charges.length;
  const charges = () => sb.state.ledger.charges.slice(from);
  return {
    charges,
    handles(): string[] {
      return charges()
        .map((c) => /^\w+ instagram:(.+)$/.exec(c.note)?.[1] ?? c.note)
        .sort();
    },
  };
}

export interface Running {
  pid: number;
  kill(signal: NodeJS.Signals): void;
  done: Promise<SpawnResult>;
  readonly stderr: string;
}

/** The built CLI in the background (`wrap`: a command line to run it under, e.g. faketime). */
export function start(
  args: string[],
  env: Record<string, string>,
  o: { wrap?: string[]; guardMs?: number } = {},
): Running {
  const [cmd, ...pre] = o.wrap ?? [];
  const child = spawn(cmd ?? process.execPath, [...(cmd ? [...pre, process.execPath] : []), BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), o.guardMs ?? 90_000);
  const done = new Promise<SpawnResult>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return {
    pid: child.pid as number,
    kill: (signal) => child.kill(signal),
    done,
    get stderr() {
      return stderr;
    },
  };
}

export async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The subjects a SQLite store file holds (read from a copy: a holder's lock does not matter). */
export async function sqliteSubjects(file: string): Promise<string[]> {
  if (!existsSync(file)) return [];
  const copy = join(tempDir('creators-fault-copy-'), 'store.db');
  for (const suffix of ['', '-wal']) if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
  const store = await openSqliteStore({ file: copy, readOnly: true });
  try {
    const out: string[] = [];
    for await (const a of store.list({})) out.push(String(a.subject));
    return out.sort();
  } finally {
    await store.close();
  }
}

/** The subjects of the outbox's lines (and of the copies a killed drainer left). */
export function outboxSubjects(outbox: string): string[] {
  const dir = join(outbox, '..');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith('default.outbox.jsonl'))
    .flatMap((n) => readFileSync(join(dir, n), 'utf8').split('\n').filter(Boolean))
    .map((l) => String((JSON.parse(l) as { answer: StoredAnswer }).answer.subject))
    .sort();
}

/** The handles of the -o output's rows bought from the service. */
export function paidRows(out: string): string[] {
  if (!existsSync(out)) return [];
  return csvObjects(readFileSync(out, 'utf8'))
    .filter((r) => r.status === 'ok' && r.source === 'api')
    .map((r) => r.handle as string)
    .sort();
}

/** The lines of stderr a user reads as errors (`error: ...`), and whether a stack trace leaked. */
export function errorLines(stderr: string): { errors: string[]; stack: boolean } {
  const lines = stderr.split('\n');
  return { errors: lines.filter((l) => /^error: /.test(l)), stack: lines.some((l) => /^\s+at .+[(:]\d+/.test(l)) };
}

type PgClient = {
  connect(): Promise<void>;
  query(q: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
  on(e: 'error', f: () => void): void;
};

export async function pgClient(url: string): Promise<PgClient> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: { Client: new (c: { connectionString: string }) => PgClient };
  };
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

/** One statement on a connection of its own. */
export async function pgSql(url: string, q: string): Promise<Record<string, unknown>[]> {
  const c = await pgClient(url);
  try {
    return (await c.query(q)).rows;
  } finally {
    await c.end();
  }
}

/** A transaction held open by the test (a lock it takes), until `end`. */
export async function pgHold(url: string, ...statements: string[]): Promise<{ end(): Promise<void> }> {
  const c = await pgClient(url);
  await c.query('BEGIN');
  for (const s of statements) await c.query(s);
  return {
    async end() {
      await c.query('ROLLBACK').catch(() => undefined);
      await c.end().catch(() => undefined);
    },
  };
}

export async function pgSubjects(url: string): Promise<string[]> {
  return (await pgSql(url, 'SELECT subject FROM answers')).map((r) => String(r.subject)).sort();
}
