/**
 * The store's SQLite engine against real files (never a mock): migrations from an empty file and from
 * an older schema, a newer schema and a corrupt file refused without a byte changed, the busy timeout,
 * WAL and closing. What every engine does alike (answers, claims, budgets, the pace) is the shared
 * family in engines.test.ts.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CliError, EXIT } from '../../../src/lib/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import { openStore } from '../../../src/lib/store/open.js';
import { openSqliteStore, PAGE_SIZE, type SqliteStore } from '../../../src/lib/store/sqlite.js';
import { all, answer, me, spend, T0 } from '../../helpers/store-records.js';
import { tempDir } from '../../helpers/temp.js';

interface RawDb {
  exec(sql: string): void;
  prepare(sql: string): {
    get(...p: unknown[]): unknown;
    all(...p: unknown[]): unknown[];
    run(...p: unknown[]): unknown;
  };
  close(): void;
}

/** A plain libsql connection, outside the engine (to build old, new and locked files). */
async function rawDb(file: string): Promise<RawDb> {
  const { default: Database } = (await import('libsql')) as unknown as { default: new (f: string) => RawDb };
  return new Database(file);
}

/** A pid no process has (above the kernel's pid_max). */
const DEAD_PID = 4_194_305;

/** A key as written before schema 5: a whole SHA-256 in hex. */
const OLD_PAGE_KEY = 'ab12'.repeat(16);

/**
 * The rows of an older version as schema 5 keeps them: keys by their first 32 hex digits; a creator answer's own
 * creator not a row of bought_creators (read from the answer).
 */
function asMigrated(table: string, rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows
    .filter((r) => table !== 'bought_creators' || r.handle !== 'old_creator')
    .map((r) => (typeof r.key === 'string' ? { ...r, key: r.key.slice(0, 32) } : r))
    .sort((x, y) => (table === 'spend' ? 0 : String(x.key).localeCompare(String(y.key), 'en')));
}

const migratedRows = (rows: Record<string, Record<string, unknown>[]>): Record<string, Record<string, unknown>[]> =>
  Object.fromEntries(Object.entries(rows).map(([table, list]) => [table, asMigrated(table, list)]));

/** The spend log with its names (schema 6: a row of spend_names), in the columns it had before. */
const SPEND_NAMED = `(SELECT s.id, s.at, n.profile, n.base_url, n.command, n.route, NULLIF(n.platform, '') AS platform,
  s.credits_milli, s.records, n.run, s.origin FROM spend s JOIN spend_names n ON n.id = s.names) AS spend`;

