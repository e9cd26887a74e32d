/**
 * A store file made by an older version, opened by this one. test/fixtures/store/schema-4.db was written by
 * the CLI at schema 4 (commit 4ad23c7: two `enrich handle --mode raw` purchases against https://api.test, 8 KB
 * pages, keys of 64 hex digits, each creator also a row of bought_creators). Opened by this version it is
 * migrated in place: the answers are reused at 0 credits with nothing sent, the spend log is kept, the creators
 * bought still count for --skip-bought, and its page size stays as it was.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestText } from '../../../src/lib/store/memory.js';
import { openSqliteStore } from '../../../src/lib/store/sqlite.js';
import { SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import { mockApi } from '../../helpers/mock-api.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { all, answer } from '../../helpers/store-records.js';
import { tempDir } from '../../helpers/temp.js';

const FIXTURE = join(import.meta.dirname, '../../fixtures/store/schema-4.db');
/**
 * Written by the CLI at schema 5 (commit a40422b: two `enrich handle --mode raw` purchases against https://api.test,
 * each its own run, at 0.03 credits): each spend entry holds its names as text.
 */
const FIXTURE_5 = join(import.meta.dirname, '../../fixtures/store/schema-5.db');
const HANDLES = ['moveswithsara', 'samuelworld'];

interface RawDb {
  prepare(sql: string): { all(...p: unknown[]): unknown[]; get(...p: unknown[]): unknown };
  close(): void;
}

