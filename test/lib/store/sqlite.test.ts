/**
 * The store's SQLite engine against real files (never a mock): migrations from an empty file and from
 * an older schema, a newer schema and a corrupt file refused without a byte changed, and what the
 * purchase memory, the claims and the budgets rely on — answers kept and found within a window,
 * claims of dead processes taken over, one budget shared by two connections to one file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliError, EXIT } from '../../../src/lib/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import { openStore } from '../../../src/lib/store/open.js';
import { openSqliteStore, type SqliteStore } from '../../../src/lib/store/sqlite.js';
import type { BudgetCheck, Holder, SpendEntry, StoredAnswer } from '../../../src/lib/store/types.js';
import { tempDir } from '../../helpers/temp.js';

interface RawDb {
  exec(sql: string): void;
  prepare(sql: string): { get(...p: unknown[]): unknown; all(...p: unknown[]): unknown[]; run(...p: unknown[]): unknown };
  close(): void;
}

/** A plain libsql connection, outside the engine (to build old, new and locked files). */
async function rawDb(file: string): Promise<RawDb> {
  const { default: Database } = (await import('libsql')) as unknown as { default: new (f: string) => RawDb };
  return new Database(file);
}

const opened: SqliteStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function open(file: string, o: { readOnly?: boolean; busyTimeoutMs?: number } = {}): Promise<SqliteStore> {
  const s = await openSqliteStore({ file, ...o });
  opened.push(s);
  return s;
}

function storeFile(name = 'store.db'): string {
  return join(tempDir('creators-store-'), name);
}

/** The CliError `fn` rejects with. */
async function refusal(fn: () => Promise<unknown>): Promise<CliError> {
  const err = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  return err as CliError;
}

const T0 = Date.UTC(2026, 0, 15, 12);
const DAY = 86_400_000;

function answer(key: string, o: Partial<StoredAnswer> = {}): StoredAnswer {
  return {
    key,
    baseUrl: 'http://127.0.0.1:1/',
    route: 'creators/enrich/handle/raw',
    kind: 'creator',
    platform: 'instagram',
    subject: key,
    request: JSON.stringify({ body: { handle: key } }),
    body: `{"result":{"instagram":{"username":"${key}","followers":12345678901234567890}}}`,
    status: 'ok',
    creditsMilli: 30,
    records: 1,
    boughtAt: T0,
    profile: 'default',
    ...o,
  };
}

function spend(run: string, creditsMilli: number, at = T0): SpendEntry {
  return { at, profile: 'default', baseUrl: 'http://127.0.0.1:1/', command: 'enrich handle', route: 'creators/enrich/handle/raw', platform: 'instagram', creditsMilli, records: 1, run };
}

const me = (run: string): Holder => ({ run, pid: process.pid, host: hostname() });

