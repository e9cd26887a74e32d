/**
 * A team store made by an older version, brought up by `creators store migrate` as a team would: for each
 * older schema version, a real PostgreSQL database at that version (its migrations applied and the version
 * kept as that version's code kept it), rows in every table it had, then the CLI's migrate. Every row is kept
 * with its values; a claim or a reservation written before holders had an identity and a heartbeat reads
 * as not alive (it cannot hold a creator or a budget forever); the store then buys and reuses.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { openStore } from '../../../src/lib/store/open.js';
import { grantStatements } from '../../../src/lib/store/pg-grants.js';
import { PG_MIGRATIONS, SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import type { Store } from '../../../src/lib/store/types.js';
import { freshPgDatabase, PG_SKIP, PG_URL, withCredentials } from '../../helpers/pg.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv } from '../../helpers/sandbox.js';
import { answer, T0 } from '../../helpers/store-records.js';
import { ledgerMark } from '../../reliability/helpers.js';

type Row = Record<string, unknown>;

interface PgClient {
  connect(): Promise<void>;
  query(q: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  end(): Promise<void>;
}

async function client(url: string): Promise<PgClient> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: { Client: new (c: { connectionString: string }) => PgClient };
  };
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A pid no process has (above the kernel's pid_max). */
const DEAD_PID = 4_194_305;

/** A key as written before schema 5: a whole SHA-256 in hex. */
const OLD_PAGE_KEY = 'ab12'.repeat(16);

/**
 * The rows of an older version as schema 5 keeps them: keys by their first 32 hex digits; a creator answer's own
 * creator not a row of bought_creators (read from the answer).
 */
function asMigrated(table: string, rows: Row[]): Row[] {
  return rows
    .filter((r) => table !== 'bought_creators' || r.handle !== 'old_creator')
    .map((r) => (typeof r.key === 'string' ? { ...r, key: r.key.slice(0, 32) } : r))
    .sort((x, y) => (table === 'spend' ? 0 : String(x.key).localeCompare(String(y.key), 'en')));
}

/** The tables each version had, and the rows an older build wrote into them (its columns only). */
function oldRows(v: number): Record<string, Row[]> {
  const a = answer('old_creator');
  const page = answer('old_page', {
    kind: 'page',
    route: 'creators/search',
    platform: null,
    subject: null,
    records: 25,
    creditsMilli: 250,
    body: '{"data":[]}',
    boughtAt: T0 + 1,
  });
  const answerRow = (x: typeof a): Row => ({
    key: x.key,
    base_url: x.baseUrl,
    route: x.route,
    kind: x.kind,
    platform: x.platform,
    subject: x.subject,
    request: x.request,
    body: x.body,
    status: x.status,
    credits_milli: x.creditsMilli,
    records: x.records,
    bought_at: x.boughtAt,
    profile: x.profile,
  });
  const spendRow = (id: number, milli: number, origin?: string): Row => ({
    at: T0 + id,
    profile: 'default',
    base_url: a.baseUrl,
    command: 'enrich handle',
    route: a.route,
    platform: 'instagram',
    credits_milli: milli,
    records: 1,
    run: 'old-run',
    ...(v >= 3 ? { origin: origin ?? null } : {}),
  });
  const rows: Record<string, Row[]> = {
    answers: [answerRow(a), answerRow(page)],
    // A charge of 2^53 + 1 milli: kept to the unit, not rounded through a float.
    spend: [
      spendRow(1, 30, 'other-store:7'),
      spendRow(2, 250),
      { ...spendRow(3, 0), credits_milli: '9007199254740993' },
    ],
  };
  if (v >= 2) {
    // A page under a whole SHA-256 key (64 hex digits, as before schema 5), with the creators it bought.
    const listing = answer(OLD_PAGE_KEY, { kind: 'page', subject: null, route: 'creators/search', records: 2 });
    rows.answers?.push(answerRow(listing));
    rows.bought_creators = [
      { key: a.key, base_url: a.baseUrl, platform: 'instagram', handle: 'old_creator', bought_at: T0 },
      { key: OLD_PAGE_KEY, base_url: a.baseUrl, platform: 'instagram', handle: 'listed_one', bought_at: T0 },
      { key: OLD_PAGE_KEY, base_url: a.baseUrl, platform: 'instagram', handle: 'listed_two', bought_at: T0 },
    ];
    rows.claims = [
      // On this host: a process gone, and a pid some process has now (pid 1 always runs: a reused pid); on
      // another host, never heard from since.
      { key: 'k-dead', run: 'r-dead', pid: DEAD_PID, host: hostname(), claimed_at: T0 },
      { key: 'k-remote', run: 'r-remote', pid: 4242, host: 'another-host', claimed_at: T0 },
      { key: 'k-reused', run: 'r-reused', pid: 1, host: hostname(), claimed_at: T0 },
    ];
    rows.runs = [
      { run: 'r-dead', profile: 'default', pid: DEAD_PID, host: hostname(), started_at: T0, reserved_milli: 5_000_000 },
      {
        run: 'r-remote',
        profile: 'default',
        pid: 4242,
        host: 'another-host',
        started_at: T0,
        reserved_milli: 5_000_000,
      },
      { run: 'r-reused', profile: 'default', pid: 1, host: hostname(), started_at: T0, reserved_milli: 5_000_000 },
    ];
    rows.pace = [{ account: `${a.baseUrl}|default`, tat: T0 + 0.5 }];
  }
  if (v >= 3) rows.meta = [];
  return rows;
}

