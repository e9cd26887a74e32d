/**
 * A paid answer is durable before anything can lose it (README "Never pay twice"): the built CLI in its own
 * process, a real store (SQLite file, or PostgreSQL), the sandbox's ledger as the judge. When the store cannot
 * take an answer that has arrived (locked past its busy timeout, a role that lost INSERT, a full disk), the
 * answer goes to the profile's outbox; the invariant is ledger charges = rows in the output = store + outbox,
 * and the next run puts the outbox in the store first, so it pays nothing again. A process stopped (SIGSTOP)
 * longer than --timeout keeps what arrived meanwhile. Run `npm run build` first.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseLatencySpec, setLatency } from '../../src/sandbox/latency.js';
import { openSqliteStore } from '../../src/lib/store/sqlite.js';
import type { SpendEntry, StoredAnswer } from '../../src/lib/store/types.js';
import { csvObjects } from '../commands/enrich/helpers.js';
import { mountTinyDisk, tinyDiskUnavailable } from '../helpers/full-disk.js';
import { freshPgDatabase, PG_SKIP, PG_URL, withCredentials } from '../helpers/pg.js';
import { creatorHandles, useSandbox } from '../helpers/sandbox.js';
import { spawnCli, type SpawnResult } from '../helpers/spawn-cli.js';
import {
  enrichArgs,
  ledgerFrom as faultLedger,
  start,
  until,
  world as faultWorld,
  writeInput,
  type World,
} from '../helpers/fault-run.js';
import { tempDir } from '../helpers/temp.js';

const sb = useSandbox({ seed: 35, credits: 100_000, rateLimit: 100_000, dailyDiscoveryLimit: 100_000 });

afterEach(() => {
  setLatency(sb.get().state, {});
});

function latency(spec: string): void {
  setLatency(sb.get().state, parseLatencySpec(spec));
}

/** A machine of its own (config folder, store, outbox) on this file's sandbox. */
const world = (extra: Record<string, string> = {}): World => faultWorld(sb.get(), extra);
/** Charges per enriched handle from now on. */
const ledgerFrom = () => faultLedger(sb.get());

/** What a store file holds (read from a copy: the test changes nothing, and a holder's lock does not matter). */
async function held(file: string): Promise<{ answers: StoredAnswer[]; spend: SpendEntry[] }> {
  const copy = join(tempDir('creators-outbox-copy-'), 'store.db');
  for (const suffix of ['', '-wal']) if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
  const store = await openSqliteStore({ file: copy, readOnly: true });
  try {
    const answers: StoredAnswer[] = [];
    for await (const a of store.list({})) answers.push(a);
    const spend: SpendEntry[] = [];
    for await (const e of store.spend({})) spend.push(e);
    return { answers, spend };
  } finally {
    await store.close();
  }
}

/** The subjects of the outbox's lines (and of copies a killed drainer left). */
function outboxSubjects(outbox: string): string[] {
  const dir = join(outbox, '..');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith('default.outbox.jsonl'))
    .flatMap((n) => readFileSync(join(dir, n), 'utf8').split('\n').filter(Boolean))
    .map((l) => (JSON.parse(l) as { answer: StoredAnswer }).answer.subject as string)
    .sort();
}

function okRows(out: string): string[] {
  if (!existsSync(out)) return [];
  return csvObjects(readFileSync(out, 'utf8'))
    .filter((r) => r.status === 'ok' && r.source === 'api')
    .map((r) => r.handle as string)
    .sort();
}

type Db = { exec(sql: string): void; close(): void };
async function sqlite(file: string): Promise<Db> {
  const { default: Database } = (await import('libsql')) as unknown as {
    default: new (f: string, o?: Record<string, unknown>) => Db;
  };
  return new Database(file, { timeout: 10_000 });
}

