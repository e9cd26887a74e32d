/**
 * The team store where teams run it: behind a stock PgBouncer in transaction pooling (scripts/pgbouncer-test-
 * server.sh, started by `.ci/run`), which refuses startup parameters such as `options`, keeps no session
 * state between transactions and carries no prepared statement over. The store must open, migrate, commit,
 * claim, reserve and pace through it, and a lock held on the server must stop a commit within the busy
 * timeout (exit 9), not after however long the holder keeps it. Databases are made on the server directly
 * and reached through the bouncer by name.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { BusyError, CliError, EXIT } from '../../../src/lib/errors.js';
import { migrateStore, openStore } from '../../../src/lib/store/open.js';
import { SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import type { Holder, Store, StoredAnswer } from '../../../src/lib/store/types.js';
import { grantStatements } from '../../../src/lib/store/pg-grants.js';
import { freshPgDatabaseViaBouncer, PGBOUNCER_SKIP, PGBOUNCER_URL, PG_URL, withCredentials } from '../../helpers/pg.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv } from '../../helpers/sandbox.js';
import { ledgerMark } from '../../reliability/helpers.js';

interface PgClient {
  connect(): Promise<void>;
  query(q: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

async function client(url: string): Promise<PgClient> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: { Client: new (c: { connectionString: string; options?: string }) => PgClient };
  };
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

/** The same database on the server itself, bypassing the bouncer. */
function direct(bouncerUrl: string): string {
  const u = new URL(PG_URL as string);
  u.pathname = new URL(bouncerUrl).pathname;
  return u.href;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(url: string, o: { busyTimeoutMs?: number } = {}): Promise<Store> {
  const s = (await openStore({ file: url, env: {}, ...o })) as Store;
  cleanups.push(() => s.close());
  return s;
}

function answer(key: string, boughtAt: number): StoredAnswer {
  return {
    key,
    baseUrl: 'http://sandbox/',
    route: 'enrich',
    kind: 'creator',
    platform: 'instagram',
    subject: key,
    request: '{}',
    body: '{"ok":true}',
    status: 'ok',
    creditsMilli: 30,
    records: 1,
    boughtAt,
    profile: 'default',
  };
}

/** The error `fn` rejects with, and how long it took to. */
async function timedFailure(fn: () => Promise<unknown>, giveUpMs: number): Promise<{ err: unknown; ms: number }> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const err = await Promise.race([
    fn().then(
      () => new Error('it succeeded'),
      (e: unknown) => e,
    ),
    new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`still waiting after ${giveUpMs} ms`)), giveUpMs);
    }),
  ]);
  clearTimeout(timer);
  return { err, ms: Date.now() - t0 };
}

