/**
 * One SQLite file per profile through `libsql` (prebuilt binaries, no install script: README "Never pay
 * twice"): the dialect of `core.ts` for a file. WAL, kept when closed, so a reader never blocks a purchase; a
 * busy timeout, so processes take turns; `synchronous=FULL`, so a committed answer survives a power cut.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { BusyError, CliError, InterruptedError } from '../errors.js';
import { StoreCore } from './core.js';
import { type Dialect, type Row, type Statement, type Tx, type TxKind, spell } from './dialect.js';
import { storeError } from './errors.js';
import { prepareStoreFile } from './location.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

interface Db {
  prepare(sql: string): Stmt;
  exec(sql: string): void;
  close(): void;
}
interface Stmt {
  readonly reader: boolean;
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** How long a write waits for another process's transaction before giving up (exit 9). */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

export interface SqliteOptions {
  file: string;
  busyTimeoutMs?: number | undefined;
  /** Opens without writing (no migration, no creation): `store path|stats|list|export` and dry runs. */
  readOnly?: boolean | undefined;
  /** The store's clock (ms): a file is shared only by this machine's processes, which read the same clock. */
  now?: (() => number) | undefined;
  /** The run's Ctrl-C: a write waiting for another process's lock stops waiting (exit 130). */
  signal?: AbortSignal | undefined;
}

/** Bytes a page of a new store (SQLite's default is 4,096). */
export const PAGE_SIZE = 8192;

/** How long one try for the write lock may block the (synchronous) binding; the wait around it is the event loop's. */
const LOCK_TRY_MS = 50;

/** `{now}` is bound as the last parameter (see `SqliteDialect.q`). */
const WORDS = { now: '{now}', greatest: 'MAX', sum: 'TOTAL', seq: 'rowid' } as const;

/**
 * The switch to WAL needs the file to itself and SQLite does not wait for that: waited out here, up to the busy
 * timeout.
 */