async function rows(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const { default: Database } = (await import('libsql')) as unknown as { default: new (f: string) => RawDb };
  const db = new Database(file);
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('a store file of schema 4, made by an older version', () => {
  it('is migrated when opened: its answers reused at 0 credits with nothing sent, its spend log and creators kept', async () => {
    const file = join(tempDir('creators-old-store-'), 'old.db');
    copyFileSync(FIXTURE, file);
    const before = await rows(file, 'SELECT key, body FROM answers ORDER BY subject');
    expect(before.map((r) => String(r.key).length)).toEqual([64, 64]);
    expect((await rows(file, 'PRAGMA user_version'))[0]?.user_version).toBe(4);

    // No interceptor: any request at all fails the command.
    const { agent, env } = mockApi({ recorder: true });
    const configDir = tempConfigDir();
    const run = (argv: string[]) =>
      runCli(argv, { env: { ...env, CREATORS_STORE: file }, dispatcher: agent, configDir });
    for (const [i, handle] of HANDLES.entries()) {
      const r = await run(['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = r.json<{ source: string; credits_cost: number; result: unknown }>();
      expect([out.source, out.credits_cost]).toEqual(['store', 0]);
      expect(out.result).toEqual((JSON.parse(String(before[i]?.body)) as { result: unknown }).result);
      expect(r.stderr).toContain('0 credits');
    }

    expect((await rows(file, 'PRAGMA user_version'))[0]?.user_version).toBe(SCHEMA_VERSION);
    expect((await rows(file, 'PRAGMA page_size'))[0]?.page_size).toBe(8192);
    const after = await rows(file, 'SELECT key, subject FROM answers ORDER BY subject');
    expect(after).toEqual(before.map((r, i) => ({ key: String(r.key).slice(0, 32), subject: HANDLES[i] })));
    // Each creator is read from its answer now, not kept twice.
    expect(await rows(file, 'SELECT * FROM bought_creators')).toEqual([]);

    const spend = await run(['spend', '--json']);
    expect(spend.code, spend.stderr).toBe(0);
    expect(spend.json<{ credits: number; requests: number }[]>().at(-1)).toMatchObject({ credits: 0.06, requests: 2 });

    const store = await openSqliteStore({ file });
    try {
      // Its requests, kept whole before schema 5, are read as they are.
      const requests = await rows(file, 'SELECT request FROM answers ORDER BY subject');
      expect(requests.map((r) => String(r.request))).toEqual(
        HANDLES.map((handle) =>
          requestText({ path: 'creators/enrich/handle/raw', body: { handle, platform: 'instagram' } }),
        ),
      );
      expect((await all(store.list({}))).map((a) => a.request).sort()).toEqual(
        requests.map((r) => String(r.request)).sort(),
      );
      expect(await store.boughtCreators('https://api.test/', 'instagram', 0)).toEqual([...HANDLES].sort());
      expect((await store.stats()).spend).toMatchObject({ entries: 2, creditsMilli: 60 });
    } finally {
      await store.close();
    }
  });

  it('a request is kept without its route (a column of its own) and read back whole; any other text as it came', async () => {
    const store = await openSqliteStore({ file: join(tempDir('creators-store-'), 'new.db') });
    try {
      const route = 'creators/enrich/handle/full';
      const whole = requestText({
        path: route,
        body: { handle: 'ann', platform: 'instagram', n: 12345678901234567890 },
      });
      const other = '{"body":{"handle":"bob"},"query":null,"route":"somewhere/else"}';
      await store.commit(answer('ann', { route, request: whole }), [], undefined);
      await store.commit(answer('bob', { route, request: other }), [], undefined);
      await store.commit(answer('cat', { route, request: '{"body":{"handle":"cat"}}' }), [], undefined);
      const kept = Object.fromEntries((await all(store.list({}))).map((a) => [a.key, a.request] as const));
      expect(kept).toEqual({ ann: whole, bob: other, cat: '{"body":{"handle":"cat"}}' });
      expect((await store.dumpAnswers(undefined, 10)).map((d) => d.answer.request)).toEqual([
        whole,
        other,
        '{"body":{"handle":"cat"}}',
      ]);
      const raw = (store as unknown as { dialect: { db: RawDb } }).dialect.db;
      const stored = raw.prepare("SELECT request FROM answers WHERE key = 'ann'").get() as { request: string };
      expect(stored.request).toBe(whole.replace(`,"route":"${route}"`, ''));
      expect(stored.request).not.toContain('route');
    } finally {
      await store.close();
    }
  });
});

describe('a store file of schema 5, made by an older version', () => {
  it('is migrated when opened: each spend entry names its run by a row of spend_names, every entry read back as it was', async () => {
    const file = join(tempDir('creators-old-store-'), 'old.db');
    copyFileSync(FIXTURE_5, file);
    expect((await rows(file, 'PRAGMA user_version'))[0]?.user_version).toBe(5);
    const before = await rows(file, 'SELECT * FROM spend ORDER BY id');
    expect(before.map((r) => [r.profile, r.base_url, r.command, r.route, r.platform, r.credits_milli])).toEqual([
      ['default', 'https://api.test/', 'enrich handle', 'creators/enrich/handle/raw', 'instagram', 30],
      ['default', 'https://api.test/', 'enrich handle', 'creators/enrich/handle/raw', 'instagram', 30],
    ]);

    const { agent, env } = mockApi({ recorder: true });
    const run = (argv: string[]) =>
      runCli(argv, { env: { ...env, CREATORS_STORE: file }, dispatcher: agent, configDir: tempConfigDir() });
    for (const handle of HANDLES) {
      const r = await run(['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json<{ source: string; credits_cost: number }>()).toMatchObject({ source: 'store', credits_cost: 0 });
    }
    expect((await rows(file, 'PRAGMA user_version'))[0]?.user_version).toBe(SCHEMA_VERSION);
    const spend = await run(['spend', '--json']);
    expect(spend.code, spend.stderr).toBe(0);
    expect(spend.json<{ credits: number; requests: number }[]>().at(-1)).toMatchObject({ credits: 0.06, requests: 2 });

    // The texts are out of the entries: one row of names a run.
    expect((await rows(file, 'SELECT * FROM spend ORDER BY id')).map((r) => Object.keys(r).sort())).toEqual([
      ['at', 'credits_milli', 'id', 'names', 'origin', 'records'],
      ['at', 'credits_milli', 'id', 'names', 'origin', 'records'],
    ]);
    expect((await rows(file, 'SELECT run FROM spend_names ORDER BY id')).map((r) => r.run)).toEqual(
      before.map((r) => r.run),
    );
    const store = await openSqliteStore({ file });
    try {
      expect(
        (await all(store.spend({}))).map((e) => ({
          id: 0,
          at: e.at,
          profile: e.profile,
          base_url: e.baseUrl,
          command: e.command,
          route: e.route,
          platform: e.platform,
          credits_milli: e.creditsMilli,
          records: e.records,
          run: e.run,
          origin: e.origin,
        })),
      ).toEqual(before.map((r) => ({ ...r, id: 0 })));
    } finally {
      await store.close();
    }
  });
});