/** The pid of a process that has exited (so is known dead on this host). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(child.status).toBe(0);
  return child.pid as number;
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('opening and migrating', () => {
  it('creates a store in a missing folder, private, at the current schema, in WAL mode', async () => {
    const file = join(tempDir('creators-store-'), 'deep', 'er', 'store.db');
    const s = await open(file);
    expect(s.version()).toBe(SCHEMA_VERSION);
    expect((await s.stats()).schemaVersion).toBe(SCHEMA_VERSION);
    // In WAL while open (readers never wait for the writer); back in rollback mode once the last writer closes.
    const db = await rawDb(file);
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();
    await s.close();
    const { statSync } = await import('node:fs');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('migrates an empty (0-byte) file to the current schema', async () => {
    const file = storeFile();
    writeFileSync(file, '');
    const s = await open(file);
    expect(s.version()).toBe(SCHEMA_VERSION);
    await s.commit(answer('a'), ['a'], spend('r', 30));
    expect((await s.answer('a', 0))?.body).toBe(answer('a').body);
  });

  it('migrates a version-1 store (answers and spend only) to the current schema, keeping its rows', async () => {
    const file = storeFile();
    const db = await rawDb(file);
    db.exec(MIGRATIONS[0] as string);
    db.exec('PRAGMA user_version = 1');
    const a = answer('old_one');
    db.prepare(
      'INSERT INTO answers (key, base_url, route, kind, platform, subject, request, body, status, credits_milli, records, bought_at, profile) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(a.key, a.baseUrl, a.route, a.kind, a.platform, a.subject, a.request, a.body, a.status, a.creditsMilli, a.records, a.boughtAt, a.profile);
    db.prepare('INSERT INTO spend (at, profile, base_url, command, route, platform, credits_milli, records, run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      T0, 'default', a.baseUrl, 'enrich handle', a.route, 'instagram', 30, 1, 'old-run',
    );
    db.close();

    const s = await open(file);
    expect(s.version()).toBe(SCHEMA_VERSION);
    // The row is kept, exactly (big numbers in the body as they came).
    expect((await all(s.list({}))).find((x) => x.key === 'old_one')).toEqual(a);
    expect((await all(s.spend({}))).map((e) => e.run)).toEqual(['old-run']);
    // The tables of version 2 are there and work: claims, runs, pace, bought creators.
    expect(await s.claim('k', me('r1'), T0, 60_000)).toBe('claimed');
    await s.commit(answer('new_one'), ['new_one'], undefined);
    expect(await s.boughtCreators(a.baseUrl, 'instagram', 0)).toEqual(['new_one']);
    expect(await s.pace('acct').take(1000, 0, T0)).toBe(T0);
  });

  it('two handles opening one empty file at once migrate it once', async () => {
    const file = storeFile();
    const [a, b] = await Promise.all([open(file), open(file)]);
    expect(a.version()).toBe(SCHEMA_VERSION);
    expect(b.version()).toBe(SCHEMA_VERSION);
    await a.commit(answer('x'), [], undefined);
    expect(await b.answer('x', 0)).toBeDefined();
  });

  it('a read-only open of a missing file fails and creates nothing', async () => {
    const file = storeFile();
    await refusal(() => open(file, { readOnly: true }));
    expect(existsSync(file)).toBe(false);
  });

  it('openStore read-only (a dry run) finds no store in a missing or empty file, and leaves both as they were', async () => {
    const missing = storeFile();
    expect(await openStore({ file: missing, readOnly: true })).toBeUndefined();
    expect(existsSync(missing)).toBe(false);
    // What a run that created the file on a full disk leaves behind.
    const empty = storeFile();
    writeFileSync(empty, '');
    expect(await openStore({ file: empty, readOnly: true })).toBeUndefined();
    expect(readFileSync(empty)).toHaveLength(0);
    const real = await openStore({ file: empty });
    opened.push(real as SqliteStore);
    expect((real as SqliteStore).version()).toBe(SCHEMA_VERSION);
  });

  it('a read-only open (a dry run) reads but refuses every write, and does not migrate an older store', async () => {
    const file = storeFile();
    const w = await open(file);
    await w.commit(answer('a'), ['a'], spend('r', 30));
    const ro = await open(file, { readOnly: true });
    expect((await ro.answer('a', 0))?.body).toContain('"username":"a"');
    for (const write of [() => ro.commit(answer('b'), [], undefined), () => ro.claim('k', me('x'), T0, 1), () => ro.prune(T0 + 1), () => ro.reserve({ profile: 'default', worstMilli: 1, now: T0 }, me('x'))]) {
      await refusal(write);
    }
    expect((await all(w.list({}))).map((x) => x.key)).toEqual(['a']);

    const old = storeFile();
    const db = await rawDb(old);
    db.exec(MIGRATIONS[0] as string);
    db.exec('PRAGMA user_version = 1');
    db.close();
    const before = readFileSync(old);
    expect((await open(old, { readOnly: true })).version()).toBe(1);
    expect(readFileSync(old).equals(before)).toBe(true);
  });
});

describe('a store this version cannot use', () => {
  it('a newer schema (rollback journal, as another version may leave it) is refused with an upgrade hint and not changed by a byte', async () => {
    const file = storeFile();
    const db = await rawDb(file);
    db.exec('CREATE TABLE answers (key TEXT PRIMARY KEY, something_new BLOB)');
    db.exec("INSERT INTO answers VALUES ('k', x'00ff')");
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const before = readFileSync(file);
    for (const readOnly of [false, true]) {
      const err = await refusal(() => open(file, { readOnly }));
      expect(err.code).toBe('store_too_new');
      expect(err.exitCode).toBe(EXIT.ERROR);
      expect(err.message).toContain(file);
      expect(err.message).toContain(`schema ${SCHEMA_VERSION + 5}`);
      expect(err.hint).toMatch(/Upgrade creators-cli/);
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(existsSync(`${file}-wal`)).toBe(false);
    }
  });

  it('a newer schema in WAL mode is refused too, its data untouched', async () => {
    const file = storeFile();
    (await open(file)).close();
    const db = await rawDb(file);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    const before = readFileSync(file);
    expect((await refusal(() => open(file))).code).toBe('store_too_new');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('a file of garbage bytes is store_corrupt (exit 1, naming the file and what to do), and is left as it was', async () => {
    const file = storeFile();
    const garbage = Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919 + 13) % 256));
    writeFileSync(file, garbage);
    for (const readOnly of [false, true]) {
      const err = await refusal(() => open(file, { readOnly }));
      expect(err.code).toBe('store_corrupt');
      expect(err.exitCode).toBe(EXIT.ERROR);
      expect(err.message).toContain(file);
      expect(err.hint).toMatch(/Move it aside.*--no-store/);
      expect(readFileSync(file).equals(garbage)).toBe(true);
    }
  });

  it('a store whose pages are damaged (header intact) is store_corrupt on the first read', async () => {
    const file = storeFile();
    const s = await open(file);
    for (let i = 0; i < 50; i++) await s.commit(answer(`c${i}`), [`c${i}`], spend('r', 30));
    await s.close();
    // Everything moved into the main file (libsql closes for good only once its statements are
    // collected, so the close alone may leave the WAL), then every page after the first overwritten.
    const db = await rawDb(file);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
    for (let i = pageSize; i < bytes.length; i++) bytes[i] = 0xa5;
    writeFileSync(file, bytes);
    const err = await refusal(async () => {
      const damaged = await open(file);
      return damaged.answer('c1', 0);
    });
    expect(err.code).toBe('store_corrupt');
    expect(err.message).toContain(file);
  });
});

describe('answers, spend and creators', () => {
  it('an answer is found within its window and not after it; answered() names the ones held', async () => {
    const s = await open(storeFile());
    await s.commit(answer('a', { boughtAt: T0 }), ['a'], spend('r', 30));
    await s.commit(answer('b', { boughtAt: T0 - 3 * DAY }), ['b'], spend('r', 30, T0 - 3 * DAY));
    expect((await s.answer('a', T0))?.body).toContain('"username":"a"');
    expect(await s.answer('a', T0 + 1)).toBeUndefined();
    expect(await s.answer('b', T0 - DAY)).toBeUndefined();
    expect(await s.answer('missing', 0)).toBeUndefined();
    expect([...(await s.answered(['a', 'b', 'missing'], T0 - 2 * DAY))]).toEqual(['a']);
    expect([...(await s.answered(['a', 'b', 'missing'], 0))].sort()).toEqual(['a', 'b']);
  });

  it('a new answer under the same key replaces the old one; its spend is logged each time', async () => {
    const s = await open(storeFile());
    await s.commit(answer('a', { boughtAt: T0, body: '{"v":1}' }), ['a'], spend('r1', 30));
    await s.commit(answer('a', { boughtAt: T0 + DAY, body: '{"v":2}' }), ['a'], spend('r2', 30, T0 + DAY));
    expect((await s.answer('a', 0))?.body).toBe('{"v":2}');
    expect((await all(s.list({}))).map((x) => x.key)).toEqual(['a']);
    expect((await all(s.spend({}))).map((e) => e.run)).toEqual(['r1', 'r2']);
    expect(await s.boughtCreators('http://127.0.0.1:1/', 'instagram', T0 + 1)).toEqual(['a']);
  });

  it('a not-found answer is kept (free) without a spend entry; logSpend logs a charge with no answer', async () => {
    const s = await open(storeFile());
    await s.commit(answer('nobody', { status: 'not_found', creditsMilli: 0, records: 0 }), [], undefined);
    expect((await s.answer('nobody', 0))?.status).toBe('not_found');
    await s.logSpend(spend('raw', 50));
    const stats = await s.stats();
    expect(stats.spend).toMatchObject({ entries: 1, creditsMilli: 50 });
    expect(stats.answers).toEqual([{ kind: 'creator', count: 1, records: 0, creditsMilli: 0, oldest: T0, newest: T0 }]);
  });

  it('a page remembers the creators it bought, per base URL and platform', async () => {
    const s = await open(storeFile());
    await s.commit(answer('page1', { kind: 'page', subject: null, records: 2, route: 'discovery' }), ['ann', 'bob'], spend('r', 20));
    await s.commit(answer('page2', { kind: 'page', subject: null, records: 1, route: 'discovery', baseUrl: 'https://api.example/' }), ['cat'], undefined);
    await s.commit(answer('yt', { platform: 'youtube' }), ['dan'], undefined);
    expect(await s.boughtCreators('http://127.0.0.1:1/', 'instagram', 0)).toEqual(['ann', 'bob']);
    expect(await s.boughtCreators('https://api.example/', 'instagram', 0)).toEqual(['cat']);
    expect(await s.boughtCreators('http://127.0.0.1:1/', 'youtube', 0)).toEqual(['dan']);
  });

  it('list filters by platform, kind and age, newest first', async () => {
    const s = await open(storeFile());
    await s.commit(answer('old', { boughtAt: T0 - 10 * DAY }), [], undefined);
    await s.commit(answer('new', { boughtAt: T0 }), [], undefined);
    await s.commit(answer('yt', { platform: 'youtube', boughtAt: T0 - DAY }), [], undefined);
    await s.commit(answer('pg', { kind: 'page', subject: null, boughtAt: T0 - 2 * DAY }), [], undefined);
    expect((await all(s.list({}))).map((a) => a.key)).toEqual(['new', 'yt', 'pg', 'old']);
    expect((await all(s.list({ platform: 'instagram', kind: 'creator' }))).map((a) => a.key)).toEqual(['new', 'old']);
    expect((await all(s.list({ since: T0 - 5 * DAY, until: T0 }))).map((a) => a.key)).toEqual(['yt', 'pg']);
  });

  it('prune deletes answers bought before a time (and the creators they bought); the spend log stays', async () => {
    const s = await open(storeFile());
    await s.commit(answer('old', { boughtAt: T0 - 100 * DAY }), ['old'], spend('r', 30, T0 - 100 * DAY));
    await s.commit(answer('new', { boughtAt: T0 }), ['new'], spend('r', 30));
    expect(await s.prune(T0 - 90 * DAY)).toBe(1);
    expect(await s.answer('old', 0)).toBeUndefined();
    expect(await s.answer('new', 0)).toBeDefined();
    expect(await s.boughtCreators('http://127.0.0.1:1/', 'instagram', 0)).toEqual(['new']);
    expect((await s.stats()).spend.entries).toBe(2);
    expect(await s.prune(T0 - 90 * DAY)).toBe(0);
  });

  it('forget deletes a creator\'s answers on one platform and the pages that bought them', async () => {
    const s = await open(storeFile());
    await s.commit(answer('ann-raw', { subject: 'ann' }), ['ann'], undefined);
    await s.commit(answer('ann-full', { subject: 'ann', route: 'creators/enrich/handle/full' }), ['ann'], undefined);
    await s.commit(answer('ann-yt', { subject: 'ann', platform: 'youtube' }), ['ann'], undefined);
    await s.commit(answer('page', { kind: 'page', subject: null }), ['ann', 'bob'], undefined);
    await s.commit(answer('other-page', { kind: 'page', subject: null }), ['bob'], undefined);
    expect(await s.forget('instagram', 'ann')).toEqual({ creator: 2, page: 1 });
    expect((await all(s.list({}))).map((a) => a.key).sort()).toEqual(['ann-yt', 'other-page']);
    expect(await s.boughtCreators('http://127.0.0.1:1/', 'instagram', 0)).toEqual(['bob']);
    expect(await s.forget('instagram', 'ann')).toEqual({ creator: 0, page: 0 });
  });
});

describe('claims', () => {
  it('a live claim holds off another run until released; the holder itself may claim again', async () => {
    const s = await open(storeFile());
    expect(await s.claim('k', me('a'), T0, 60_000)).toBe('claimed');
    expect(await s.claim('k', me('a'), T0 + 1, 60_000)).toBe('claimed');
    expect(await s.claim('k', me('b'), T0 + 2, 60_000)).toEqual(me('a'));
    // Releasing someone else's claim does nothing.
    await s.release('k', me('b'));
    expect(await s.claim('k', me('b'), T0 + 3, 60_000)).toEqual(me('a'));
    await s.release('k', me('a'));
    expect(await s.claim('k', me('b'), T0 + 4, 60_000)).toBe('claimed');
  });

  it('a claim older than the stale time is taken over', async () => {
    const s = await open(storeFile());
    expect(await s.claim('k', me('a'), T0, 60_000)).toBe('claimed');
    expect(await s.claim('k', me('b'), T0 + 59_999, 60_000)).toEqual(me('a'));
    expect(await s.claim('k', me('b'), T0 + 60_000, 60_000)).toBe('claimed');
  });

  it('a claim of a dead process on this host is taken over at once; one on another host is not', async () => {
    const s = await open(storeFile());
    const dead = { run: 'dead', pid: deadPid(), host: hostname() };
    expect(await s.claim('k', dead, T0, 60_000)).toBe('claimed');
    expect(await s.claim('k', me('b'), T0 + 1, 60_000)).toBe('claimed');
    const elsewhere = { run: 'far', pid: deadPid(), host: `${hostname()}-elsewhere` };
    expect(await s.claim('j', elsewhere, T0, 60_000)).toBe('claimed');
    expect(await s.claim('j', me('b'), T0 + 1, 60_000)).toEqual(elsewhere);
  });

  it('claims are seen across two connections to one file; endRun drops a run\'s claims', async () => {
    const file = storeFile();
    const [a, b] = [await open(file), await open(file)];
    expect(await a.claim('k', me('a'), T0, 60_000)).toBe('claimed');
    expect(await b.claim('k', me('b'), T0, 60_000)).toEqual(me('a'));
    await a.endRun('a');
    expect(await b.claim('k', me('b'), T0, 60_000)).toBe('claimed');
  });
});

describe('budgets', () => {
  const daily = (worstMilli: number, now = T0): BudgetCheck => ({ profile: 'default', worstMilli, now, daily: { limitMilli: 1000, since: now - (now % DAY) } });

  it('two connections to one file cannot reserve past one budget together', async () => {
    const file = storeFile();
    const [a, b] = [await open(file), await open(file)];
    const [ra, rb] = await Promise.all([a.reserve(daily(800), me('a')), b.reserve(daily(800), me('b'))]);
    const refused = [ra, rb].filter((r) => r !== undefined);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toEqual({ period: 'daily', limitMilli: 1000, spentMilli: 0, reservedMilli: 800 });
  });

  it('reservations add up; what a run spent counts once (spent, not also reserved); an ended run frees the rest', async () => {
    const file = storeFile();
    const [a, b] = [await open(file), await open(file)];
    expect(await a.reserve(daily(400), me('a'))).toBeUndefined();
    expect(await b.reserve(daily(400), me('b'))).toBeUndefined();
    expect(await b.reserve(daily(400), me('c'))).toMatchObject({ reservedMilli: 800 });
    // Run a spends 300 of its 400: 300 spent + 100 still reserved by a + 400 by b.
    await a.logSpend(spend('a', 300));
    expect(await b.reserve(daily(201), me('c'))).toEqual({ period: 'daily', limitMilli: 1000, spentMilli: 300, reservedMilli: 500 });
    expect(await b.reserve(daily(200), me('c'))).toBeUndefined();
    await b.endRun('c');
    await a.endRun('a');
    expect(await b.reserve(daily(300), me('d'))).toBeUndefined();
  });

  it('the reservation of a dead process on this host is dropped; yesterday\'s spend does not count today', async () => {
    const s = await open(storeFile());
    const dead = { run: 'dead', pid: deadPid(), host: hostname() };
    expect(await s.reserve(daily(900), dead)).toBeUndefined();
    await s.logSpend(spend('dead', 900, T0 - DAY));
    expect(await s.reserve(daily(1000), me('a'))).toBeUndefined();
  });

  it('a monthly budget counts the whole month', async () => {
    const s = await open(storeFile());
    await s.logSpend(spend('x', 700, T0 - 5 * DAY));
    const monthly = (worstMilli: number): BudgetCheck => ({ profile: 'default', worstMilli, now: T0, monthly: { limitMilli: 1000, since: T0 - 10 * DAY } });
    expect(await s.reserve(monthly(301), me('a'))).toEqual({ period: 'monthly', limitMilli: 1000, spentMilli: 700, reservedMilli: 0 });
    expect(await s.reserve(monthly(300), me('a'))).toBeUndefined();
  });
});

describe('locks and the shared pace', () => {
  it('a write waits for another connection\'s transaction up to the busy timeout, then fails as store_busy (exit 9)', async () => {
    const file = storeFile();
    (await open(file)).close();
    const s = await open(file, { busyTimeoutMs: 200 });
    const holder = await rawDb(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      const err = await refusal(() => s.claim('k', me('a'), T0, 60_000));
      expect(err.code).toBe('store_busy');
      expect(err.exitCode).toBe(EXIT.BUSY);
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      // Reads are not held by a writer (WAL).
      expect(await s.answer('k', 0)).toBeUndefined();
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(await s.claim('k', me('a'), T0, 60_000)).toBe('claimed');
  });

  it('once a write has waited the whole busy timeout, the handle\'s later writes do not wait again (the process is not blocked once per row in flight)', async () => {
    const file = storeFile();
    (await open(file)).close();
    const s = await open(file, { busyTimeoutMs: 1500 });
    const holder = await rawDb(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      let started = Date.now();
      expect((await refusal(() => s.claim('a', me('a'), T0, 60_000))).code).toBe('store_busy');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
      started = Date.now();
      for (const key of ['b', 'c', 'd']) expect((await refusal(() => s.claim(key, me('a'), T0, 60_000))).code).toBe('store_busy');
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(await s.claim('k', me('a'), T0, 60_000)).toBe('claimed');
  });

  it('two connections take consecutive slots of one pace', async () => {
    const file = storeFile();
    const [a, b] = [await open(file), await open(file)];
    expect(await a.pace('acct').take(100, 0, T0)).toBe(T0);
    expect(await b.pace('acct').take(100, 0, T0)).toBe(T0 + 100);
    expect(await a.pace('acct').take(100, 0, T0)).toBe(T0 + 200);
    // Another account has its own pace.
    expect(await b.pace('other').take(100, 0, T0)).toBe(T0);
    // A 429's wait pushes every later slot back.
    b.pace('acct').delay(T0 + 5000);
    expect(await a.pace('acct').take(100, 0, T0)).toBe(T0 + 5000);
  });
});

describe('another program\'s database', () => {
  it('an SQLite file at version 0 that already has tables is refused, not given ours', async () => {
    const file = join(tempDir('creators-foreign-'), 'app.db');
    const { default: Database } = (await import('libsql')) as unknown as { default: new (f: string) => { exec(sql: string): void; close(): void } };
    const other = new Database(file);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES (\'keep me\')');
    other.close();
    const before = readFileSync(file);
    const err = await openSqliteStore({ file }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'store_foreign', exitCode: 1 });
    expect((err as Error).message).toContain(file);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

describe('closing', () => {
  it('the last writer leaves the file alone in its folder (no -wal or -shm), and a reader then changes nothing', async () => {
    const dir = tempDir('creators-close-');
    const file = join(dir, 'store.db');
    const w = await openSqliteStore({ file });
    await w.commit(answer('a'), ['a'], spend('r', 30));
    await w.close();
    expect(readdirSync(dir)).toEqual(['store.db']);
    const before = readFileSync(file);
    const r = await openSqliteStore({ file, readOnly: true });
    expect((await r.answer('a', 0))?.body).toContain('"username":"a"');
    await r.close();
    expect(readdirSync(dir)).toEqual(['store.db']);
    expect(readFileSync(file).equals(before)).toBe(true);
    // And it opens again for writing, in WAL, with what it held.
    const again = await openSqliteStore({ file });
    expect((await again.answer('a', 0))?.records).toBe(1);
    await again.close();
  });
});
