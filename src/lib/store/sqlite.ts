/**
 * One SQLite file per profile through `libsql` (prebuilt binaries, no install script: README "Never pay
 * twice"). WAL, so readers never wait for the writer; a busy timeout, so processes take turns;
 * `synchronous=FULL`, so a committed answer survives a power cut, not only `kill -9`.
 */
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SharedPace } from '../http/pacer.js';
import { BusyError } from '../errors.js';
import { processAlive } from '../io/process-alive.js';
import { storeError } from './errors.js';
import { answerOf, spendOf, whereOf } from './rows.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import type {
  AnswerKind, AnswerRecord, BudgetCheck, LoadCounts, ReusableAnswer, BudgetRefusal, DeleteOptions, Holder, KindCounts, ListFilter, SpendEntry, SpendFilter, Store, StoredAnswer, StoreStats,
} from './types.js';

interface Db {
  prepare(sql: string): Stmt;
  exec(sql: string): void;
  close(): void;
}
interface Stmt {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

/** How long a write waits for another process's transaction before giving up (exit 9). */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

export interface SqliteOptions {
  file: string;
  busyTimeoutMs?: number | undefined;
  /** Opens without writing (no migration, no creation): `store path|stats|list|export` and dry runs. */
  readOnly?: boolean | undefined;
}

type Row = Record<string, unknown>;

/** The switch to WAL needs the file to itself and SQLite does not wait for that: waited out here, up to the busy timeout. */
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
  const { default: Database } = (await import('libsql')) as unknown as { default: new (file: string, options?: Record<string, unknown>) => Db };
  const file = path.resolve(o.file);
  const busy = o.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  let db: Db | undefined;
  try {
    if (!o.readOnly) {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // Created private before SQLite opens it (its -wal and -shm files take the same mode).
      closeSync(openSync(file, 'a', 0o600));
    } else {
      // libsql (0.5) ignores better-sqlite3's `fileMustExist` and creates a missing file.
      closeSync(openSync(file, 'r'));
    }
    db = new Database(file, { timeout: busy });
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busy))}`);
    // libsql (0.5) ignores `readonly` too: the connection itself refuses writes instead.
    if (o.readOnly) db.exec('PRAGMA query_only = ON');
    const store = new SqliteStore(db, file, Boolean(o.readOnly));
    // A newer schema is refused before anything is set: switching a file to WAL rewrites its header,
    // and a store another version wrote must not change by a byte.
    store.checkVersion();
    if (!o.readOnly) {
      await enterWal(db, busy);
      db.exec('PRAGMA synchronous = FULL');
    }
    db.exec('PRAGMA foreign_keys = ON');
    store.migrate(Boolean(o.readOnly));
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

export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  private readonly stmts = new Map<string, Stmt>();
  private busyGaveUp = false;

  constructor(
    private readonly db: Db,
    readonly location: string,
    private readonly readOnly = false,
  ) {}

  private q(sql: string): Stmt {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  private row(sql: string, ...params: unknown[]): Row | undefined {
    return this.q(sql).get(...params) as Row | undefined;
  }

  /**
   * BEGIN IMMEDIATE: the write lock is taken first, so no upgrade deadlock. `durable: false` for what need not
   * survive a power cut (pacing slots, claims): no fsync per request.
   */
  private write<T>(fn: () => T, durable = true): T {
    try {
      if (!durable) this.db.exec('PRAGMA synchronous = NORMAL');
      this.db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      this.restoreSync(durable);
      const failed = storeError(err, this.location);
      // The binding is synchronous: a locked store blocks the whole process. Once one write has waited the
      // busy timeout the run stops, and the writes already in flight must not each wait it out again.
      if (failed instanceof BusyError && !this.busyGaveUp) {
        this.busyGaveUp = true;
        this.db.exec('PRAGMA busy_timeout = 0');
      }
      throw failed;
    }
    try {
      const out = fn();
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

  private restoreSync(durable: boolean): void {
    if (durable) return;
    try {
      this.db.exec('PRAGMA synchronous = FULL');
    } catch {
      // The next durable write fails loudly if the connection is broken.
    }
  }

  private read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw storeError(err, this.location);
    }
  }

  version(): number {
    return Number((this.row('PRAGMA user_version') ?? {}).user_version ?? 0);
  }

  /** Refuses a newer schema, and another program's database (version 0 with tables: a mistyped CREATORS_STORE). */
  checkVersion(): number {
    // One snapshot: a migration between two reads would make version 0 with tables look like another program's.
    const r = this.row("SELECT (SELECT user_version FROM pragma_user_version) AS v, (SELECT COUNT(*) FROM sqlite_master WHERE type = 'table') AS n") ?? {};
    const found = Number(r.v ?? 0);
    if (found > SCHEMA_VERSION) throw storeError({ code: 'CREATORS_NEWER_SCHEMA', found, known: SCHEMA_VERSION }, this.location);
    if (found === 0 && Number(r.n ?? 0) > 0) {
      throw storeError({ code: 'CREATORS_FOREIGN_DB', message: 'not a creators store' }, this.location);
    }
    return found;
  }

  /** Brings the file to this build's schema; a newer one is refused untouched, a read-only open only checks. */
  migrate(readOnly: boolean): void {
    const found = this.checkVersion();
    if (found === SCHEMA_VERSION || readOnly) return;
    this.write(() => {
      // Another process may have migrated while this one waited for the lock.
      const at = this.version();
      if (at > SCHEMA_VERSION) throw Object.assign(new Error('newer schema'), { code: 'CREATORS_NEWER_SCHEMA', found: at, known: SCHEMA_VERSION });
      for (let v = at; v < SCHEMA_VERSION; v++) this.db.exec(MIGRATIONS[v] as string);
      this.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }

  async answer(key: string, since: number, maxBytes = Number.MAX_SAFE_INTEGER): Promise<ReusableAnswer | undefined> {
    // Only the columns reuse reads: this runs once per request of a run answered from the store.
    const sql = 'SELECT CASE WHEN octet_length(body) <= ? THEN body END AS body, octet_length(body) AS bytes, bought_at, records, credits_milli, status FROM answers WHERE key = ? AND bought_at >= ?';
    const r = this.read(() => this.row(sql, maxBytes, key, since));
    return r
      ? { body: String(r.body ?? ''), bytes: Number(r.bytes), boughtAt: Number(r.bought_at), records: Number(r.records), creditsMilli: Number(r.credits_milli), status: r.status === 'not_found' ? 'not_found' : 'ok' }
      : undefined;
  }

  async answered(keys: readonly string[], since: number): Promise<Set<string>> {
    return this.read(() => {
      // One statement for all keys: the binding's per-call cost dominates.
      const sql = "SELECT key FROM answers WHERE key IN (SELECT value FROM json_each(?)) AND bought_at >= ? AND (status <> 'not_found' OR credits_milli > 0)";
      const rows = this.q(sql).all(JSON.stringify(keys), since) as Row[];
      return new Set(rows.map((r) => String(r.key)));
    });
  }

  async commit(a: StoredAnswer, creators: readonly string[], spend: SpendEntry | undefined): Promise<void> {
    this.write(() => {
      this.commitRows(a, creators);
      if (spend) this.insertSpend(spend);
    });
  }

  private commitRows(a: StoredAnswer, creators: readonly string[]): void {
    this.q('DELETE FROM bought_creators WHERE key = ?').run(a.key);
    this.q(
      `INSERT OR REPLACE INTO answers (key, base_url, route, kind, platform, subject, request, body, status, credits_milli, records, bought_at, profile)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(a.key, a.baseUrl, a.route, a.kind, a.platform, a.subject, a.request, a.body, a.status, a.creditsMilli, a.records, a.boughtAt, a.profile);
    if (a.platform !== null) {
      const ins = this.q('INSERT OR IGNORE INTO bought_creators (key, base_url, platform, handle, bought_at) VALUES (?, ?, ?, ?, ?)');
      for (const handle of creators) ins.run(a.key, a.baseUrl, a.platform, handle, a.boughtAt);
    }
  }

  /** Logs a charge; one already logged under the same origin is not logged twice (answers whether it was new). */
  private insertSpend(e: SpendEntry): boolean {
    return (
      this.q('INSERT OR IGNORE INTO spend (at, profile, base_url, command, route, platform, credits_milli, records, run, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
        e.at, e.profile, e.baseUrl, e.command, e.route, e.platform, e.creditsMilli, e.records, e.run, e.origin ?? null,
      ).changes > 0
    );
  }

  async logSpend(entry: SpendEntry): Promise<void> {
    this.write(() => {
      this.insertSpend(entry);
    });
  }

  async claim(key: string, holder: Holder, now: number, staleMs: number): Promise<'claimed' | Holder> {
    return this.write(() => {
      const r = this.row('SELECT run, pid, host, claimed_at FROM claims WHERE key = ?', key);
      if (r && String(r.run) !== holder.run) {
        const other: Holder = { run: String(r.run), pid: Number(r.pid), host: String(r.host) };
        const dead = other.host === holder.host && !processAlive(other.pid);
        if (!dead && now - Number(r.claimed_at) < staleMs) return other;
      }
      this.q('INSERT OR REPLACE INTO claims (key, run, pid, host, claimed_at) VALUES (?, ?, ?, ?, ?)').run(key, holder.run, holder.pid, holder.host, now);
      return 'claimed' as const;
    }, false);
  }

  async release(key: string, holder: Holder): Promise<void> {
    this.write(() => this.q('DELETE FROM claims WHERE key = ? AND run = ?').run(key, holder.run), false);
  }

  async reserve(check: BudgetCheck, holder: Holder): Promise<BudgetRefusal | undefined> {
    return this.write(() => {
      // Runs of dead processes on this host hold nothing; runs elsewhere hold theirs for 6 hours at most.
      const runs = this.q('SELECT run, pid, host, started_at, reserved_milli FROM runs WHERE profile = ?').all(check.profile) as Row[];
      const live = runs.filter((r) => String(r.run) !== holder.run && (String(r.host) === holder.host ? processAlive(Number(r.pid)) : check.now - Number(r.started_at) < 6 * 3600_000));
      for (const r of runs) if (!live.includes(r) && String(r.run) !== holder.run) this.q('DELETE FROM runs WHERE run = ?').run(r.run);
      const spentByRun = this.q('SELECT COALESCE(SUM(credits_milli), 0) AS s FROM spend WHERE run = ?');
      const reservedMilli = live.reduce((sum, r) => sum + Math.max(0, Number(r.reserved_milli) - Number((spentByRun.get(r.run) as Row).s)), 0);
      for (const [period, budget] of [['daily', check.daily], ['monthly', check.monthly]] as const) {
        if (!budget) continue;
        const spentMilli = Number((this.row('SELECT COALESCE(SUM(credits_milli), 0) AS s FROM spend WHERE profile = ? AND at >= ?', check.profile, budget.since) ?? {}).s ?? 0);
        if (spentMilli + reservedMilli + check.worstMilli > budget.limitMilli) return { period, limitMilli: budget.limitMilli, spentMilli, reservedMilli };
      }
      const prior = Number((spentByRun.get(holder.run) as Row).s);
      this.q('INSERT OR REPLACE INTO runs (run, profile, pid, host, started_at, reserved_milli) VALUES (?, ?, ?, ?, ?, ?)').run(
        holder.run, check.profile, holder.pid, holder.host, check.now, prior + check.worstMilli,
      );
      return undefined;
    });
  }

  async endRun(run: string): Promise<void> {
    this.write(() => {
      this.q('DELETE FROM runs WHERE run = ?').run(run);
      this.q('DELETE FROM claims WHERE run = ?').run(run);
    });
  }

  pace(account: string): SharedPace {
    return {
      take: async (intervalMs, toleranceMs, now) =>
        this.write(() => {
          const r = this.row('SELECT tat FROM pace WHERE account = ?', account);
          const base = Math.max(r ? Number(r.tat) : Number.NEGATIVE_INFINITY, now);
          this.q('INSERT OR REPLACE INTO pace (account, tat) VALUES (?, ?)').run(account, base + intervalMs);
          return Math.max(now, base - toleranceMs);
        }, false),
      delay: (until) => {
        try {
          this.write(() => this.q('INSERT INTO pace (account, tat) VALUES (?, ?) ON CONFLICT (account) DO UPDATE SET tat = MAX(tat, excluded.tat)').run(account, until), false);
        } catch {
          // This process waits all the same; the others learn of the 429 from their own answers.
        }
      },
    };
  }

  async boughtCreators(baseUrl: string, platform: string, since: number): Promise<string[]> {
    return this.read(() =>
      (
        this.q('SELECT handle FROM bought_creators WHERE base_url = ? AND platform = ? AND bought_at >= ? GROUP BY handle ORDER BY MAX(bought_at) DESC, handle').all(
          baseUrl,
          platform,
          since,
        ) as Row[]
      ).map((r) => String(r.handle)),
    );
  }

  async *list(f: ListFilter): AsyncIterable<StoredAnswer> {
    const { where, params } = whereOf([
      ['platform = ?', f.platform],
      ['kind = ?', f.kind],
      ['bought_at >= ?', f.since],
      ['bought_at < ?', f.until],
      ['base_url = ?', f.baseUrl],
    ]);
    // Ties (answers bought in the same millisecond) newest-written first, not in the random order of their keys.
    const sql = `SELECT * FROM answers ${where} ORDER BY bought_at DESC, rowid DESC`;
    // Read in slices by rowid order of the result, so a large store is never held in memory at once.
    const rows = this.read(() => this.db.prepare(sql).iterate(...params));
    yield* this.rowsOf(rows, answerOf);
  }

  async *spend(f: SpendFilter): AsyncIterable<SpendEntry> {
    const { where, params } = whereOf([
      ['at >= ?', f.since],
      ['at < ?', f.until],
      ['profile = ?', f.profile],
      ['base_url = ?', f.baseUrl],
    ]);
    const sql = `SELECT * FROM spend ${where} ORDER BY at, id`;
    const rows = this.read(() => this.db.prepare(sql).iterate(...params));
    yield* this.rowsOf(rows, spendOf);
  }

  /** A result's rows as records; a failure while stepping through them (a busy or corrupt page) is the store's typed error too. */
  private *rowsOf<T>(rows: IterableIterator<unknown>, of: (r: Row) => T): Generator<T> {
    let done = false;
    try {
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = rows.next();
        } catch (err) {
          done = true;
          throw storeError(err, this.location);
        }
        if (next.done) {
          done = true;
          return;
        }
        yield of(next.value as Row);
      }
    } finally {
      // A reader that stopped early (a closed pager) ends the statement, as for...of would.
      if (!done) rows.return?.();
    }
  }

  async stats(): Promise<StoreStats> {
    return this.read(() => {
      const kinds = this.q(
        'SELECT kind, COUNT(*) AS n, COALESCE(SUM(records), 0) AS records, COALESCE(SUM(credits_milli), 0) AS credits, MIN(bought_at) AS oldest, MAX(bought_at) AS newest FROM answers GROUP BY kind ORDER BY kind',
      ).all() as Row[];
      const s = this.row('SELECT COUNT(*) AS n, COALESCE(SUM(credits_milli), 0) AS credits, MIN(at) AS oldest, MAX(at) AS newest FROM spend') ?? {};
      const size = (f: string): number => {
        try {
          return statSync(f).size;
        } catch {
          return 0;
        }
      };
      const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
      return {
        engine: 'sqlite',
        location: this.location,
        schemaVersion: this.version(),
        sizeBytes: size(this.location) + size(`${this.location}-wal`),
        answers: kinds.map((k) => ({ kind: k.kind as AnswerKind, count: Number(k.n), records: Number(k.records), creditsMilli: Number(k.credits), oldest: num(k.oldest), newest: num(k.newest) })),
        spend: { entries: Number(s.n ?? 0), creditsMilli: Number(s.credits ?? 0), oldest: num(s.oldest), newest: num(s.newest) },
      };
    });
  }

  async prune(before: number, o: DeleteOptions = {}): Promise<number> {
    if (o.dryRun) return this.read(() => Number((this.row('SELECT COUNT(*) AS n FROM answers WHERE bought_at < ?', before) ?? {}).n ?? 0));
    return this.write(() => this.q('DELETE FROM answers WHERE bought_at < ?').run(before).changes);
  }

  async forget(platform: string, subject: string, o: DeleteOptions = {}): Promise<KindCounts> {
    const about = (): Row[] =>
      this.q(
        `SELECT key, kind FROM answers WHERE platform = ? AND subject = ?
         UNION SELECT a.key, a.kind FROM answers a JOIN bought_creators b ON b.key = a.key WHERE b.platform = ? AND b.handle = ?`,
      ).all(platform, subject, platform, subject) as Row[];
    const counts = (rows: Row[]): KindCounts => ({
      creator: rows.filter((r) => r.kind === 'creator').length,
      page: rows.filter((r) => r.kind === 'page').length,
    });
    if (o.dryRun) return this.read(() => counts(about()));
    return this.write(() => {
      const rows = about();
      const del = this.q('DELETE FROM answers WHERE key = ?');
      for (const r of rows) del.run(r.key);
      return counts(rows);
    });
  }

  async storeId(): Promise<string> {
    return this.read(() => String((this.row("SELECT value FROM meta WHERE name = 'store_id'") ?? {}).value ?? ''));
  }

  async dumpAnswers(after: string | undefined, limit: number): Promise<AnswerRecord[]> {
    return this.read(() => {
      const rows = this.q('SELECT * FROM answers WHERE key > ? ORDER BY key LIMIT ?').all(after ?? '', limit) as Row[];
      const creators = this.q('SELECT handle FROM bought_creators WHERE key = ? ORDER BY handle');
      return rows.map((r) => ({ answer: answerOf(r), creators: (creators.all(r.key) as Row[]).map((c) => String(c.handle)) }));
    });
  }

  async dumpSpend(after: number | undefined, limit: number): Promise<{ id: number; entry: SpendEntry }[]> {
    const id = await this.storeId();
    return this.read(() =>
      (this.q('SELECT * FROM spend WHERE id > ? ORDER BY id LIMIT ?').all(after ?? 0, limit) as Row[]).map((r) => {
        const entry = spendOf(r);
        return { id: Number(r.id), entry: { ...entry, origin: entry.origin ?? `${id}:${Number(r.id)}` } };
      }),
    );
  }

  async load(answers: readonly AnswerRecord[], spend: readonly SpendEntry[]): Promise<LoadCounts> {
    return this.write(() => {
      let added = 0;
      for (const { answer: a, creators } of answers) {
        const held = this.row('SELECT bought_at FROM answers WHERE key = ?', a.key);
        if (held && Number(held.bought_at) >= a.boughtAt) continue;
        this.commitRows(a, creators);
        added++;
      }
      let logged = 0;
      for (const e of spend) if (this.insertSpend(e)) logged++;
      return { answers: added, spend: logged };
    });
  }

  async close(): Promise<void> {
    this.stmts.clear();
    // libsql closes the file only once its statements are garbage-collected, maybe much later: the last writer
    // folds the WAL in and leaves rollback mode now. With another process in it, busy: it stays in WAL.
    if (!this.readOnly) {
      try {
        this.db.exec('PRAGMA busy_timeout = 0');
        this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
        this.db.exec('PRAGMA journal_mode = DELETE');
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

