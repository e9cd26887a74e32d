/**
 * One clock and one liveness rule for what runs share (README "Never pay twice"): the built CLI in its own
 * processes, each test with a sandbox of its own (the tests run at once; their latencies differ), a shared
 * store, the sandbox's ledger as the judge.
 *
 * - A run whose clock is a day ahead (Debian's `faketime -f +1d`) on a shared SQLite file and on a team store:
 *   the next run on a right clock neither sleeps on the pace it left nor pays again for what it bought.
 * - A run on another host (`unshare --uts`, its own hostname) killed with -9 while it holds a daily-budget
 *   reservation: its reservation counts while it may be alive (refused, exit 5), and not once it has been
 *   silent SILENT_MS (30 s), instead of hours.
 * - A run stopped (SIGSTOP) while it holds a claim on this host: a second run buying the same creator waits,
 *   says what it waits for, and gives up with exit 9 without buying; continued, the first keeps its answer.
 * Run `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { parseLatencySpec, setLatency } from '../../src/sandbox/latency.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { SILENT_MS } from '../../src/lib/store/core.js';
import { enrichArgs, pgSql, sleep, start, until, writeInput } from '../helpers/fault-run.js';
import { freshPgDatabase, PG_SKIP, PG_URL } from '../helpers/pg.js';
import { creatorHandles, sandboxEnv, type StartedSandbox } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

type Sandbox = StartedSandbox;

const noFaketime =
  spawnSync('faketime', ['-f', '+1d', 'true']).status === 0
    ? undefined
    : 'skipped: faketime is not installed (apt-get install faketime)';
const noUnshare =
  process.getuid?.() !== 0
    ? 'skipped: needs root to give a child its own hostname (unshare --uts)'
    : spawnSync('unshare', ['-u', 'true']).status === 0
      ? undefined
      : 'skipped: unshare --uts is missing or not allowed here';

async function sandbox(): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    seed: 3536,
    credits: 1_000_000,
    rateLimit: 1_000_000,
    dailyDiscoveryLimit: 1_000_000,
  });
}

/** Charges for these handles (the sandbox notes `raw instagram:<handle>`), counted from now on. */
function charges(sb: Sandbox, handles: readonly string[]) {
  const from = sb.state.ledger.charges.length;
  const mine = new Set(handles);
  return () =>
    sb.state.ledger.charges
      .slice(from)
      .map((c) => /^\w+ instagram:(.+)$/.exec(c.note)?.[1] ?? c.note)
      .filter((h) => mine.has(h))
      .sort();
}

/** How far ahead of now the SQLite store's furthest pace is (read from a copy). */
async function paceAhead(file: string): Promise<number> {
  const copy = join(tempDir('creators-clock-copy-'), 'store.db');
  for (const suffix of ['', '-wal']) if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
  const { default: Database } = (await import('libsql')) as unknown as {
    default: new (f: string) => { prepare(s: string): { get(): { tat: number } }; close(): void };
  };
  const db = new Database(copy);
  try {
    return Number(db.prepare('SELECT MAX(tat) AS tat FROM pace').get().tat) - Date.now();
  } finally {
    db.close();
  }
}

/** A machine: a config folder of its own, the shared store. */
function machine(sb: Sandbox, store: string, extra: Record<string, string> = {}) {
  const dir = tempDir('creators-holders-');
  const env = {
    ...sandboxEnv(sb),
    CREATORS_CONFIG_DIR: join(dir, 'config'),
    CREATORS_RATE_LIMIT: '100000',
    CREATORS_STORE: store,
    ...extra,
  };
  let n = 0;
  const input = (handles: readonly string[]): string => {
    const file = join(dir, `in-${++n}.csv`);
    writeInput(file, handles);
    return file;
  };
  return { dir, env, input, out: (): string => join(dir, `out-${++n}.csv`) };
}

