/**
 * `creators store doctor` end to end, on both engines (a store file; a team store on a real PostgreSQL,
 * skipped without one): what a run killed with `kill -9` in flight left in the store (its reservation of a
 * daily budget, its claims) shown as dead and changed by nothing in a dry run, cleared by the real run; stuck
 * rows of other machines (a claim silent for 10 minutes, a pace a day ahead) shown and cleared; a live
 * holder never shown as stuck, and cleared only with --all (another machine's reservation that refuses a run
 * until then). The built CLI in separate processes, the sandbox's ledger as the judge. Run `npm run build` first.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { holderOf } from '../../src/lib/store/core.js';
import { displayWidth } from '../../src/lib/io/width.js';
import { parseLatencySpec, setLatency } from '../../src/sandbox/latency.js';
import { freshPgDatabase, PG_SKIP, PG_URL } from '../helpers/pg.js';
import { runCli } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { start } from '../helpers/fault-run.js';
import { tempDir } from '../helpers/temp.js';

const sb = useSandbox({ seed: 35, credits: 100_000, rateLimit: 100_000, dailyDiscoveryLimit: 100_000 });

afterEach(() => {
  setLatency(sb.get().state, {});
});

/** SQL on the store as another program (the test) sees it: `?` placeholders on both engines. */
interface Sql {
  all(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

async function sqliteSql(file: string): Promise<Sql> {
  const { default: Database } = (await import('libsql')) as unknown as {
    default: new (
      f: string,
    ) => {
      prepare(sql: string): { all(...p: unknown[]): Record<string, unknown>[]; run(...p: unknown[]): unknown };
      close(): void;
    };
  };
  let db: InstanceType<typeof Database> | undefined;
  // Opened at first use: the store file is made by the CLI's first run.
  const conn = () => (db ??= new Database(file));
  return {
    all: async (sql, params = []) =>
      conn()
        .prepare(sql)
        .all(...params),
    run: async (sql, params = []) => {
      conn()
        .prepare(sql)
        .run(...params);
    },
    close: async () => db?.close(),
  };
}

async function pgSql(url: string): Promise<Sql> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: {
      Client: new (c: {
        connectionString: string;
      }) => {
        connect(): Promise<void>;
        query(sql: string, p?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
        end(): Promise<void>;
      };
    };
  };
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    all: async (sql, params = []) => (await c.query(numbered(sql), params)).rows,
    run: async (sql, params = []) => {
      await c.query(numbered(sql), params);
    },
    close: () => c.end(),
  };
}

const opened: Sql[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) await s.close();
});

interface World {
  dir: string;
  env: Record<string, string>;
  /** The store as another program sees it. */
  sql: Sql;
  /** Where the store is, as `store doctor` names it. */
  location: string;
}

const ENGINES: { name: string; skip: string | undefined; world(): Promise<World> }[] = [
  {
    name: 'sqlite',
    skip: undefined,
    world: async () => {
      const dir = tempDir('creators-doctor-');
      const config = join(dir, 'config');
      const file = join(config, 'store', 'default.db');
      const sql = await sqliteSql(file);
      opened.push(sql);
      return {
        dir,
        env: { ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: config, CREATORS_RATE_LIMIT: '100000' },
        sql,
        location: file,
      };
    },
  },
  {
    name: 'postgres',
    skip: PG_URL ? undefined : PG_SKIP,
    world: async () => {
      const dir = tempDir('creators-doctor-');
      const url = await freshPgDatabase();
      const env = {
        ...sandboxEnv(sb.get()),
        CREATORS_CONFIG_DIR: join(dir, 'config'),
        CREATORS_RATE_LIMIT: '100000',
        CREATORS_STORE: url,
      };
      const migrated = await spawnCli(['store', 'migrate'], env);
      expect(migrated.code, migrated.stderr).toBe(0);
      const sql = await pgSql(url);
      opened.push(sql);
      return { dir, env, sql, location: new URL(url).host };
    },
  },
];