/** The rows an older version wrote into the tables it had (its columns only), each table in its first column's order. */
function olderRows(v: number): Record<string, Record<string, unknown>[]> {
  const a = answer('old_creator');
  const rows: Record<string, Record<string, unknown>[]> = {
    answers: [
      {
        key: a.key,
        base_url: a.baseUrl,
        route: a.route,
        kind: a.kind,
        platform: a.platform,
        subject: a.subject,
        request: a.request,
        body: a.body,
        status: a.status,
        credits_milli: a.creditsMilli,
        records: a.records,
        bought_at: a.boughtAt,
        profile: a.profile,
      },
    ],
    // A charge of 2^53 + 1 milli: kept to the unit.
    spend: [
      {
        id: 1,
        at: T0,
        profile: 'default',
        base_url: a.baseUrl,
        command: 'enrich handle',
        route: a.route,
        platform: 'instagram',
        credits_milli: 30,
        records: 1,
        run: 'old-run',
        ...(v >= 3 ? { origin: 'elsewhere:7' } : {}),
      },
      {
        id: 2,
        at: T0 + 1,
        profile: 'default',
        base_url: a.baseUrl,
        command: 'enrich handle',
        route: a.route,
        platform: 'instagram',
        credits_milli: '9007199254740993',
        records: 1,
        run: 'old-run',
        ...(v >= 3 ? { origin: null } : {}),
      },
    ],
  };
  if (v >= 2) {
    // A page answer under a whole SHA-256 key (64 hex digits, as before schema 5), with the creators it bought.
    const page = answer(OLD_PAGE_KEY, { kind: 'page', subject: null, route: 'creators/search', records: 2 });
    rows.answers?.push({
      key: page.key,
      base_url: page.baseUrl,
      route: page.route,
      kind: page.kind,
      platform: page.platform,
      subject: page.subject,
      request: page.request,
      body: page.body,
      status: page.status,
      credits_milli: page.creditsMilli,
      records: page.records,
      bought_at: page.boughtAt,
      profile: page.profile,
    });
    rows.bought_creators = [
      { key: a.key, base_url: a.baseUrl, platform: 'instagram', handle: 'old_creator', bought_at: T0 },
      { key: OLD_PAGE_KEY, base_url: a.baseUrl, platform: 'instagram', handle: 'listed_one', bought_at: T0 },
      { key: OLD_PAGE_KEY, base_url: a.baseUrl, platform: 'instagram', handle: 'listed_two', bought_at: T0 },
    ];
    // On this host, a process gone and a pid another process has now (pid 1 always runs); on another host, silent since.
    rows.claims = [
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
  return rows;
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

describe('opening and migrating', () => {
  it('creates a store in a missing folder, private, at the current schema, in WAL mode', async () => {
    const file = join(tempDir('creators-store-'), 'deep', 'er', 'store.db');
    const s = await open(file);
    expect(s.version()).toBe(SCHEMA_VERSION);
    expect((await s.stats()).schemaVersion).toBe(SCHEMA_VERSION);
    // In WAL while open (readers never wait for the writer), and still once closed.
    const db = await rawDb(file);
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();
    await s.close();
    const { statSync } = await import('node:fs');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const after = await rawDb(file);
    expect((after.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    after.close();
  });

  it('a plain reader holding a transaction on a closed store never makes the next run wait: it opens, reuses and buys', async () => {
    const file = storeFile();
    const first = await open(file);
    await first.commit(answer('held'), ['held'], spend('r', 30));
    await first.close();
    // A `sqlite3` shell in the middle of a read (BEGIN; SELECT ...), as a user inspecting the store would be.
    const reader = await rawDb(file);
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM answers').get();
    try {
      const s = await open(file, { busyTimeoutMs: 200 });
      expect((await s.answer('held', 0))?.body).toBe(answer('held').body);
      expect(await s.claim('new', me('r'))).toBe('claimed');
      await s.commit(answer('new'), ['new'], spend('r', 30), me('r'));
      expect((await s.answer('new', 0))?.status).toBe('ok');
      expect(await s.claim('new', me('other'))).toBe('claimed');
    } finally {
      reader.exec('COMMIT');
      reader.close();
    }
  });

  it('a new store has 8 KB pages (three answers a page); one made with 4 KB pages keeps them and its rows, and works', async () => {
    const pageSize = async (file: string): Promise<number> => {
      const db = await rawDb(file);
      try {
        return Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
      } finally {
        db.close();
      }
    };
    const fresh = storeFile();
    const s = await open(fresh);
    await s.commit(answer('a'), ['a'], spend('r', 30));
    await s.close();
    expect(await pageSize(fresh)).toBe(PAGE_SIZE);
    const older = storeFile();
    const db = await rawDb(older);
    for (const m of MIGRATIONS) db.exec(m);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.prepare(
      "INSERT INTO answers (key, base_url, route, kind, platform, subject, request, body, status, credits_milli, records, bought_at, profile) VALUES ('old', 'http://h/', 'r', 'creator', 'instagram', 'old', '{}', '{\"v\":1}', 'ok', 30, 1, 5, 'default')",
    ).run();
    db.close();
    expect(await pageSize(older)).toBe(4096);
    const o = await open(older);
    expect((await o.answer('old', 0))?.body).toBe('{"v":1}');
    await o.commit(answer('b'), ['b'], spend('r2', 30));
    expect((await o.answer('b', 0))?.status).toBe('ok');
    await o.close();
    expect(await pageSize(older)).toBe(4096);
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
    ).run(
      a.key,
      a.baseUrl,
      a.route,
      a.kind,
      a.platform,
      a.subject,
      a.request,
      a.body,
      a.status,
      a.creditsMilli,
      a.records,
      a.boughtAt,
      a.profile,
    );
    db.prepare(
      'INSERT INTO spend (at, profile, base_url, command, route, platform, credits_milli, records, run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(T0, 'default', a.baseUrl, 'enrich handle', a.route, 'instagram', 30, 1, 'old-run');
    db.close();

    const s = await open(file);
    expect(s.version()).toBe(SCHEMA_VERSION);
    // The row is kept, exactly (big numbers in the body as they came).
    expect((await all(s.list({}))).find((x) => x.key === 'old_one')).toEqual(a);
    expect((await all(s.spend({}))).map((e) => e.run)).toEqual(['old-run']);
    // The tables of version 2 are there and work: claims, runs, pace, bought creators (a creator answer's own
    // creator is read from the answer: the one bought before version 2 counts too).
    expect(await s.claim('k', me('r1'))).toBe('claimed');
    await s.commit(answer('new_one'), ['new_one'], undefined);
    expect(await s.boughtCreators(a.baseUrl, 'instagram', 0)).toEqual(['new_one', 'old_one']);
    expect(await s.pace('acct').take(1000, 0, T0)).toBe(T0);
  });

  for (let v = 1; v < SCHEMA_VERSION; v++) {
    it(`migrates a version-${v} store when opened: every row and value kept, holders from before not alive, then it reuses and buys`, async () => {
      const file = storeFile();
      const db = await rawDb(file);
      for (let m = 0; m < v; m++) db.exec(MIGRATIONS[m] as string);
      db.exec(`PRAGMA user_version = ${v}`);
      // A version-5 store holds its rows as version 5 wrote them.
      const rows = v >= 5 ? migratedRows(olderRows(v)) : olderRows(v);
      for (const [table, list] of Object.entries(rows)) {
        for (const r of list)
          db.prepare(
            `INSERT INTO ${table} (${Object.keys(r).join(', ')}) VALUES (${Object.keys(r)
              .map(() => '?')
              .join(', ')})`,
          ).run(...Object.values(r));
      }
      const storeIdBefore =
        v >= 3
          ? (db.prepare("SELECT value FROM meta WHERE name = 'store_id'").get() as { value: string }).value
          : undefined;
      db.close();

      const s = await open(file);
      expect(s.version()).toBe(SCHEMA_VERSION);
      const after = await rawDb(file);
      try {
        const added: Record<string, Record<string, string | null>> = {
          claims: { boot: null, start: null, seen_at: '0' },
          runs: { boot: null, start: null, seen_at: '0' },
          spend: v < 3 ? { origin: null } : {},
        };
        for (const [table, list] of Object.entries(rows)) {
          const cols = [...Object.keys(list[0] ?? {}), ...Object.keys(added[table] ?? {})];
          const found = after
            .prepare(
              `SELECT ${cols.map((c) => `CAST(${c} AS TEXT) AS ${c}`).join(', ')} FROM ${table === 'spend' ? SPEND_NAMED : table} ORDER BY ${cols[0]}`,
            )
            .all();
          expect(found, table).toEqual(
            asMigrated(table, list).map((r) => ({
              ...Object.fromEntries(Object.entries(r).map(([k, x]) => [k, x === null ? null : String(x)])),
              ...(added[table] ?? {}),
            })),
          );
        }
        const storeId = (after.prepare("SELECT value FROM meta WHERE name = 'store_id'").get() as { value: string })
          .value;
        expect(storeId).toMatch(/^[0-9a-f]{32}$/);
        if (storeIdBefore) expect(storeId).toBe(storeIdBefore);
      } finally {
        after.close();
      }
      expect((await s.answer('old_creator', 0))?.body).toBe(answer('old_creator').body);
      // The sum of a 2^53 charge is read without overflow (as a float: the row itself keeps every unit, above).
      expect((await s.stats()).spend).toMatchObject({ entries: 2, creditsMilli: expect.closeTo(9007199254740993, -3) });
      if (v >= 2) {
        const held = (await s.shared())
          .filter((e) => e.kind !== 'pace')
          .map((e) => `${e.kind} ${e.id}: ${e.state}`)
          .sort();
        expect(held).toEqual([
          'claim k-dead: dead',
          'claim k-remote: silent',
          'claim k-reused: dead',
          'reservation r-dead: dead',
          'reservation r-remote: silent',
          'reservation r-reused: dead',
        ]);
        for (const k of ['k-dead', 'k-remote', 'k-reused']) expect(await s.claim(k, me('after'))).toBe('claimed');
        // 15 credits reserved by the runs from before would refuse this 1-credit budget if they still counted.
        expect(
          await s.reserve(
            {
              profile: 'default',
              worstMilli: 500,
              now: Date.now(),
              daily: { limitMilli: 1000, since: Date.now() - 3_600_000 },
            },
            me('after'),
          ),
        ).toBeUndefined();
        await s.endRun('after');
      }
      await s.commit(answer('new_one'), ['new_one'], spend('r', 30, T0, 'here:1'));
      expect((await s.answer('new_one', 0))?.status).toBe('ok');
      expect(await s.boughtCreators(answer('x').baseUrl, 'instagram', 0)).toEqual(
        v >= 2 ? ['listed_one', 'listed_two', 'new_one', 'old_creator'] : ['new_one', 'old_creator'],
      );
      if (v >= 2) {
        // The page is found by its key's first 32 hex digits (as this version names it), with its creators.
        expect((await s.answer(OLD_PAGE_KEY.slice(0, 32), 0))?.records).toBe(2);
        const dumped = await s.dumpAnswers(undefined, 10);
        expect(dumped.map((d) => [d.answer.key, d.creators])).toEqual([
          [OLD_PAGE_KEY.slice(0, 32), ['listed_one', 'listed_two']],
          ['new_one', ['new_one']],
          ['old_creator', ['old_creator']],
        ]);
      }
    });
  }

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
    for (const write of [
      () => ro.commit(answer('b'), [], undefined),
      () => ro.claim('k', me('x')),
      () => ro.prune(T0 + 1),
      () => ro.reserve({ profile: 'default', worstMilli: 1, now: T0 }, me('x')),
    ]) {
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

describe('the spend log (schema 6)', () => {
  it('names each run and command once, not in every entry; the entries read back as logged, a platform of none as none', async () => {
    const file = storeFile();
    const s = await open(file);
    const logged = [
      spend('r1', 10, T0, 'o-1'),
      spend('r1', 20, T0 + 1, 'o-2'),
      spend('r1', 30, T0 + 2, 'o-3'),
      { ...spend('r2', 40, T0 + 3, 'o-4'), platform: null, command: 'credits' },
    ];
    for (const e of logged) await s.logSpend(e);
    await s.logSpend(spend('r1', 10, T0, 'o-1'));
    expect(await all(s.spend({}))).toEqual(logged);
    expect((await all(s.spend({ profile: 'default', since: T0 + 2 }))).map((e) => e.creditsMilli)).toEqual([30, 40]);
    const db = await rawDb(file);
    try {
      // Two rows of names for five charges: the first run's three share one, and a charge already logged adds none
      // (nor moves the ids on: an id stays one byte).
      expect(db.prepare('SELECT id, run, platform FROM spend_names ORDER BY id').all()).toEqual([
        { id: 1, run: 'r1', platform: 'instagram' },
        { id: 2, run: 'r2', platform: '' },
      ]);
      expect(db.prepare('SELECT names FROM spend ORDER BY id').all()).toEqual([
        { names: 1 },
        { names: 1 },
        { names: 1 },
        { names: 2 },
      ]);
    } finally {
      db.close();
    }
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

/**
 * The wait for another process's write lock is measured on a fake clock that moves only here, 25 ms a step, until
 * `write` settles: how long it waited is then a count of steps, not of how loaded the machine is.
 */
async function onFakeClock(write: () => Promise<unknown>): Promise<{ err: CliError; waitedMs: number }> {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  try {
    let settled = false;
    const outcome = refusal(write).finally(() => {
      settled = true;
    });
    const started = Date.now();
    for (let step = 0; !settled && step < 2000; step++) await vi.advanceTimersByTimeAsync(25);
    return { err: await outcome, waitedMs: Date.now() - started };
  } finally {
    vi.useRealTimers();
  }
}

describe('locks and the shared pace', () => {
  it("a write waits for another connection's transaction up to the busy timeout, then fails as store_busy (exit 9)", async () => {
    const file = storeFile();
    (await open(file)).close();
    const s = await open(file, { busyTimeoutMs: 200 });
    const holder = await rawDb(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const { err, waitedMs } = await onFakeClock(() => s.claim('k', me('a')));
      expect(err.code).toBe('store_busy');
      expect(err.exitCode).toBe(EXIT.BUSY);
      expect(waitedMs).toBeGreaterThanOrEqual(200);
      expect(waitedMs).toBeLessThan(300);
      // Reads are not held by a writer (WAL).
      expect(await s.answer('k', 0)).toBeUndefined();
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(await s.claim('k', me('a'))).toBe('claimed');
  });

  it("once a write has waited the whole busy timeout, the handle's later writes do not wait again (the process is not blocked once per row in flight)", async () => {
    const file = storeFile();
    (await open(file)).close();
    const s = await open(file, { busyTimeoutMs: 300 });
    const holder = await rawDb(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const first = await onFakeClock(() => s.claim('a', me('a')));
      expect(first.err.code).toBe('store_busy');
      expect(first.waitedMs).toBeGreaterThanOrEqual(300);
      for (const key of ['b', 'c', 'd']) {
        const later = await onFakeClock(() => s.claim(key, me('a')));
        expect(later.err.code).toBe('store_busy');
        // Waiting again would take the fake clock to the timeout: it stays where it was.
        expect(later.waitedMs).toBeLessThan(300);
      }
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(await s.claim('k', me('a'))).toBe('claimed');
  });
});

describe("another program's database", () => {
  it('an SQLite file at version 0 that already has tables is refused, not given ours', async () => {
    const file = join(tempDir('creators-foreign-'), 'app.db');
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (f: string) => { exec(sql: string): void; close(): void };
    };
    const other = new Database(file);
    other.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep me')");
    other.close();
    const before = readFileSync(file);
    const err = await openSqliteStore({ file }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'store_foreign', exitCode: 1 });
    expect((err as Error).message).toContain(file);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

describe('closing', () => {
  it('the last writer folds the WAL into the file (a copy of the file alone holds everything), and a reader then changes nothing', async () => {
    const dir = tempDir('creators-close-');
    const file = join(dir, 'store.db');
    const w = await openSqliteStore({ file });
    await w.commit(answer('a'), ['a'], spend('r', 30));
    await w.close();
    // The file stays in WAL mode (a reader never blocks a purchase); its WAL is empty.
    expect(statSync(`${file}-wal`).size).toBe(0);
    const before = readFileSync(file);
    const copy = join(dir, 'copy.db');
    writeFileSync(copy, before);
    const c = await openSqliteStore({ file: copy, readOnly: true });
    expect((await c.answer('a', 0))?.records).toBe(1);
    await c.close();
    const r = await openSqliteStore({ file, readOnly: true });
    expect((await r.answer('a', 0))?.body).toContain('"username":"a"');
    await r.close();
    expect(readFileSync(file).equals(before)).toBe(true);
    // And it opens again for writing, in WAL, with what it held.
    const again = await openSqliteStore({ file });
    expect((await again.answer('a', 0))?.records).toBe(1);
    await again.close();
  });
});