describe.skipIf(!PGBOUNCER_URL)(
  `the team store through PgBouncer in transaction pooling${PGBOUNCER_URL ? '' : ` (${PGBOUNCER_SKIP})`}`,
  () => {
    it('the harness: plain pg reaches a fresh database through the bouncer; a startup `options` is refused as teams see it', async () => {
      const url = await freshPgDatabaseViaBouncer();
      expect(new URL(url).port).toBe(new URL(PGBOUNCER_URL as string).port);
      const c = await client(url);
      try {
        expect((await c.query('SELECT 1 AS one, current_database() AS db')).rows).toEqual([
          { one: 1, db: new URL(url).pathname.slice(1) },
        ]);
      } finally {
        await c.end();
      }
      const { default: pg } = (await import('pg')) as unknown as {
        default: { Client: new (c: { connectionString: string; options?: string }) => PgClient };
      };
      const withOptions = new pg.Client({ connectionString: url, options: '-c lock_timeout=1000' });
      const refused = await withOptions.connect().then(
        () => undefined,
        (e: unknown) => e,
      );
      await withOptions.end().catch(() => undefined);
      expect(String((refused as Error | undefined)?.message)).toContain('unsupported startup parameter: options');
    });

    it('migrates, opens, commits, claims, reserves a budget and paces through it', async () => {
      const url = await freshPgDatabaseViaBouncer();
      expect(await migrateStore({ file: url, env: {} })).toEqual({ engine: 'postgres', from: 0, to: SCHEMA_VERSION });
      const s = await open(url);
      expect(s.engine).toBe('postgres');
      const now = Date.now();

      await s.commit(answer('k1', now), ['alice'], {
        at: now,
        profile: 'default',
        baseUrl: 'http://sandbox/',
        command: 'enrich',
        route: 'enrich',
        platform: 'instagram',
        creditsMilli: 30,
        records: 1,
        run: 'r1',
        origin: 'o1',
      });
      expect(await s.answer('k1', now - 1000)).toMatchObject({
        body: '{"ok":true}',
        creditsMilli: 30,
        records: 1,
        status: 'ok',
      });
      // A creator answer bought its subject (read from the answer), and any other creator named with it.
      expect(await s.boughtCreators('http://sandbox/', 'instagram', now - 1000)).toEqual(['alice', 'k1']);
      expect((await s.stats()).spend).toMatchObject({ entries: 1, creditsMilli: 30 });

      // A claim is one holder's while it lives; released, another takes it.
      const a: Holder = { run: 'run-a', pid: process.pid, host: 'host-a' };
      const b: Holder = { run: 'run-b', pid: process.pid, host: 'host-b' };
      expect(await s.claim('k2', a)).toBe('claimed');
      expect(await s.claim('k2', b)).toMatchObject({ run: 'run-a' });
      await s.release('k2', a);
      expect(await s.claim('k2', b)).toBe('claimed');

      // A daily budget of 0.1 credit with 0.03 spent: 0.05 reserved by one run, another 0.05 is refused.
      const budget = { limitMilli: 100, since: now - 3600_000 };
      expect(
        await s.reserve(
          { profile: 'default', worstMilli: 50, now, daily: budget },
          { run: 'run-c', pid: process.pid, host: 'elsewhere' },
        ),
      ).toBeUndefined();
      expect(
        await s.reserve(
          { profile: 'default', worstMilli: 50, now, daily: budget },
          { run: 'run-d', pid: process.pid, host: 'elsewhere-too' },
        ),
      ).toEqual({
        period: 'daily',
        limitMilli: 100,
        spentMilli: 30,
        reservedMilli: 50,
      });
      await s.endRun('run-c');
      expect(
        await s.reserve(
          { profile: 'default', worstMilli: 50, now, daily: budget },
          { run: 'run-d', pid: process.pid, host: 'elsewhere-too' },
        ),
      ).toBeUndefined();

      // One pace for the account: two takes are one interval apart (kept in the server's clock, handed back in
      // the caller's: the milliseconds between the two takes come off the second).
      const pace = s.pace('http://sandbox/|default');
      const first = await pace.take(200, 0, now);
      const second = (await pace.take(200, 0, now)) as number;
      expect(first).toBe(now);
      expect(second).toBeGreaterThan(now + 200 - 250);
      expect(second).toBeLessThanOrEqual(now + 200);
    });

    it('a lock held on the server directly: a commit through the bouncer fails within the busy timeout (exit 9), not when the lock goes', async () => {
      const url = await freshPgDatabaseViaBouncer();
      await migrateStore({ file: url, env: {} });
      const s = await open(url, { busyTimeoutMs: 1000 });
      const holder = await client(direct(url));
      cleanups.push(async () => {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      });
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE answers IN ACCESS EXCLUSIVE MODE');
      const { err, ms } = await timedFailure(() => s.commit(answer('k1', Date.now()), [], undefined), 8000);
      expect(err).toBeInstanceOf(BusyError);
      expect((err as CliError).exitCode).toBe(EXIT.BUSY);
      expect((err as CliError).message).toContain('past the busy timeout');
      // The timeout is 1 s; without it the commit would wait for as long as the lock is held (8 s here).
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(4000);
    });

    it('a whole purchase through the bouncer, bought once; the re-run pays 0; a locked store exits 9 within its timeout, sending nothing', async () => {
      const sandbox = await startSandbox({ port: 0, seed: 25 });
      cleanups.push(() => sandbox.close());
      const url = await freshPgDatabaseViaBouncer();
      const configDir = tempConfigDir();
      const run = (argv: string[], env: Record<string, string> = {}) =>
        runCli(argv, { configDir, env: { ...sandboxEnv(sandbox), CREATORS_STORE: url, ...env } });
      const migrated = await run(['store', 'migrate']);
      expect(migrated.code, migrated.stderr).toBe(0);
      const [handle, other] = creatorHandles(sandbox, 2) as [string, string];
      const argv = ['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw', '--json'];

      const first = ledgerMark(sandbox);
      const bought = await run(argv);
      expect(bought.code, bought.stderr).toBe(0);
      expect(first.since().count).toBe(1);
      const again = ledgerMark(sandbox);
      const reused = await run(argv);
      expect(reused.code, reused.stderr).toBe(0);
      expect((JSON.parse(reused.stdout) as { handle: string }).handle).toBe(
        (JSON.parse(bought.stdout) as { handle: string }).handle,
      );
      expect(reused.stderr).toContain('In the store (bought within 14 days): 0 credits');
      expect(again.since().count).toBe(0);

      const holder = await client(direct(url));
      cleanups.push(async () => {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      });
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE answers IN ACCESS EXCLUSIVE MODE');
      const locked = ledgerMark(sandbox);
      const t0 = Date.now();
      // Let go after 8 s, so a run that ignores its timeout finishes (and fails below) within the test's time.
      const letGo = setTimeout(() => void holder.query('ROLLBACK').catch(() => undefined), 8000);
      const busy = await run(['enrich', 'handle', other, '--platform', 'instagram', '--mode', 'raw'], {
        CREATORS_STORE_BUSY_TIMEOUT: '1',
      });
      const ms = Date.now() - t0;
      clearTimeout(letGo);
      expect(busy.code, busy.stderr).toBe(EXIT.BUSY);
      expect(busy.stderr).toContain('past the busy timeout');
      expect(ms).toBeLessThan(6000);
      expect(locked.since().count).toBe(0);
    });

    it('refusals through the bouncer read as from the server: wrong credentials exit 4, a role missing a right is named; nothing sent', async () => {
      const sandbox = await startSandbox({ port: 0, seed: 25 });
      cleanups.push(() => sandbox.close());
      const url = await freshPgDatabaseViaBouncer();
      const configDir = tempConfigDir();
      const run = (store: string, argv: string[]) =>
        runCli(argv, { configDir, env: { ...sandboxEnv(sandbox), CREATORS_STORE: store } });
      expect((await run(url, ['store', 'migrate'])).code).toBe(0);
      const role = `creators_pgb_${randomBytes(4).toString('hex')}`;
      const admin = await client(direct(url));
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw-${role}'`);
      for (const g of grantStatements(role))
        await admin.query(g.includes('ON TABLE spend TO') ? g.replace('SELECT, INSERT', 'SELECT') : g);
      cleanups.push(async () => {
        await admin.query(`DROP OWNED BY ${role}`);
        await admin.end();
        const server = await client(PG_URL as string);
        await server.query(`DROP ROLE IF EXISTS ${role}`);
        await server.end();
      });
      const argv = ['enrich', 'handle', creatorHandles(sandbox, 1)[0]!, '--platform', 'instagram', '--mode', 'raw'];
      const mark = ledgerMark(sandbox);

      const wrong = await run(withCredentials(url, role, 'not-the-password-42'), argv);
      expect(wrong.code, wrong.stderr).toBe(EXIT.AUTH);
      expect(wrong.stderr).toContain(`The team store at 127.0.0.1:${new URL(url).port} refused the credentials`);
      expect(wrong.stderr).not.toContain('not-the-password-42');

      const partly = await run(withCredentials(url, role, `pw-${role}`), argv);
      expect(partly.code, partly.stderr).toBe(EXIT.ERROR);
      expect(partly.stderr).toContain(
        `The role ${role} may not INSERT on table spend in the team store at 127.0.0.1:${new URL(url).port}; nothing was bought.`,
      );
      expect(mark.since().count).toBe(0);
    });
  },
);