const migratedRows = (rows: Record<string, Row[]>): Record<string, Row[]> =>
  Object.fromEntries(Object.entries(rows).map(([table, list]) => [table, asMigrated(table, list)]));

/** The spend log with its names (schema 6: a row of spend_names), in the columns it had before. */
const SPEND_NAMED = `(SELECT s.id, s.at, n.profile, n.base_url, n.command, n.route, NULLIF(n.platform, '') AS platform,
  s.credits_milli, s.records, n.run, s.origin FROM spend s JOIN spend_names n ON n.id = s.names)`;

/** A database at schema `v`, as that version's `store migrate` left it, holding `rows`. */
async function storeAt(v: number, rows: Record<string, Row[]>): Promise<string> {
  const url = await freshPgDatabase();
  const c = await client(url);
  try {
    // As PgStore.migrate keeps it: one row, the version, in creators_schema.
    await c.query('CREATE TABLE creators_schema (version INTEGER NOT NULL)');
    await c.query(
      `BEGIN; ${PG_MIGRATIONS.slice(0, v).join(';\n')}; INSERT INTO creators_schema (version) VALUES (${v}); COMMIT`,
    );
    for (const [table, list] of Object.entries(rows)) {
      for (const r of list) {
        const cols = Object.keys(r);
        await c.query(
          `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
          Object.values(r),
        );
      }
    }
  } finally {
    await c.end();
  }
  return url;
}

/** Every row of `table`, each value as text (as PostgreSQL prints it: exact, whatever its type). */
async function textRows(c: PgClient, table: string, order: string): Promise<Row[]> {
  const cells = (
    await c.query(
      `SELECT t.n, e.key, e.value FROM (SELECT row_number() OVER (ORDER BY ${order}) AS n, to_jsonb(x) AS j FROM ${table === 'spend' ? SPEND_NAMED : table} x) t, jsonb_each_text(t.j) e ORDER BY t.n`,
    )
  ).rows as { n: string; key: string; value: string | null }[];
  const out = new Map<string, Row>();
  for (const { n, key, value } of cells) out.set(n, { ...out.get(n), [key]: value });
  return [...out.values()];
}

const ORDER: Record<string, string> = {
  answers: 'key',
  spend: 'id',
  bought_creators: 'key, handle',
  claims: 'key',
  runs: 'run',
  pace: 'account',
  meta: 'name',
};

const asText = (r: Row): Row =>
  Object.fromEntries(Object.entries(r).map(([k, val]) => [k, val === null ? null : String(val)]));

describe.skipIf(!PG_URL)(
  `a team store upgraded from each older schema by creators store migrate${PG_URL ? '' : ` (${PG_SKIP})`}`,
  () => {
    for (let v = 1; v < SCHEMA_VERSION; v++) {
      it(`from schema ${v}: every row kept, holders from before read as not alive, then it buys and reuses`, async () => {
        // A schema-5 store holds its rows as schema 5 wrote them.
        const rows = v >= 5 ? migratedRows(oldRows(v)) : oldRows(v);
        const url = await storeAt(v, rows);
        const c = await client(url);
        cleanups.push(() => c.end());
        const storeIdBefore =
          v >= 3 ? String((await c.query("SELECT value FROM meta WHERE name = 'store_id'")).rows[0]?.value) : undefined;

        const sandbox = await startSandbox({ port: 0, seed: 35 });
        cleanups.push(() => sandbox.close());
        const configDir = tempConfigDir();
        const run = (argv: string[], env: Record<string, string> = {}) =>
          runCli(argv, { configDir, env: { ...sandboxEnv(sandbox), CREATORS_STORE: url, ...env } });

        // An older store refuses a purchase until migrated (the team migrates explicitly), and nothing is sent.
        const [handle] = creatorHandles(sandbox, 1) as [string];
        const argv = ['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw', '--json'];
        const refused = ledgerMark(sandbox);
        const early = await run(argv);
        expect(early.code, early.stderr).not.toBe(0);
        expect(early.stderr).toContain(`is at schema ${v}; this version of creators needs ${SCHEMA_VERSION}`);
        expect(refused.since().count).toBe(0);

        const migrated = await run(['store', 'migrate', '--json']);
        expect(migrated.code, migrated.stderr).toBe(0);
        expect(migrated.json()).toMatchObject({ engine: 'postgres', from: v, to: SCHEMA_VERSION });
        expect(migrated.stderr).toContain(`Migrated the store from schema ${v} to ${SCHEMA_VERSION}.`);
        expect((await c.query('SELECT version FROM creators_schema')).rows).toEqual([{ version: SCHEMA_VERSION }]);

        // Every row, every value, as written; the columns added since read as their defaults.
        const added: Record<string, Row> = {
          claims: { boot: null, start: null, seen_at: '0' },
          runs: { boot: null, start: null, seen_at: '0' },
          spend: v < 3 ? { origin: null } : {},
        };
        for (const [table, list] of Object.entries(rows)) {
          if (table === 'meta') continue;
          // spend.id was numbered by the server, in the order written.
          const expected = asMigrated(table, list).map((r, i) => ({
            ...(table === 'spend' ? { id: String(i + 1) } : {}),
            ...asText(r),
            ...(added[table] ?? {}),
          }));
          const found = await textRows(c, table, ORDER[table] as string);
          expect(
            found.map((r) => Object.fromEntries(Object.keys(expected[0] ?? {}).map((k) => [k, r[k]]))),
            table,
          ).toEqual(expected);
          expect(found.length, table).toBe(expected.length);
        }
        // The store keeps its id across the upgrade (copies elsewhere know its entries by it); a store from
        // before ids gets one.
        const storeId = String((await c.query("SELECT value FROM meta WHERE name = 'store_id'")).rows[0]?.value);
        expect(storeId).toMatch(/^[0-9a-f]{32}$/);
        if (storeIdBefore) expect(storeId).toBe(storeIdBefore);

        const store = (await openStore({ file: url, env: {} })) as Store;
        cleanups.push(() => store.close());
        expect((await store.answer('old_creator', 0))?.body).toBe(answer('old_creator').body);
        if (v >= 2) {
          // The page is found by its key's first 32 hex digits (as this version names it); its creators and the
          // creator answer's own count as bought.
          expect((await store.answer(OLD_PAGE_KEY.slice(0, 32), 0))?.records).toBe(2);
          expect(await store.boughtCreators(answer('x').baseUrl, 'instagram', 0)).toEqual([
            'listed_one',
            'listed_two',
            'old_creator',
          ]);
        }
        // The sum of a 2^53 charge is read without overflow (as a float: the row itself keeps every unit, above).
        expect((await store.stats()).spend).toMatchObject({
          entries: 3,
          creditsMilli: expect.closeTo(9007199254740993, -3),
        });
        if (v >= 2) {
          // No holder from before can hold a creator or a budget: each is stuck (dead or silent), and doctor clears it.
          const shared = await store.shared();
          const holders = shared
            .filter((e) => e.kind !== 'pace')
            .map((e) => `${e.kind} ${e.id}: ${e.state}`)
            .sort();
          expect(holders).toEqual([
            'claim k-dead: dead',
            'claim k-remote: silent',
            'claim k-reused: dead',
            'reservation r-dead: dead',
            'reservation r-remote: silent',
            'reservation r-reused: dead',
          ]);
          const me = { run: 'after-upgrade', pid: process.pid, host: hostname() };
          expect(await store.claim('k-remote', me)).toBe('claimed');
          expect(await store.claim('k-dead', me)).toBe('claimed');
          expect(await store.claim('k-reused', me)).toBe('claimed');
          for (const k of ['k-remote', 'k-dead', 'k-reused']) await store.release(k, me);
          // 15 credits reserved by the runs from before would refuse this 1-credit budget if they still counted.
          expect(
            await store.reserve(
              {
                profile: 'default',
                worstMilli: 500,
                now: Date.now(),
                daily: { limitMilli: 1000, since: Date.now() - 3_600_000 },
              },
              me,
            ),
          ).toBeUndefined();
          await store.endRun(me.run);
        }

        const bought = ledgerMark(sandbox);
        const first = await run(argv);
        expect(first.code, first.stderr).toBe(0);
        expect(bought.since().count).toBe(1);
        const reused = ledgerMark(sandbox);
        const again = await run(argv);
        expect(again.code, again.stderr).toBe(0);
        expect(again.stderr).toContain('0 credits');
        const [paid, kept] = [JSON.parse(first.stdout), JSON.parse(again.stdout)] as {
          result: unknown;
          credits_cost: number;
          source: string;
        }[];
        expect(kept?.result).toEqual(paid?.result);
        expect([paid?.source, paid?.credits_cost, kept?.source, kept?.credits_cost]).toEqual(['api', 0.03, 'store', 0]);
        expect(reused.since().count).toBe(0);
      });
    }

    it('a role granted the rights of schema 5 keeps buying after the migration to 6 (spend_names gets its rights on spend)', async () => {
      const url = await storeAt(5, {});
      const admin = await client(url);
      const role = `creators_up_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw-${role}'`);
      cleanups.push(async () => {
        await admin.query(`DROP OWNED BY ${role}`);
        await admin.end();
        const server = await client(PG_URL as string);
        await server.query(`DROP ROLE IF EXISTS ${role}`);
        await server.end();
      });
      // What `store migrate --print-grants` printed at schema 5: no spend_names.
      for (const g of grantStatements(role).filter((x) => !x.includes('ON TABLE spend_names')))
        await admin.query(g.replace(', spend_names_id_seq', ''));

      const sandbox = await startSandbox({ port: 0, seed: 36 });
      cleanups.push(() => sandbox.close());
      const configDir = tempConfigDir();
      const run = (store: string, argv: string[]) =>
        runCli(argv, { configDir, env: { ...sandboxEnv(sandbox), CREATORS_STORE: store } });
      const migrated = await run(url, ['store', 'migrate', '--json']);
      expect(migrated.code, migrated.stderr).toBe(0);

      const asRole = withCredentials(url, role, `pw-${role}`);
      const [handle] = creatorHandles(sandbox, 1) as [string];
      const bought = ledgerMark(sandbox);
      const first = await run(asRole, ['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw']);
      expect(first.code, first.stderr).toBe(0);
      expect(bought.since().count).toBe(1);
      const spend = await run(asRole, ['spend', '--json']);
      expect(spend.code, spend.stderr).toBe(0);
      expect((JSON.parse(spend.stdout) as { day: string }[]).find((d) => d.day === 'total')).toMatchObject({
        requests: 1,
        credits: 0.03,
      });
    });
  },
);