describe('a store that cannot take what was paid for', () => {
  it('SQLite held with BEGIN EXCLUSIVE past CREATORS_STORE_BUSY_TIMEOUT mid-run: exit 9, ledger = rows in the output = store + outbox (said where); the re-run pays nothing again and empties the outbox', async () => {
    const w = world({ CREATORS_STORE_BUSY_TIMEOUT: '1' });
    const handles = creatorHandles(sb.get(), 40, 100);
    const input = join(w.dir, 'in.csv');
    const out = join(w.dir, 'out.csv');
    writeInput(input, handles);
    latency('enrich=300ms');
    const ledger = ledgerFrom();
    const run = start(enrichArgs(input, out, '--concurrency', '4'), w.env);
    await until('a few charges', () => ledger.charges().length >= 6);
    const holder = await sqlite(w.store);
    holder.exec('BEGIN EXCLUSIVE');
    let r: SpawnResult;
    try {
      r = await run.done;
      expect(r.code, r.stderr).toBe(9);
      expect(r.stderr).toContain('stayed locked by another process past the busy timeout');
      const inStore = (await held(w.store)).answers.map((a) => a.subject as string);
      const inOutbox = outboxSubjects(w.outbox);
      expect(inOutbox.length, r.stderr).toBeGreaterThan(0);
      expect(r.stderr).toMatch(
        new RegExp(
          `The store could not take ${inOutbox.length} paid answers? \\(instagram:[^)]*\\); (it is|they are) kept in the outbox ${w.outbox.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, and the next run puts (it|them) in the store before it buys anything`,
        ),
      );
      // Every charge is a row in the output, and in the store or the outbox, once.
      expect(okRows(out)).toEqual(ledger.handles());
      expect([...inStore, ...inOutbox].sort()).toEqual(ledger.handles());
      // The spend log counts what waits in the outbox as spent by this CLI, named, never blamed on the service.
      const spend = await spawnCli(['spend', '--json'], w.env);
      expect(spend.code, spend.stderr).toBe(0);
      const total = (JSON.parse(spend.stdout) as { logged_all_time: number; difference: number }[]).at(-1);
      const paidMilli = ledger.charges().reduce((sum, c) => sum + c.milli, 0);
      expect(Math.round((total?.logged_all_time ?? 0) * 1000)).toBe(paidMilli);
      expect(Math.round((total?.difference ?? -1) * 1000)).toBe(sb.get().state.ledger.usedMilli - paidMilli);
      expect(spend.stderr).toMatch(
        new RegExp(`${inOutbox.length} charges? of this log \\([\\d.]+ credits?: instagram:`),
      );
      expect(spend.stderr).toContain(`in the outbox ${w.outbox}, not yet in the store; the next run that buys puts`);
      expect(spend.stderr).not.toContain('by the service itself');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const paid = ledger.handles();
    // A dry run changes nothing (the outbox stays) and plans as the real run will find the store: the
    // outbox's answers are not priced.
    const before = readFileSync(w.outbox, 'utf8');
    const plan = await spawnCli([...enrichArgs(input, out), '--dry-run', '--json'], w.env);
    expect(plan.code, plan.stderr).toBe(0);
    const perRow = ledger.charges()[0]?.milli as number;
    expect(JSON.parse(plan.stdout)).toMatchObject({
      worst_case_credits: ((handles.length - paid.length) * perRow) / 1000,
    });
    expect(readFileSync(w.outbox, 'utf8')).toBe(before);
    const again = await spawnCli(enrichArgs(input, out), w.env, undefined, 60_000);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`an earlier run could not keep in the store`);
    // Each creator paid once over both runs; the outbox is gone, the store holds all, each charge logged once.
    expect(ledger.handles()).toEqual([...handles].sort());
    expect(ledger.charges().length - paid.length).toBe(handles.length - paid.length);
    expect(outboxSubjects(w.outbox)).toEqual([]);
    const after = await held(w.store);
    expect(after.answers).toHaveLength(40);
    expect(after.spend).toHaveLength(40);
  }, 90_000);

  it('two processes drain one outbox at once: each charge logged once; kill -9 in the middle of a drain loses nothing', async () => {
    const w = world({ CREATORS_STORE_BUSY_TIMEOUT: '1' });
    const handles = creatorHandles(sb.get(), 30, 200);
    const input = join(w.dir, 'in.csv');
    writeInput(input, handles);
    latency('enrich=300ms');
    const ledger = ledgerFrom();
    // An outbox made as a user's run makes it: a store locked in the middle of a bulk run.
    const run = start(enrichArgs(input, join(w.dir, 'first.csv'), '--concurrency', '4'), w.env);
    await until('a few charges', () => ledger.charges().length >= 4);
    let holder = await sqlite(w.store);
    holder.exec('BEGIN EXCLUSIVE');
    expect((await run.done).code).toBe(9);
    const parked = outboxSubjects(w.outbox);
    expect(parked.length).toBeGreaterThan(0);

    // A drain stopped by kill -9 while it waits for the store (its copy of the outbox taken, not loaded).
    const stuck = start(
      ['enrich', 'handle', handles[0] as string, '--platform', 'instagram', '--mode', 'raw', '--json'],
      { ...w.env, CREATORS_STORE_BUSY_TIMEOUT: '30' },
    );
    await until('the drain to begin', () => readdirSync(join(w.config, 'store')).some((n) => n.includes('.draining-')));
    stuck.kill('SIGKILL');
    await stuck.done;
    expect(existsSync(w.outbox)).toBe(false);
    expect(outboxSubjects(w.outbox)).toEqual(parked);
    holder.exec('ROLLBACK');
    holder.close();

    // Two runs at once, both drain (what the killed one left, and each other's copy), both buy the rest.
    latency('enrich=50ms');
    const paid = ledger.charges().length;
    const [a, b] = await Promise.all([
      start(enrichArgs(input, join(w.dir, 'a.csv')), { ...w.env, CREATORS_STORE_BUSY_TIMEOUT: '10' }).done,
      start(enrichArgs(input, join(w.dir, 'b.csv')), { ...w.env, CREATORS_STORE_BUSY_TIMEOUT: '10' }).done,
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(ledger.handles()).toEqual([...handles].sort());
    expect(ledger.charges().length - paid).toBe(handles.length - paid);
    expect(readdirSync(join(w.config, 'store')).filter((n) => n.includes('outbox'))).toEqual([]);
    const after = await held(w.store);
    expect(after.answers.map((x) => x.subject).sort()).toEqual([...handles].sort());
    expect(after.spend).toHaveLength(handles.length);
    expect(new Set(after.spend.map((e) => e.origin)).size).toBe(handles.length);
    holder = await sqlite(w.store);
    holder.close();
  }, 120_000);
});

const noTmpfs = tinyDiskUnavailable();
describe.skipIf(noTmpfs !== undefined)(`a full disk under the store${noTmpfs ? ` (skipped: ${noTmpfs})` : ''}`, () => {
  it("ledger = rows in the output = store + outbox (the outbox on the profile's own disk); with space freed the re-run pays nothing again", async () => {
    const disk = mountTinyDisk(8192);
    try {
      const ballast = join(disk.dir, 'ballast');
      const { bavail, bsize } = statfsSync(disk.dir);
      writeFileSync(ballast, Buffer.alloc(Math.max(0, bavail * bsize - 640 * 1024)));
      const w = world({ CREATORS_STORE: join(disk.dir, 'store.db') });
      const handles = creatorHandles(sb.get(), 60, 300);
      const input = join(w.dir, 'in.csv');
      const out = join(w.dir, 'out.csv');
      writeInput(input, handles);
      const args = enrichArgs(input, out, '--mode', 'full', '--concurrency', '4');
      const ledger = ledgerFrom();
      const r = await spawnCli(args, w.env, undefined, 60_000);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('the disk is full');
      const inStore = (await held(w.store)).answers.map((a) => a.subject as string);
      const inOutbox = outboxSubjects(w.outbox);
      expect(inOutbox.length, r.stderr).toBeGreaterThan(0);
      expect(okRows(out)).toEqual(ledger.handles());
      expect([...inStore, ...inOutbox].sort()).toEqual(ledger.handles());
      rmSync(ballast);
      const paid = ledger.charges().length;
      const again = await spawnCli(args, w.env, undefined, 60_000);
      expect(again.code, again.stderr).toBe(0);
      expect(ledger.handles()).toEqual([...handles].sort());
      expect(ledger.charges().length - paid).toBe(handles.length - paid);
      expect(outboxSubjects(w.outbox)).toEqual([]);
    } finally {
      disk.unmount();
    }
  }, 120_000);
});

describe('a process stopped longer than --timeout', () => {
  it('SIGSTOP past --timeout, then SIGCONT: the answers that arrived meanwhile are kept; ledger = rows in the output = rows in the store', async () => {
    const w = world();
    const handles = creatorHandles(sb.get(), 24, 400);
    const input = join(w.dir, 'in.csv');
    const out = join(w.dir, 'out.csv');
    writeInput(input, handles);
    latency('enrich=400ms');
    const ledger = ledgerFrom();
    const run = start(enrichArgs(input, out, '--concurrency', '4', '--timeout', '2'), w.env);
    await until('a few charges', () => ledger.charges().length >= 4);
    run.kill('SIGSTOP');
    // Longer than --timeout: the sandbox answers the requests in flight while the process sleeps.
    await new Promise((r) => setTimeout(r, 3500));
    run.kill('SIGCONT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/timed out/i);
    expect(okRows(out)).toEqual([...handles].sort());
    expect(ledger.handles()).toEqual([...handles].sort());
    expect((await held(w.store)).answers.map((a) => a.subject).sort()).toEqual([...handles].sort());
  }, 60_000);
});

describe.skipIf(!PG_URL)(
  `a team store whose role loses INSERT on answers mid-run${PG_URL ? '' : ` (${PG_SKIP})`}`,
  () => {
    it('charged answers land in the outbox (exit non-zero, said where); after GRANT the re-run pays nothing again and the team store holds each once', async () => {
      const { default: pg } = (await import('pg')) as unknown as {
        default: {
          Client: new (c: {
            connectionString: string;
          }) => {
            connect(): Promise<void>;
            query(q: string): Promise<{ rows: Record<string, unknown>[] }>;
            end(): Promise<void>;
          };
        };
      };
      const url = await freshPgDatabase();
      const role = `creators_w_${Math.random().toString(36).slice(2, 8)}`;
      const sql = async (q: string, on = url): Promise<{ rows: Record<string, unknown>[] }> => {
        const c = new pg.Client({ connectionString: on });
        await c.connect();
        try {
          return await c.query(q);
        } finally {
          await c.end();
        }
      };
      const w0 = world({ CREATORS_STORE: url });
      expect((await spawnCli(['store', 'migrate'], w0.env)).code).toBe(0);
      await sql(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
      try {
        await sql(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
        await sql(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
        const w = world({ CREATORS_STORE: withCredentials(url, role, 'pw') });
        const handles = creatorHandles(sb.get(), 30, 500);
        const input = join(w.dir, 'in.csv');
        const out = join(w.dir, 'out.csv');
        writeInput(input, handles);
        latency('enrich=300ms');
        const ledger = ledgerFrom();
        const run = start(enrichArgs(input, out, '--concurrency', '4'), w.env);
        await until('a few charges', () => ledger.charges().length >= 6);
        await sql(`REVOKE INSERT ON answers FROM ${role}`);
        const r = await run.done;
        expect(r.code, r.stderr).not.toBe(0);
        expect(r.stderr).toMatch(/permission denied/i);
        const inStore = (await sql('SELECT subject FROM answers')).rows.map((x) => String(x.subject));
        const inOutbox = outboxSubjects(w.outbox);
        expect(inOutbox.length, r.stderr).toBeGreaterThan(0);
        expect(r.stderr).toContain(`kept in the outbox ${w.outbox}`);
        expect(okRows(out)).toEqual(ledger.handles());
        expect([...inStore, ...inOutbox].sort()).toEqual(ledger.handles());

        await sql(`GRANT INSERT ON answers TO ${role}`);
        const paid = ledger.charges().length;
        const again = await spawnCli(enrichArgs(input, out), w.env, undefined, 60_000);
        expect(again.code, again.stderr).toBe(0);
        expect(ledger.handles()).toEqual([...handles].sort());
        expect(ledger.charges().length - paid).toBe(handles.length - paid);
        expect(outboxSubjects(w.outbox)).toEqual([]);
        expect(Number((await sql('SELECT COUNT(*) AS n FROM answers')).rows[0]?.n)).toBe(handles.length);
        expect(Number((await sql('SELECT COUNT(*) AS n FROM spend')).rows[0]?.n)).toBe(handles.length);
      } finally {
        await sql(`DROP OWNED BY ${role}`).catch(() => undefined);
        await sql(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`, PG_URL).catch(
          () => undefined,
        );
        await sql(`DROP ROLE IF EXISTS ${role}`, PG_URL).catch(() => undefined);
      }
    }, 120_000);
  },
);