/** Polls an asynchronous `check` (a query on the store) until it holds, or throws naming `what`. */
async function waitFor(what: string, check: () => Promise<boolean>, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** One `store doctor --json` entry, as a script reads it. */
interface Entry {
  kind: 'claim' | 'reservation' | 'pace';
  id: string;
  state: 'live' | 'dead' | 'silent' | 'ahead';
  why: string;
  action: 'cleared' | 'would clear' | 'kept';
  holder_pid: number | null;
  holder_host: string | null;
  holder_this_host: boolean | null;
  holder_run: string | null;
  seen_at: string | null;
  seen_seconds_ago: number | null;
  ahead_seconds: number;
  reserved_credits: number | null;
  profile: string | null;
  at: string;
}

async function doctor(
  env: Record<string, string>,
  ...flags: string[]
): Promise<{ entries: Entry[]; stderr: string; code: number | null }> {
  const r = await spawnCli(['store', 'doctor', '--json', ...flags], env);
  expect(r.code, r.stderr).toBe(0);
  return { entries: JSON.parse(r.stdout) as Entry[], stderr: r.stderr, code: r.code };
}

function inputOf(w: World, name: string, handles: readonly string[]): string {
  const file = join(w.dir, name);
  writeFileSync(file, `handle\n${handles.join('\n')}\n`);
  return file;
}

const enrich = (input: string, out: string) => [
  'enrich',
  'handle',
  '--platform',
  'instagram',
  '--mode',
  'raw',
  '--input',
  input,
  '-o',
  out,
];

async function count(sql: Sql, table: string): Promise<number> {
  return Number((await sql.all(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n);
}

/** A time the store's own clock would write now: ms on both engines. */
const SILENT_10_MIN = () => Date.now() - 10 * 60_000;
const DAY = 86_400_000;

for (const engine of ENGINES) {
  describe.skipIf(engine.skip !== undefined)(
    `store doctor on ${engine.name}${engine.skip ? ` (${engine.skip})` : ''}`,
    () => {
      it('a bulk run killed with kill -9 in flight: --dry-run shows its reservation and claims as dead and changes nothing; doctor clears them; the next budgeted run passes', async () => {
        const w = await engine.world();
        expect((await spawnCli(['config', 'set', 'daily-budget', '0.5'], w.env)).code).toBe(0);
        const handles = creatorHandles(sb.get(), 20, 40);
        setLatency(sb.get().state, parseLatencySpec('enrich=1500ms'));
        // 10 raw rows: 0.3 credits worst case, reserved in the store until the run ends.
        const run = start(enrich(inputOf(w, 'a.csv', handles.slice(0, 10)), join(w.dir, 'a.csv.out')), w.env);
        let exited = false;
        void run.done.then(() => (exited = true));
        const held = async () => {
          try {
            return (await count(w.sql, 'runs')) > 0 && (await count(w.sql, 'claims')) > 0;
          } catch {
            return false; // no store or no tables yet
          }
        };
        await waitFor('the run to reserve and claim', async () => (await held()) || exited, 20_000);
        run.kill('SIGKILL');
        const killed = await run.done;
        expect(killed.signal, killed.stderr).toBe('SIGKILL');

        const runs = await w.sql.all('SELECT run, pid, reserved_milli FROM runs');
        expect(runs).toHaveLength(1);
        expect(Number(runs[0]?.pid)).toBe(run.pid);
        const claimsBefore = await w.sql.all('SELECT key, run FROM claims ORDER BY key');
        expect(claimsBefore.length).toBeGreaterThan(0);

        const dry = await doctor(w.env, '--dry-run');
        const reservation = dry.entries.find((e) => e.kind === 'reservation');
        expect(reservation).toMatchObject({
          id: String(runs[0]?.run),
          state: 'dead',
          action: 'would clear',
          holder_pid: run.pid,
          holder_host: hostname(),
          holder_this_host: true,
          reserved_credits: 0.3,
          profile: 'default',
          why: `its process (pid ${run.pid} on this host) is gone`,
        });
        const claims = dry.entries.filter((e) => e.kind === 'claim');
        expect(claims.map((e) => e.id).sort()).toEqual(claimsBefore.map((c) => String(c.key)).sort());
        expect(claims.every((e) => e.state === 'dead' && e.action === 'would clear' && e.holder_pid === run.pid)).toBe(
          true,
        );
        expect(dry.stderr).toContain(
          `Would clear reservation ${String(runs[0]?.run).slice(0, 12)} (0.3 credits reserved): dead: its process (pid ${run.pid} on this host) is gone.`,
        );
        expect(dry.stderr).toMatch(
          new RegExp(
            `Dry run: nothing was changed; ${claims.length + 1} entries would be cleared from .*${w.location.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
          ),
        );
        // Nothing changed.
        expect(await w.sql.all('SELECT run, pid, reserved_milli FROM runs')).toEqual(runs);
        expect(await w.sql.all('SELECT key, run FROM claims ORDER BY key')).toEqual(claimsBefore);

        const fixed = await doctor(w.env);
        expect(fixed.entries.filter((e) => e.kind !== 'pace').every((e) => e.action === 'cleared')).toBe(true);
        expect(fixed.stderr).toContain(`Cleared ${claims.length + 1} entries from `);
        expect(await count(w.sql, 'runs')).toBe(0);
        expect(await count(w.sql, 'claims')).toBe(0);
        // Nothing stuck is left: run again, it clears nothing.
        const again = await doctor(w.env);
        expect(again.entries.filter((e) => e.kind !== 'pace')).toEqual([]);
        expect(again.stderr).toMatch(/Nothing is (stuck|claimed, reserved or paced) in /);

        // 0.3 more fits the 0.5 budget beside what the killed run spent, now that its 0.3 is not held.
        setLatency(sb.get().state, {});
        const next = await spawnCli(
          enrich(inputOf(w, 'b.csv', handles.slice(10, 20)), join(w.dir, 'b.csv.out')),
          w.env,
        );
        expect(next.code, next.stderr).toBe(0);
        expect(await count(w.sql, 'runs')).toBe(0);
      }, 60_000);

      it('stuck rows of other machines: a claim silent for 10 minutes, a reservation silent too, a pace a day ahead; shown in words, left by --dry-run, cleared by doctor', async () => {
        const w = await engine.world();
        // A first purchase makes the store (and this account's live pace).
        const first = await spawnCli(
          [
            'enrich',
            'handle',
            creatorHandles(sb.get(), 1, 70)[0] as string,
            '--platform',
            'instagram',
            '--mode',
            'raw',
            '--json',
          ],
          w.env,
        );
        expect(first.code, first.stderr).toBe(0);
        const seen = SILENT_10_MIN();
        const key = 'c0ffee'.repeat(10) + 'beef';
        await w.sql.run(
          'INSERT INTO claims (key, run, pid, host, boot, start, claimed_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [key, 'far-run-claim', 4242, 'build-7', 'b', '1', seen, seen],
        );
        await w.sql.run(
          'INSERT INTO runs (run, profile, pid, host, boot, start, started_at, seen_at, reserved_milli) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          ['far-run-budget', 'default', 4243, 'build-7', 'b', '1', seen, seen, 2500],
        );
        await w.sql.run('INSERT INTO pace (account, tat) VALUES (?, ?)', [
          'https://api.example/ skewed',
          Date.now() + DAY,
        ]);
        const paceBefore = await w.sql.all('SELECT account, tat FROM pace ORDER BY account');

        const dry = await doctor(w.env, '--dry-run');
        const by = (kind: string, id: string) => dry.entries.find((e) => e.kind === kind && e.id === id);
        expect(by('claim', key)).toMatchObject({
          state: 'silent',
          action: 'would clear',
          holder_pid: 4242,
          holder_host: 'build-7',
          holder_this_host: false,
          reserved_credits: null,
        });
        expect(by('claim', key)?.seen_seconds_ago).toBeGreaterThanOrEqual(598);
        expect(by('claim', key)?.why).toMatch(/^not heard from for 10 min \(pid 4242 on build-7, another host\)$/);
        expect(by('reservation', 'far-run-budget')).toMatchObject({
          state: 'silent',
          action: 'would clear',
          reserved_credits: 2.5,
          holder_run: 'far-run-budget',
        });
        const skewed = by('pace', 'https://api.example/ skewed');
        expect(skewed).toMatchObject({ state: 'ahead', action: 'would clear', holder_pid: null });
        expect(skewed?.ahead_seconds).toBeGreaterThan(DAY / 1000 - 120);
        expect(skewed?.why).toBe('its next slot is 24 h ahead of the clock (a machine with a wrong clock wrote it)');
        const own = dry.entries.find((e) => e.kind === 'pace' && e.id.endsWith(' default'));
        expect(own).toMatchObject({ state: 'live', action: 'kept' });
        expect(dry.stderr).toContain(
          `Would clear claim ${key.slice(0, 12)}: silent: not heard from for 10 min (pid 4242 on build-7, another host).`,
        );
        expect(dry.stderr).toContain(
          'Would clear pace api.example skewed: ahead: its next slot is 24 h ahead of the clock (a machine with a wrong clock wrote it).',
        );
        expect(dry.stderr).toContain('Dry run: nothing was changed; 3 entries would be cleared from ');
        expect(await count(w.sql, 'claims')).toBe(1);
        expect(await count(w.sql, 'runs')).toBe(1);
        expect(await w.sql.all('SELECT account, tat FROM pace ORDER BY account')).toEqual(paceBefore);

        const fixed = await doctor(w.env);
        expect(
          fixed.entries
            .filter((e) => e.action === 'cleared')
            .map((e) => `${e.kind}:${e.id}`)
            .sort(),
        ).toEqual([`claim:${key}`, 'pace:https://api.example/ skewed', 'reservation:far-run-budget']);
        expect(fixed.stderr).toContain('Cleared 3 entries from ');
        expect(await count(w.sql, 'claims')).toBe(0);
        expect(await count(w.sql, 'runs')).toBe(0);
        const tat = Number(
          (await w.sql.all('SELECT tat FROM pace WHERE account = ?', ['https://api.example/ skewed']))[0]?.tat,
        );
        expect(Math.abs(tat - Date.now())).toBeLessThan(60_000);
        expect((await doctor(w.env)).entries.every((e) => e.state === 'live' && e.action === 'kept')).toBe(true);
      }, 60_000);

      it("a live holder is never stuck: a run in flight keeps its claim and reservation through doctor; another machine's live reservation refuses a run until --all (asking first) clears it", async () => {
        const w = await engine.world();
        expect((await spawnCli(['config', 'set', 'daily-budget', '0.5'], w.env)).code).toBe(0);
        const handles = creatorHandles(sb.get(), 8, 90);
        setLatency(sb.get().state, parseLatencySpec('enrich=8000ms'));
        // Both rows in flight at once, so the claims stay put while doctor looks.
        const run = start(
          [...enrich(inputOf(w, 'live.csv', handles.slice(0, 2)), join(w.dir, 'live.out.csv')), '--concurrency', '2'],
          w.env,
        );
        await waitFor(
          'the run to claim both rows',
          async () => {
            try {
              return (await count(w.sql, 'claims')) === 2;
            } catch {
              return false;
            }
          },
          20_000,
        );
        const before = await w.sql.all('SELECT key, run FROM claims ORDER BY key');
        const shown = await doctor(w.env);
        const held = shown.entries.filter((e) => e.kind !== 'pace');
        expect(held.map((e) => e.kind).sort()).toEqual(['claim', 'claim', 'reservation']);
        expect(held.every((e) => e.state === 'live' && e.action === 'kept' && e.holder_pid === run.pid)).toBe(true);
        expect(held.find((e) => e.kind === 'claim')?.why).toBe(`its process (pid ${run.pid} on this host) is running`);
        expect(shown.stderr).toMatch(
          /Nothing is stuck in .*; 3 live holders left alone \(--all clears them too, asking first\)\./,
        );
        expect(await w.sql.all('SELECT key, run FROM claims ORDER BY key')).toEqual(before);
        // --all asks first: without a terminal or --yes, exit 2 and nothing cleared.
        const unasked = await spawnCli(['store', 'doctor', '--all'], w.env);
        expect(unasked.code).toBe(2);
        expect(unasked.stderr).toMatch(/Confirmation needed: Clear 3 live entries too \(claim of pid \d+ on this host/);
        expect(await w.sql.all('SELECT key, run FROM claims ORDER BY key')).toEqual(before);
        const done = await run.done;
        expect(done.code, done.stderr).toBe(0);
        setLatency(sb.get().state, {});

        // Another machine's run that beats (seen now) and holds 0.45 of the 0.5 budget: live, so doctor keeps it and the budget refuses.
        const beat = () => w.sql.run('UPDATE runs SET seen_at = ? WHERE run = ?', [Date.now(), 'far-live']);
        await w.sql.run(
          'INSERT INTO runs (run, profile, pid, host, boot, start, started_at, seen_at, reserved_milli) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          ['far-live', 'default', 77, 'build-9', 'b', '1', Date.now(), Date.now(), 450],
        );
        const input = inputOf(w, 'more.csv', handles.slice(2, 8));
        const refused = await spawnCli(enrich(input, join(w.dir, 'more.out.csv')), w.env);
        expect(refused.code, refused.stderr).toBe(5);
        expect(refused.stderr).toMatch(/reserved by runs in progress \(creators store doctor shows them\)/);
        await beat();
        const kept = await doctor(w.env);
        expect(kept.entries.find((e) => e.id === 'far-live')).toMatchObject({
          state: 'live',
          action: 'kept',
          holder_host: 'build-9',
          holder_this_host: false,
        });
        expect(kept.entries.find((e) => e.id === 'far-live')?.why).toMatch(
          /^heard from \d+ s ago \(pid 77 on build-9\)$/,
        );
        expect(await count(w.sql, 'runs')).toBe(1);
        await beat();
        const all = await doctor(w.env, '--all', '--yes');
        expect(all.entries.find((e) => e.id === 'far-live')).toMatchObject({ state: 'live', action: 'cleared' });
        expect(await count(w.sql, 'runs')).toBe(0);
        const passed = await spawnCli(enrich(input, join(w.dir, 'more.out.csv')), w.env);
        expect(passed.code, passed.stderr).toBe(0);
      }, 60_000);
    },
  );
}

describe('store doctor in one process', () => {
  it("never clears this process's own claim, even with --all --yes; on an 80-column terminal the table fits, ids and holders whole, the why said in full below it", async () => {
    const dir = tempDir('creators-doctor-');
    const configDir = join(dir, 'config');
    const env = { ...sandboxEnv(sb.get()), CREATORS_RATE_LIMIT: '100000' };
    const now = () => Date.now();
    const bought = await runCli(
      [
        'enrich',
        'handle',
        creatorHandles(sb.get(), 1, 120)[0] as string,
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--json',
      ],
      { env, configDir, now },
    );
    expect(bought.code, bought.stderr).toBe(0);
    const file = join(configDir, 'store', 'default.db');
    expect(existsSync(file)).toBe(true);
    const sql = await sqliteSql(file);
    opened.push(sql);
    const me = holderOf('this-process-run');
    await sql.run(
      'INSERT INTO claims (key, run, pid, host, boot, start, claimed_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ['ab'.repeat(32), me.run, me.pid, me.host, me.boot ?? null, me.start ?? null, Date.now(), Date.now() - 3_600_000],
    );
    await sql.run(
      'INSERT INTO claims (key, run, pid, host, boot, start, claimed_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ['cd'.repeat(32), 'far', 4242, 'build-7', 'b', '1', SILENT_10_MIN(), SILENT_10_MIN()],
    );

    const r = await runCli(['store', 'doctor', '--all', '--yes'], { env, configDir, now, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    expect(r.stdout).not.toContain('…');
    const row = (id: string) => lines.find((l) => l.includes(id)) ?? '';
    expect(row('abababababab')).toMatch(/│ claim +│ abababababab +│ pid \d+ on this host +│ live +│/);
    expect(row('cdcdcdcdcdcd')).toMatch(/│ claim +│ cdcdcdcdcdcd +│ pid 4242 on build-7 +│ silent +│/);
    // Notices wrap at the terminal's width, at spaces: read as one text.
    const said = r.stderr.replace(/\n(?=\S)/g, ' ');
    expect(said).toContain(
      'Cleared claim cdcdcdcdcdcd: silent: not heard from for 10 min (pid 4242 on build-7, another host).',
    );
    expect(said).toContain('Cleared 1 entry from ');
    // This process's own claim stays (it held for an hour without beating: on this host the process is what counts).
    expect((await sql.all('SELECT key FROM claims')).map((c) => c.key)).toEqual(['ab'.repeat(32)]);
  });

  it('--all on a terminal asks before clearing a live holder of another machine: no clears nothing, yes clears it', async () => {
    const configDir = join(tempDir('creators-doctor-'), 'config');
    const env = { ...sandboxEnv(sb.get()), CREATORS_RATE_LIMIT: '100000' };
    const now = () => Date.now();
    const bought = await runCli(
      [
        'enrich',
        'handle',
        creatorHandles(sb.get(), 1, 130)[0] as string,
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--json',
      ],
      { env, configDir, now },
    );
    expect(bought.code, bought.stderr).toBe(0);
    const sql = await sqliteSql(join(configDir, 'store', 'default.db'));
    opened.push(sql);
    await sql.run(
      'INSERT INTO claims (key, run, pid, host, boot, start, claimed_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ['ef'.repeat(32), 'far', 77, 'build-9', 'b', '1', Date.now(), Date.now()],
    );
    const no = await runCli(['store', 'doctor', '--all'], {
      env,
      configDir,
      now,
      tty: true,
      stdin: 'n\n',
      stdinTTY: true,
    });
    expect(no.code, no.stderr).toBe(0);
    expect(no.stderr).toContain(
      'Clear 1 live entry too (claim of pid 77 on build-9)? Its run may then buy a record twice or pass a budget. [y/N]',
    );
    expect(no.stderr).toContain('Nothing was cleared.');
    expect(await count(sql, 'claims')).toBe(1);
    const yes = await runCli(['store', 'doctor', '--all'], {
      env,
      configDir,
      now,
      tty: true,
      stdin: 'y\n',
      stdinTTY: true,
    });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toMatch(/Cleared claim efefefefefef: live: heard from \d+ s ago \(pid 77 on build-9\)\./);
    expect(await count(sql, 'claims')).toBe(0);
  });

  it('no store yet: a notice, exit 0, nothing created', async () => {
    const configDir = join(tempDir('creators-doctor-'), 'config');
    for (const flags of [[], ['--dry-run'], ['--json']]) {
      const r = await runCli(['store', 'doctor', ...flags], { env: sandboxEnv(sb.get()), configDir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `No store yet at ${join(configDir, 'store', 'default.db')}: nothing is claimed, reserved or paced.\n`,
      );
    }
    expect(existsSync(join(configDir, 'store', 'default.db'))).toBe(false);
  });
});