async function enterWal(db: Db, busyMs: number): Promise<void> {
  const until = Date.now() + busyMs;
  for (;;) {
    try {
      const mode = (db.prepare('PRAGMA journal_mode = WAL').get() as Row | undefined)?.journal_mode;
      if (String(mode).toLowerCase() === 'wal') return;
    } catch (err) {
      if (!/^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown }).code ?? ''))) throw err;
    }
    if (Date.now() >= until) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function openSqliteStore(o: SqliteOptions): Promise<SqliteStore> {
  const { default: Database } = (await import('libsql')) as unknown as {
    default: new (file: string, options?: Record<string, unknown>) => Db;
  };
  const file = path.resolve(o.file);
  const busy = o.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  let db: Db | undefined;
  try {
    // A regular file, no link, created private before SQLite opens it (its -wal and -shm files take its mode);
    // read-only, a missing file is an error: libsql (0.5) ignores `fileMustExist` and would create it.
    if (!prepareStoreFile(file, { create: !o.readOnly }).exists && o.readOnly)
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
    db = new Database(file, { timeout: busy });
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busy))}`);
    // libsql (0.5) ignores `readonly` too: the connection itself refuses writes instead.
    if (o.readOnly) db.exec('PRAGMA query_only = ON');
    const dialect = new SqliteDialect(db, file, Boolean(o.readOnly), o.now ?? Date.now, busy, o.signal);
    const store = new SqliteStore(dialect);
    // A newer schema is refused before anything is set: switching a file to WAL rewrites its header,
    // and a store another version wrote must not change by a byte.
    store.checkVersion();
    if (!o.readOnly) {
      // Before its first page: a new file's pages hold three answers each (a 2.6 KB record took a whole 4 KB page).
      // A file made before keeps its size; README "Store size" says how to compact it.
      if (store.empty()) db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
      await enterWal(db, busy);
      db.exec('PRAGMA synchronous = FULL');
    }
    db.exec('PRAGMA foreign_keys = ON');
    store.migrate(Boolean(o.readOnly));
    // From here a write waits for the lock in short tries with the event loop free between them (`begin`).
    db.exec(`PRAGMA busy_timeout = ${Math.min(LOCK_TRY_MS, Math.max(0, Math.floor(busy)))}`);
    return store;
  } catch (err) {
    try {
      db?.close();
    } catch {
      // Closing a half-opened handle: nothing to keep.
    }
    throw storeError(err, file);
  }
}

/**
 * A file's transactions in this process one at a time, across its connections: a transaction awaits between
 * its statements, and a second connection's BEGIN would block the whole (synchronous) process meanwhile,
 * the first never finishing. Between processes, SQLite's own lock and busy timeout.
 */
const fileTurns = new Map<string, { last: Promise<unknown> }>();

function turnsOf(file: string): { last: Promise<unknown> } {
  let t = fileTurns.get(file);
  if (!t) {
    t = { last: Promise.resolve() };
    fileTurns.set(file, t);
  }
  return t;
}

/** SQLite's side of the dialect: one connection, its transactions taken in turn (the binding is synchronous). */
export class SqliteDialect implements Dialect {
  readonly engine = 'sqlite' as const;
  readonly words = WORDS;
  private readonly stmts = new Map<string, { stmt: Stmt; now: boolean }>();
  private busyGaveUp = false;
  /** The file's turns in this process (see `turns`). */
  private readonly turns: { last: Promise<unknown> };

  constructor(
    readonly db: Db,
    readonly location: string,
    private readonly readOnly: boolean,
    private readonly clock: () => number,
    private readonly busyMs: number = DEFAULT_BUSY_TIMEOUT_MS,
    private readonly signal?: AbortSignal | undefined,
  ) {
    this.turns = turnsOf(location);
  }

  /**
   * The statement prepared once. Its `?` are numbered and `{now}` is one more numbered parameter, bound to the
   * clock each time it runs (SQLite's own clock could not follow an injected one).
   */
  private prepared(sql: string): { stmt: Stmt; now: boolean } {
    let s = this.stmts.get(sql);
    if (!s) {
      let n = 0;
      const numbered = spell(sql, WORDS).replace(/\?/g, () => `?${++n}`);
      const now = numbered.includes('{now}');
      s = { stmt: this.db.prepare(numbered.replace(/\{now\}/g, `?${n + 1}`)), now };
      this.stmts.set(sql, s);
    }
    return s;
  }

  q(sql: string): Stmt {
    return this.prepared(sql).stmt;
  }

  /** `now`: the clock when the caller asked (the statements of one call see one time, however long they queue). */
  private exec(sql: string, params: readonly unknown[] | undefined, now: number): Row[] | number {
    const { stmt, now: wantsNow } = this.prepared(sql);
    const args = (params ?? []).map((p) => (p === undefined ? null : p));
    if (wantsNow) args.push(Math.floor(now));
    return stmt.reader ? (stmt.all(...args) as Row[]) : stmt.run(...args).changes;
  }

  private txAt(now: number): Tx {
    return {
      all: async (sql, params) => {
        const out = this.exec(sql, params, now);
        return typeof out === 'number' ? [] : out;
      },
      run: async (sql, params) => {
        const out = this.exec(sql, params, now);
        return typeof out === 'number' ? out : out.length;
      },
    };
  }

  inList(column: string, values: readonly string[]): Statement {
    return { sql: `${column} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(values)] };
  }

  async batch(kind: TxKind, statements: readonly Statement[]): Promise<Row[][]> {
    const now = this.clock();
    const each = (): Row[][] =>
      statements.map((s) => {
        const out = this.exec(s.sql, s.params, now);
        return typeof out === 'number' ? [] : out;
      });
    // One read needs no transaction of its own (the hot path of reuse).
    if (kind === 'read' && statements.length === 1) return this.inTurn(() => this.read(each));
    return this.tx(kind, async () => each());
  }

  async tx<T>(kind: TxKind, fn: (t: Tx) => Promise<T>): Promise<T> {
    const t = this.txAt(this.clock());
    return this.inTurn(async () => (kind === 'read' ? this.readTx(t, fn) : this.write(t, fn, kind === 'write')));
  }

  private inTurn<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.turns.last.then(fn, fn);
    this.turns.last = run.catch(() => undefined);
    return run;
  }

  async lock(): Promise<void> {
    // BEGIN IMMEDIATE already holds the file's one write lock for the whole transaction.
  }

  private read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw storeError(err, this.location);
    }
  }

  private async readTx<T>(t: Tx, fn: (t: Tx) => Promise<T>): Promise<T> {
    this.read(() => this.db.exec('BEGIN'));
    try {
      return await fn(t);
    } catch (err) {
      throw storeError(err, this.location);
    } finally {
      try {
        this.db.exec('COMMIT');
      } catch {
        // A read transaction has nothing to keep.
      }
    }
  }

  /**
   * BEGIN IMMEDIATE: the write lock is taken first, so no upgrade deadlock. Not `durable` for what need not
   * survive a power cut (pacing slots, claims, heartbeats): no fsync per request.
   */
  private async write<T>(t: Tx, fn: (t: Tx) => Promise<T>, durable: boolean): Promise<T> {
    try {
      if (!durable) this.db.exec('PRAGMA synchronous = NORMAL');
      await this.begin();
    } catch (err) {
      this.restoreSync(durable);
      throw err instanceof CliError ? err : storeError(err, this.location);
    }
    try {
      const out = await fn(t);
      this.db.exec('COMMIT');
      return out;
    } catch (err) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // Already rolled back by SQLite (a full disk does that).
      }
      throw storeError(err, this.location);
    } finally {
      this.restoreSync(durable);
    }
  }

  /**
   * BEGIN IMMEDIATE, waiting for another process's write lock up to the busy timeout in short tries: between
   * them the process answers Ctrl-C, keeps its holders' heartbeats and reads the answers arriving meanwhile.
   * Once one write has waited the whole timeout the run stops, and the writes already in flight do not each
   * wait it out again.
   */
  private async begin(): Promise<void> {
    const until = Date.now() + (this.busyGaveUp ? 0 : this.busyMs);
    for (;;) {
      try {
        this.db.exec('BEGIN IMMEDIATE');
        return;
      } catch (err) {
        const failed = storeError(err, this.location);
        if (!(failed instanceof BusyError)) throw failed;
        if (this.signal?.aborted)
          throw new InterruptedError(
            'Interrupted while the store was locked by another process; nothing more was sent.',
          );
        if (Date.now() >= until) {
          this.busyGaveUp = true;
          throw failed;
        }
        await new Promise((resolve) => setTimeout(resolve, LOCK_TRY_MS / 2));
      }
    }
  }

  private restoreSync(durable: boolean): void {
    if (durable) return;
    try {
      this.db.exec('PRAGMA synchronous = FULL');
    } catch {
      // The next durable write fails loudly if the connection is broken.
    }
  }

  async sizeBytes(): Promise<number> {
    const size = (f: string): number => {
      try {
        return statSync(f).size;
      } catch {
        return 0;
      }
    };
    return size(this.location) + size(`${this.location}-wal`);
  }

  async close(): Promise<void> {
    await this.turns.last;
    this.stmts.clear();
    // libsql closes the file only once its statements are garbage-collected, maybe much later: the WAL is
    // folded into the file now. The file stays in WAL mode, so a reader holding a transaction on it (a
    // `sqlite3` shell) never makes a purchase wait.
    if (!this.readOnly) {
      try {
        this.db.exec('PRAGMA busy_timeout = 0');
        this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } catch {
        // Busy, or a full disk: the next open finds the WAL and recovers from it.
      }
    }
    try {
      this.db.close();
    } catch {
      // Closing twice, or after a failed write: nothing left to keep.
    }
  }
}