describe.concurrent('one clock and one liveness rule for what runs share', () => {
  for (const engine of ['sqlite', 'postgres'] as const) {
    const skip = noFaketime ?? (engine === 'postgres' && !PG_URL ? PG_SKIP : undefined);
    it.skipIf(skip !== undefined)(
      `a run a day ahead (faketime +1d) on a shared ${engine === 'sqlite' ? 'SQLite file' : 'team store'}: the next run on a right clock does not sleep on its pace and pays 0 for what it bought${skip ? ` (${skip})` : ''}`,
      async ({ expect }) => {
        const sb = await sandbox();
        try {
          const store = engine === 'sqlite' ? join(tempDir('creators-clock-'), 'shared.db') : await freshPgDatabase();
          const ahead = machine(sb, store);
          const right = machine(sb, store);
          if (engine === 'postgres') expect((await spawnCli(['store', 'migrate'], right.env)).code).toBe(0);
          const handles = creatorHandles(sb, 12, 0);
          const first = handles.slice(0, 8);
          const paid = charges(sb, handles);
          const a = start(enrichArgs(ahead.input(first), ahead.out(), '--concurrency', '4'), ahead.env, {
            wrap: ['faketime', '-f', '+1d'],
          });
          const ra = await a.done;
          expect(ra.code, ra.stderr).toBe(0);
          expect(paid()).toEqual([...first].sort());
          // The fault is there: the shared pace a day ahead where the store takes the run's clock (SQLite).
          if (engine === 'sqlite') expect(await paceAhead(store)).toBeGreaterThan(20 * 3600_000);
          // The right clock's run: what the first bought and 4 more, which it buys (so it takes the pace).
          const t0 = Date.now();
          const rb = await spawnCli(
            enrichArgs(right.input(handles), right.out(), '--concurrency', '4'),
            right.env,
            undefined,
            60_000,
          );
          const ms = Date.now() - t0;
          expect(rb.code, rb.stderr).toBe(0);
          expect(ms, rb.stderr).toBeLessThan(30_000);
          expect(rb.stderr).not.toMatch(/Waiting \d+ s for the account's rate/);
          expect(paid()).toEqual([...handles].sort());
        } finally {
          await sb.close();
        }
      },
      90_000,
    );
  }

  const skipC = noFaketime ?? (!PG_URL ? PG_SKIP : undefined);
  it.skipIf(skipC !== undefined)(
    `a run 15 days behind (faketime -15d) on a team store: what it bought is bought at the server's time, so the right clock's run pays 0 for it, and its spend counts today against a daily budget${skipC ? ` (${skipC})` : ''}`,
    async ({ expect }) => {
      const sb = await sandbox();
      try {
        const store = await freshPgDatabase();
        const behind = machine(sb, store);
        const right = machine(sb, store);
        expect((await spawnCli(['store', 'migrate'], right.env)).code).toBe(0);
        const handles = creatorHandles(sb, 6, 200);
        const paid = charges(sb, handles);
        const a = start(enrichArgs(behind.input(handles.slice(0, 4)), behind.out(), '--concurrency', '2'), behind.env, {
          wrap: ['faketime', '-f', '-15d'],
        });
        const ra = await a.done;
        expect(ra.code, ra.stderr).toBe(0);
        expect(ra.stderr).toMatch(/This machine's clock is 15 days behind the team store's/);
        expect(paid()).toEqual(handles.slice(0, 4).sort());
        // The right clock's run: the 4 come from the store (bought 15 days ago by the wrong clock, today by the server's).
        const rb = await spawnCli(
          enrichArgs(right.input(handles), right.out(), '--concurrency', '2'),
          right.env,
          undefined,
          60_000,
        );
        expect(rb.code, rb.stderr).toBe(0);
        expect(paid()).toEqual([...handles].sort());
        expect(sb.state.ledger.charges.length).toBe(6);
        // Today's spend holds the wrong clock's charges: a daily budget counts them.
        const byDay = JSON.parse((await spawnCli(['spend', '--json', '--by', 'day'], right.env)).stdout) as {
          day: string;
          requests: number;
        }[];
        expect(byDay.map((d) => d.day).filter((d) => d !== 'total')).toEqual([new Date().toISOString().slice(0, 10)]);
      } finally {
        await sb.close();
      }
    },
    90_000,
  );

  const skipB = noUnshare ?? (!PG_URL ? PG_SKIP : undefined);
  it.skipIf(skipB !== undefined)(
    `a run on another host killed with -9 while it holds a daily-budget reservation: counted while it may live (exit 5), not after SILENT_MS of silence${skipB ? ` (${skipB})` : ''}`,
    async ({ expect }) => {
      const sb = await sandbox();
      try {
        const store = await freshPgDatabase();
        const other = machine(sb, store);
        const here = machine(sb, store);
        expect((await spawnCli(['store', 'migrate'], here.env)).code).toBe(0);
        const handles = creatorHandles(sb, 24, 100);
        const big = handles.slice(0, 20);
        const small = handles.slice(20);
        // The price of a row, from a plan (nothing sent).
        const planned = here.out();
        const plan = await spawnCli([...enrichArgs(here.input(small), planned), '--dry-run', '--json'], here.env);
        expect(plan.code, plan.stderr).toBe(0);
        const row =
          (JSON.parse(readFileSync(planned, 'utf8')) as { worst_case_credits: number }).worst_case_credits /
          small.length;
        expect(row).toBeGreaterThan(0);
        // Room for the small run and what the killed one can have paid (its requests in flight), not for its reservation too.
        const budget = String(Math.round(22 * row * 1000) / 1000);
        for (const m of [other, here])
          expect((await spawnCli(['config', 'set', 'daily-budget', budget], m.env)).code).toBe(0);
        setLatency(sb.state, parseLatencySpec('enrich=60s'));
        const paid = charges(sb, handles);
        const gone = start(enrichArgs(other.input(big), other.out(), '--concurrency', '4'), other.env, {
          wrap: ['unshare', '-u', 'sh', '-c', 'hostname creators-other-host && exec "$0" "$@"'],
        });
        await until('the other host buying', () => paid().length >= 1);
        const held = await pgSql(store, 'SELECT host FROM runs');
        expect(held.map((r) => r.host)).toEqual(['creators-other-host']);
        gone.kill('SIGKILL');
        const killedAt = Date.now();
        await gone.done;
        setLatency(sb.state, {});
        // At once: the other host may be alive (it cannot be asked), so its reservation counts.
        const early = await spawnCli(enrichArgs(here.input(small), here.out()), here.env);
        expect(early.code, early.stderr).toBe(5);
        expect(early.stderr).toMatch(/reserved/);
        // Silent past SILENT_MS: gone, whatever the 6 hours a reservation once lasted.
        await sleep(Math.max(0, killedAt + SILENT_MS + 3000 - Date.now()));
        const before = paid().length;
        const later = await spawnCli(enrichArgs(here.input(small), here.out()), here.env, undefined, 60_000);
        expect(later.code, later.stderr).toBe(0);
        expect(paid().length - before).toBe(small.length);
        expect(await pgSql(store, 'SELECT run FROM runs')).toEqual([]);
      } finally {
        await sb.close();
      }
    },
    120_000,
  );

  it('a run stopped (SIGSTOP) while it holds a claim: a second run buying the same creator waits, says what for, gives up with exit 9 without buying; continued, the first keeps its answer (one charge)', async ({
    expect,
  }) => {
    const sb = await sandbox();
    try {
      const store = join(tempDir('creators-claim-'), 'shared.db');
      const a = machine(sb, store);
      const b = machine(sb, store);
      const [who] = creatorHandles(sb, 1, 200) as [string];
      const args = ['enrich', 'handle', who, '--platform', 'instagram', '--mode', 'raw', '--json'];
      setLatency(sb.state, parseLatencySpec('enrich=3s'));
      const paid = charges(sb, [who]);
      const first = start([...args, '--timeout', '5'], a.env, { guardMs: 200_000 });
      await until('the first run buying', () => paid().length === 1);
      first.kill('SIGSTOP');
      try {
        const t0 = Date.now();
        // A shorter claim wait than the default 120 s: the rule is the same, the test 2 minutes shorter.
        const second = start(args, { ...b.env, CREATORS_STORE_CLAIM_WAIT: '8' }, { guardMs: 60_000 });
        // A wait longer than a few seconds says so, naming what it waits for.
        await until(
          'the second run saying what it waits for',
          () => /wait/i.test(second.stderr) || Date.now() - t0 > 15_000,
          20_000,
        );
        expect
          .soft(second.stderr, 'the waiter says on stderr what it waits for')
          .toMatch(new RegExp(`wait[^\\n]*(pid ${first.pid}|another (run|process))`, 'i'));
        const r = await second.done;
        expect(r.code, r.stderr).toBe(9);
        expect(r.stderr).toContain(`Another process (pid ${first.pid} on `);
        expect(r.stderr).toContain('not bought twice');
        expect(paid()).toEqual([who]);
      } finally {
        first.kill('SIGCONT');
      }
      const rf = await first.done;
      expect(rf.code, rf.stderr).toBe(0);
      expect(paid()).toEqual([who]);
      // Its answer is in the store: asked again, nothing is bought.
      setLatency(sb.state, {});
      const again = await spawnCli(args, b.env);
      expect(again.code, again.stderr).toBe(0);
      expect(paid()).toEqual([who]);
    } finally {
      await sb.close();
    }
  }, 90_000);
});
