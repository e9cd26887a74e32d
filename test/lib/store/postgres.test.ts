/**
 * What only the PostgreSQL engine does (the shared behaviour is engines.test.ts): the schema changed only
 * by an explicit migrate, a newer schema and another program's tables refused untouched, a dry run's
 * read-only connection, where it is shown without the password. A real server (CREATORS_TEST_PG_URL).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CliError } from '../../../src/lib/errors.js';
import { migrateStore, openStore } from '../../../src/lib/store/open.js';
import { pgTarget } from '../../../src/lib/store/pg-errors.js';
import { SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import type { Store } from '../../../src/lib/store/types.js';
import { freshPgDatabase, PG_SKIP, PG_URL } from '../../helpers/pg.js';
import { answer, DAY, me } from '../../helpers/store-records.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function sql(url: string, text: string): Promise<unknown[]> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: {
      Client: new (c: {
        connectionString: string;
      }) => { connect(): Promise<void>; query(q: string): Promise<{ rows: unknown[] }>; end(): Promise<void> };
    };
  };
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

async function refusal(fn: () => Promise<unknown>): Promise<CliError> {
  const err = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  return err as CliError;
}

const open = async (url: string, o: { readOnly?: boolean } = {}) => {
  const s = await openStore({ file: url, env: {}, ...o });
  if (s) opened.push(s);
  return s;
};

describe('where a team store is, shown', () => {
  it('the URL without its password; what it leaves out from the PG* variables', () => {
    expect(pgTarget('postgres://ann:s3cret@db.example:6543/team', {}).display).toBe(
      'postgres://ann@db.example:6543/team',
    );
    expect(pgTarget('postgresql:///team', { PGHOST: 'db', PGUSER: 'ci', PGPORT: '5433' }).display).toBe(
      'postgres://ci@db:5433/team',
    );
    expect(pgTarget('postgres://db.example', { PGDATABASE: 'x', PGPASSWORD: 'pw' })).toMatchObject({
      database: 'x',
      password: 'pw',
      port: 5432,
    });
  });
});

describe.skipIf(!PG_URL)(`the PostgreSQL engine${PG_URL ? '' : ` (${PG_SKIP})`}`, () => {
  it('an empty database is no store yet read-only, refused for buying until migrated; migrate is idempotent', async () => {
    const url = await freshPgDatabase();
    expect(await open(url, { readOnly: true })).toBeUndefined();
    const err = await refusal(() => open(url));
    expect(err.code).toBe('store_migrate');
    expect(err.message).toContain('has no creators schema yet; nothing was bought.');
    expect(await migrateStore({ file: url, env: {} })).toEqual({ engine: 'postgres', from: 0, to: SCHEMA_VERSION });
    expect(await migrateStore({ file: url, env: {} })).toEqual({
      engine: 'postgres',
      from: SCHEMA_VERSION,
      to: SCHEMA_VERSION,
    });
    expect((await open(url))?.engine).toBe('postgres');
  });

  it('an older schema: a run says to migrate, a read-only open still reads; migrate brings it up, keeping its rows', async () => {
    const url = await freshPgDatabase();
    await migrateStore({ file: url, env: {} });
    const s = (await open(url)) as Store;
    await s.logSpend({
      at: 1,
      profile: 'default',
      baseUrl: 'http://x/',
      command: 'c',
      route: 'r',
      platform: null,
      creditsMilli: 5,
      records: 1,
      run: 'r1',
    });
    await sql(url, `UPDATE creators_schema SET version = ${SCHEMA_VERSION - 1}`);
    const err = await refusal(() => open(url));
    expect(err.code).toBe('store_migrate');
    expect(err.message).toContain(
      `is at schema ${SCHEMA_VERSION - 1}; this version of creators needs ${SCHEMA_VERSION}`,
    );
    expect((await (await open(url, { readOnly: true }))?.stats())?.spend.entries).toBe(1);
    await sql(url, `UPDATE creators_schema SET version = ${SCHEMA_VERSION}`);
  });

  it('a newer schema is refused with an upgrade hint, by runs and by migrate, and left as it was', async () => {
    const url = await freshPgDatabase();
    await migrateStore({ file: url, env: {} });
    await sql(url, `UPDATE creators_schema SET version = ${SCHEMA_VERSION + 4}`);
    for (const attempt of [
      () => open(url),
      () => open(url, { readOnly: true }),
      () => migrateStore({ file: url, env: {} }),
    ]) {
      const err = await refusal(attempt);
      expect(err.code).toBe('store_too_new');
      expect(err.message).toContain(`schema ${SCHEMA_VERSION + 4}; this one knows ${SCHEMA_VERSION}`);
    }
    expect(await sql(url, 'SELECT version FROM creators_schema')).toEqual([{ version: SCHEMA_VERSION + 4 }]);
  });

  it("another program's `answers` table is refused, not given ours", async () => {
    const url = await freshPgDatabase();
    await sql(url, 'CREATE TABLE answers (id int)');
    for (const attempt of [() => open(url), () => migrateStore({ file: url, env: {} })])
      expect((await refusal(attempt)).code).toBe('store_foreign');
    expect(await sql(url, "SELECT to_regclass('creators_schema') IS NULL AS none")).toEqual([{ none: true }]);
  });

  it('read-only (a dry run): the server itself refuses a write', async () => {
    const url = await freshPgDatabase();
    await migrateStore({ file: url, env: {} });
    const s = (await open(url, { readOnly: true })) as Store;
    const err = await refusal(() =>
      s.logSpend({
        at: 1,
        profile: 'p',
        baseUrl: 'b',
        command: 'c',
        route: 'r',
        platform: null,
        creditsMilli: 1,
        records: 1,
        run: 'x',
      }),
    );
    expect(err.message).toContain('read-only');
    expect((await s.stats()).spend.entries).toBe(0);
  });
});

describe.skipIf(!PG_URL)(`claims on a server${PG_URL ? '' : ` (${PG_SKIP})`}`, () => {
  it('a purchase committed while a claim waits on its released row is reused, not bought again (each statement sees its own snapshot)', async () => {
    const place = await freshPgDatabase();
    const s = (await openStore({ file: place, env: {}, migrate: true })) as Store;
    opened.push(s);
    const now = Date.now();
    expect(await s.claim('k', me('a'), { since: now - DAY })).toBe('claimed');
    // Run a's commit, held open: its answer written and its claim released, not yet committed.
    const { default: pg } = (await import('pg')) as unknown as {
      default: {
        Client: new (c: {
          connectionString: string;
        }) => { connect(): Promise<void>; query(q: string, p?: unknown[]): Promise<unknown>; end(): Promise<void> };
      };
    };
    const a = new pg.Client({ connectionString: place });
    await a.connect();
    try {
      await a.query('BEGIN');
      await a.query('DELETE FROM claims WHERE key = $1', ['k']);
      const x = answer('k', { boughtAt: now });
      await a.query(
        'INSERT INTO answers (key, base_url, route, kind, platform, subject, request, body, status, credits_milli, records, bought_at, profile) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)',
        [
          x.key,
          x.baseUrl,
          x.route,
          x.kind,
          x.platform,
          x.subject,
          x.request,
          x.body,
          x.status,
          x.creditsMilli,
          x.records,
          x.boughtAt,
          x.profile,
        ],
      );
      // Run b looks (nothing committed yet) and claims: its insert waits for run a's row.
      const b = s.claim('k', me('b'), { since: now - DAY });
      await new Promise((r) => setTimeout(r, 300));
      await a.query('COMMIT');
      expect(await b).toMatchObject({ answer: { boughtAt: now, status: 'ok' } });
      expect((await s.shared()).filter((e) => e.kind === 'claim')).toEqual([]);
    } finally {
      await a.end();
    }
  });
});