export class SqliteStore extends StoreCore {
  constructor(private readonly dialect: SqliteDialect) {
    super(dialect);
  }

  private row(sql: string): Row | undefined {
    try {
      return this.dialect.q(sql).get() as Row | undefined;
    } catch (err) {
      throw storeError(err, this.location);
    }
  }

  version(): number {
    return Number((this.row('PRAGMA user_version') ?? {}).user_version ?? 0);
  }

  protected async schemaVersion(): Promise<number> {
    return this.version();
  }

  /** A file nothing was written to yet (its page size can still be chosen). */
  empty(): boolean {
    return Number((this.row('SELECT COUNT(*) AS n FROM sqlite_master') ?? {}).n ?? 0) === 0 && this.version() === 0;
  }

  /** Refuses a newer schema, and another program's database (version 0 with tables: a mistyped CREATORS_STORE). */
  checkVersion(): number {
    // One snapshot: a migration between two reads would make version 0 with tables look like another program's.
    const r =
      this.row(
        "SELECT (SELECT user_version FROM pragma_user_version) AS v, (SELECT COUNT(*) FROM sqlite_master WHERE type = 'table') AS n",
      ) ?? {};
    const found = Number(r.v ?? 0);
    if (found > SCHEMA_VERSION)
      throw storeError({ code: 'CREATORS_NEWER_SCHEMA', found, known: SCHEMA_VERSION }, this.location);
    if (found === 0 && Number(r.n ?? 0) > 0) {
      throw storeError({ code: 'CREATORS_FOREIGN_DB', message: 'not a creators store' }, this.location);
    }
    return found;
  }

  /** Brings the file to this build's schema; a newer one is refused untouched, a read-only open only checks. */
  migrate(readOnly: boolean): void {
    const found = this.checkVersion();
    if (found === SCHEMA_VERSION || readOnly) return;
    const db = this.dialect.db;
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      throw storeError(err, this.location);
    }
    try {
      // Another process may have migrated while this one waited for the lock.
      const at = this.version();
      if (at > SCHEMA_VERSION)
        throw Object.assign(new Error('newer schema'), {
          code: 'CREATORS_NEWER_SCHEMA',
          found: at,
          known: SCHEMA_VERSION,
        });
      for (let v = at; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v] as string);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      db.exec('COMMIT');
    } catch (err) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // Rolled back already.
      }
      throw storeError(err, this.location);
    }
  }
}
