/**
 * The team store on PostgreSQL through `pg`, read like `psql` does (`PG*` variables, the password file). Safe
 * across machines by the database itself: a claim is one `INSERT ... ON CONFLICT`, a budget's check and
 * reservation hold a transaction-scoped advisory lock per profile, the pace is one `UPSERT ... RETURNING`.
 * Only `creators store migrate` changes the schema (not whoever upgrades first).
 */
import type { Pool, PoolClient, PoolConfig } from 'pg';
import type { SharedPace } from '../http/pacer.js';
import { processAlive } from '../io/process-alive.js';
import { isUnreachable, pgError, type PgTarget } from './pg-errors.js';
import { PG_MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { answerOf, spendOf, whereOf } from './rows.js';
import type {
  AnswerRecord, BudgetCheck, BudgetRefusal, DeleteOptions, Holder, KindCounts, ListFilter, LoadCounts, ReusableAnswer, SpendEntry, SpendFilter, Store, StoredAnswer, StoreStats, AnswerKind,
} from './types.js';

type Row = Record<string, unknown>;

/** How long a statement may wait for another run's row or advisory lock before the run stops (exit 9). */
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** No statement of the store runs longer; one that would is cancelled by the server (its transaction rolled back). */
const STATEMENT_TIMEOUT_MS = 60_000;
/** Whole milliseconds (PostgreSQL's BIGINT refuses the clock's fractions); floored, so a window's start never moves later. */
function ms(t: number): number {
  return Math.floor(t);
}

function msOrUndefined(t: number | undefined): number | undefined {
  return t === undefined ? undefined : ms(t);
}

const SLICE = 500;

export interface PgOptions {
  url: string;
  env: Record<string, string | undefined>;
  target: PgTarget;
  busyTimeoutMs?: number | undefined;
  /** Every transaction read-only (a dry run, `store stats|list|export`): the server refuses writes. */
  readOnly?: boolean | undefined;
  migrate?: boolean | undefined;
}

/** The URL wins over the `PG*` variables, and SSL modes mean what they mean to libpq, as in psql. */
async function poolConfig(o: PgOptions): Promise<PoolConfig> {
  const { parse } = (await import('pg-connection-string')) as unknown as { parse(url: string, options?: { useLibpqCompat?: boolean }): Record<string, unknown> };
  const fromUrl = parse(o.url, /[?&]uselibpqcompat=/i.test(o.url) ? {} : { useLibpqCompat: true });
  const given = Object.fromEntries(Object.entries(fromUrl).filter(([, v]) => v !== '' && v !== null && v !== undefined));
  const env = o.env;
  const num = (v: unknown): number | undefined => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : typeof v === 'number' ? v : undefined);
  const lockMs = Math.max(0, Math.floor(o.busyTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS));
  const options = [`-c lock_timeout=${lockMs}`, `-c statement_timeout=${STATEMENT_TIMEOUT_MS}`, `-c idle_in_transaction_session_timeout=${STATEMENT_TIMEOUT_MS}`];
  if (o.readOnly) options.push('-c default_transaction_read_only=on');
  // The password file read here as pg would: pg's own reading is deprecated and says so on stderr.
  const password = env.PGPASSWORD || given.password ? {} : { password: passwordFromFile };
  return {
    ...password,
    ...(env.PGHOST ? { host: env.PGHOST } : {}),
    ...(num(env.PGPORT) ? { port: num(env.PGPORT) } : {}),
    ...(env.PGUSER ? { user: env.PGUSER } : {}),
    ...(env.PGPASSWORD ? { password: env.PGPASSWORD } : {}),
    ...(env.PGDATABASE ? { database: env.PGDATABASE } : {}),
    ...given,
    ...(num(given.port) ? { port: num(given.port) } : {}),
    application_name: 'creators',
    options: [typeof given.options === 'string' ? given.options : '', ...options].filter(Boolean).join(' '),
    max: 8,
    connectionTimeoutMillis: num(env.PGCONNECT_TIMEOUT) !== undefined ? Number(env.PGCONNECT_TIMEOUT) * 1000 : 10_000,
    idleTimeoutMillis: 10_000,
  } as PoolConfig;
}

/**
 * A pool whose connections never end the process: `pg` also emits a lost connection as an 'error' event
 * (sometimes twice, or after the query settled), and one nobody listens to is an uncaught exception. The query
 * using it gets the error; an idle one dropped by the server fails or reconnects on the next query.
 */
async function newPool(o: PgOptions): Promise<Pool> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: { Pool: new (c: PoolConfig) => Pool; Client: new (c: unknown) => { on(event: 'error', fn: () => void): unknown } };
  };
  class QuietClient extends pg.Client {
    constructor(c: unknown) {
      super(c);
      this.on('error', () => undefined);
    }
  }
  const pool = new pg.Pool({ ...(await poolConfig(o)), Client: QuietClient as unknown as PoolConfig['Client'] });
  pool.on('error', () => undefined);
  return pool;
}

async function passwordFromFile(params: { host?: string; port?: number; database?: string; user?: string }): Promise<string | undefined> {
  const { default: pgpass } = await import('pgpass');
  return new Promise((resolve) => pgpass(params, resolve));
}

export async function openPgStore(o: PgOptions): Promise<PgStore> {
  const pool = await newPool(o);
  const store = new PgStore(pool, o.target, Boolean(o.readOnly));
  try {
    if (o.migrate) await store.migrate();
    await store.checkVersion();
    return store;
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw pgError(err, o.target);
  }
}

export async function migratePgStore(o: PgOptions): Promise<number> {
  const pool = await newPool(o);
  try {
    return await new PgStore(pool, o.target, false).migrate();
  } catch (err) {
    throw pgError(err, o.target);
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** The schema version a team store is at (0: never migrated), read without changing anything; a newer one is refused. */
export async function pgSchemaVersion(o: PgOptions): Promise<number> {
  const store = await openPgStore({ ...o, readOnly: true, migrate: false });
  try {
    return await store.version();
  } finally {
    await store.close();
  }
}

export class PgStore implements Store {
  readonly engine = 'postgres' as const;
  readonly location: string;
  private schema = 0;

  constructor(
    private readonly pool: Pool,
    private readonly target: PgTarget,
    private readonly readOnly: boolean,
  ) {
    this.location = target.display;
  }

  private async rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.again(async () => {
      try {
        return (await this.pool.query(sql, params)).rows as Row[];
      } catch (err) {
        throw pgError(err, this.target);
      }
    });
  }

  /**
   * Runs `op` again on a fresh connection when its connection was lost (a server restart, a NAT dropping idle
   * connections). Safe because a repeated write changes nothing: answers replace by key, spend is logged once
   * per origin, claims and runs are upserts of the same holder.
   */
  private async again<T>(op: () => Promise<T>): Promise<T> {
    // A blip may leave several pooled connections dead: each is found out (and dropped) by one try.
    for (const wait of [100, 300, 600]) {
      try {
        return await op();
      } catch (err) {
        if (!isUnreachable(err)) throw err;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    return op();
  }

  private async row(sql: string, params: unknown[] = []): Promise<Row | undefined> {
    return (await this.rows(sql, params))[0];
  }

  private async tx<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    return this.again(() => this.txOnce(fn));
  }

  private async txOnce<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw pgError(err, this.target);
    }
    let broken = false;
    // A lost connection is also an 'error' event, which with no listener would be an uncaught exception.
    const lost = (): void => {
      broken = true;
    };
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // The connection is gone: the server rolled the transaction back itself.
        broken = true;
      }
      throw pgError(err, this.target);
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  }

  async version(): Promise<number> {
    const r = await this.row("SELECT to_regclass('creators_schema') IS NOT NULL AS versioned, to_regclass('answers') IS NOT NULL AS answers");
    if (!r?.versioned) {
      if (r?.answers) throw pgError({ code: 'CREATORS_FOREIGN_DB' }, this.target);
      return 0;
    }
    return Number((await this.row('SELECT MAX(version) AS v FROM creators_schema'))?.v ?? 0);
  }

  /** Refuses a newer schema and, outside read-only use, an older one: the team migrates explicitly. */
  async checkVersion(): Promise<number> {
    const found = await this.version();
    if (found > SCHEMA_VERSION) throw pgError({ code: 'CREATORS_NEWER_SCHEMA', found, known: SCHEMA_VERSION }, this.target);
    // Read-only (a dry run, `store stats`) an older schema is read as it is, and none at all is no store yet.
    if (found < SCHEMA_VERSION && !this.readOnly) throw pgError({ code: 'CREATORS_MIGRATE', found, known: SCHEMA_VERSION }, this.target);
    this.schema = found;
    return found;
  }

  /** Under an advisory lock: of two `store migrate` at once, the second finds the work done. Returns the version found. */
  async migrate(): Promise<number> {
    return this.tx(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended('creators:migrate', 0))");
      await c.query('CREATE TABLE IF NOT EXISTS creators_schema (version INTEGER NOT NULL)');
      const foreign = await c.query("SELECT to_regclass('answers') IS NOT NULL AS answers, (SELECT COUNT(*) FROM creators_schema) AS n");
      const at = Number((await c.query('SELECT COALESCE(MAX(version), 0) AS v FROM creators_schema')).rows[0]?.v ?? 0);
      if (at === 0 && foreign.rows[0]?.answers) throw Object.assign(new Error('foreign'), { code: 'CREATORS_FOREIGN_DB' });
      if (at > SCHEMA_VERSION) throw Object.assign(new Error('newer schema'), { code: 'CREATORS_NEWER_SCHEMA', found: at, known: SCHEMA_VERSION });
      for (let v = at; v < SCHEMA_VERSION; v++) await c.query(PG_MIGRATIONS[v] as string);
      await c.query('DELETE FROM creators_schema');
      await c.query('INSERT INTO creators_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
      return at;
    });
  }

  async answer(key: string, since: number, maxBytes = Number.MAX_SAFE_INTEGER): Promise<ReusableAnswer | undefined> {
    const sql = 'SELECT CASE WHEN octet_length(body) <= $3::bigint THEN body END AS body, octet_length(body) AS bytes, bought_at, records, credits_milli, status FROM answers WHERE key = $1 AND bought_at >= $2';
    const r = await this.row(sql, [key, ms(since), maxBytes]);
    return r
      ? { body: String(r.body ?? ''), bytes: Number(r.bytes), boughtAt: Number(r.bought_at), records: Number(r.records), creditsMilli: Number(r.credits_milli), status: r.status === 'not_found' ? 'not_found' : 'ok' }
      : undefined;
  }

  async answered(keys: readonly string[], since: number): Promise<Set<string>> {
    const sql = "SELECT key FROM answers WHERE key = ANY($1::text[]) AND bought_at >= $2 AND (status <> 'not_found' OR credits_milli > 0)";
    const rows = await this.rows(sql, [keys, ms(since)]);
    return new Set(rows.map((r) => String(r.key)));
  }

  async commit(a: StoredAnswer, creators: readonly string[], spend: SpendEntry | undefined): Promise<void> {
    await this.tx(async (c) => {
      await this.commitRows(c, a, creators);
      if (spend) await this.insertSpend(c, spend);
    });
  }

  private async commitRows(c: PoolClient, a: StoredAnswer, creators: readonly string[]): Promise<void> {
    await c.query('DELETE FROM bought_creators WHERE key = $1', [a.key]);
    await c.query(
      `INSERT INTO answers (key, base_url, route, kind, platform, subject, request, body, status, credits_milli, records, bought_at, profile)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (key) DO UPDATE SET base_url = excluded.base_url, route = excluded.route, kind = excluded.kind, platform = excluded.platform,
         subject = excluded.subject, request = excluded.request, body = excluded.body, status = excluded.status, credits_milli = excluded.credits_milli,
         records = excluded.records, bought_at = excluded.bought_at, profile = excluded.profile, seq = nextval(pg_get_serial_sequence('answers', 'seq'))`,
      [a.key, a.baseUrl, a.route, a.kind, a.platform, a.subject, a.request, a.body, a.status, Math.round(a.creditsMilli), a.records, ms(a.boughtAt), a.profile],
    );
    if (a.platform !== null && creators.length > 0) {
      await c.query(
        `INSERT INTO bought_creators (key, base_url, platform, handle, bought_at)
         SELECT $1, $2, $3, h, $5 FROM unnest($4::text[]) AS h ON CONFLICT DO NOTHING`,
        [a.key, a.baseUrl, a.platform, creators, ms(a.boughtAt)],
      );
    }
  }

  /** Logs a charge; one already logged under the same origin is not logged twice (answers whether it was new). */
  private async insertSpend(c: PoolClient, e: SpendEntry): Promise<boolean> {
    const res = await c.query(
      `INSERT INTO spend (at, profile, base_url, command, route, platform, credits_milli, records, run, origin)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (origin) DO NOTHING`,
      [ms(e.at), e.profile, e.baseUrl, e.command, e.route, e.platform, Math.round(e.creditsMilli), e.records, e.run, e.origin ?? null],
    );
    return (res.rowCount ?? 0) > 0;
  }

  async logSpend(entry: SpendEntry): Promise<void> {
    await this.tx(async (c) => {
      await this.insertSpend(c, entry);
    });
  }

  async claim(key: string, holder: Holder, now: number, staleMs: number): Promise<'claimed' | Holder> {
    return this.tx(async (c) => {
      // One statement takes a free key: two machines claiming at once, one of them wins.
      const taken = await c.query('INSERT INTO claims (key, run, pid, host, claimed_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING', [
        key, holder.run, holder.pid, holder.host, ms(now),
      ]);
      if ((taken.rowCount ?? 0) > 0) return 'claimed' as const;
      const r = (await c.query('SELECT run, pid, host, claimed_at FROM claims WHERE key = $1 FOR UPDATE', [key])).rows[0] as Row | undefined;
      if (r && String(r.run) !== holder.run) {
        const other: Holder = { run: String(r.run), pid: Number(r.pid), host: String(r.host) };
        const dead = other.host === holder.host && !processAlive(other.pid);
        if (!dead && now - Number(r.claimed_at) < staleMs) return other;
      }
      await c.query(
        `INSERT INTO claims (key, run, pid, host, claimed_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key) DO UPDATE SET run = excluded.run, pid = excluded.pid, host = excluded.host, claimed_at = excluded.claimed_at`,
        [key, holder.run, holder.pid, holder.host, ms(now)],
      );
      return 'claimed' as const;
    });
  }

  async release(key: string, holder: Holder): Promise<void> {
    await this.rows('DELETE FROM claims WHERE key = $1 AND run = $2', [key, holder.run]);
  }

  async reserve(check: BudgetCheck, holder: Holder): Promise<BudgetRefusal | undefined> {
    return this.tx(async (c) => {
      // One profile's checks and reservations one at a time, on every machine.
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended('creators:budget:' || $1, 0))", [check.profile]);
      const runs = (await c.query('SELECT run, pid, host, started_at, reserved_milli FROM runs WHERE profile = $1', [check.profile])).rows as Row[];
      const live = runs.filter((r) => String(r.run) !== holder.run && (String(r.host) === holder.host ? processAlive(Number(r.pid)) : check.now - Number(r.started_at) < 6 * 3600_000));
      const gone = runs.filter((r) => !live.includes(r) && String(r.run) !== holder.run).map((r) => String(r.run));
      if (gone.length > 0) await c.query('DELETE FROM runs WHERE run = ANY($1::text[])', [gone]);
      const spentBy = async (run: string): Promise<number> => Number((await c.query('SELECT COALESCE(SUM(credits_milli), 0) AS s FROM spend WHERE run = $1', [run])).rows[0]?.s ?? 0);
      let reservedMilli = 0;
      for (const r of live) reservedMilli += Math.max(0, Number(r.reserved_milli) - (await spentBy(String(r.run))));
      for (const [period, budget] of [['daily', check.daily], ['monthly', check.monthly]] as const) {
        if (!budget) continue;
        const spentMilli = Number((await c.query('SELECT COALESCE(SUM(credits_milli), 0) AS s FROM spend WHERE profile = $1 AND at >= $2', [check.profile, ms(budget.since)])).rows[0]?.s ?? 0);
        if (spentMilli + reservedMilli + check.worstMilli > budget.limitMilli) return { period, limitMilli: budget.limitMilli, spentMilli, reservedMilli };
      }
      const prior = await spentBy(holder.run);
      await c.query(
        `INSERT INTO runs (run, profile, pid, host, started_at, reserved_milli) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (run) DO UPDATE SET profile = excluded.profile, pid = excluded.pid, host = excluded.host, started_at = excluded.started_at, reserved_milli = excluded.reserved_milli`,
        [holder.run, check.profile, holder.pid, holder.host, ms(check.now), Math.round(prior + check.worstMilli)],
      );
      return undefined;
    });
  }

  async endRun(run: string): Promise<void> {
    await this.tx(async (c) => {
      await c.query('DELETE FROM runs WHERE run = $1', [run]);
      await c.query('DELETE FROM claims WHERE run = $1', [run]);
    });
  }

  pace(account: string): SharedPace {
    return {
      // One round trip: the account's theoretical arrival time moved on by one interval, atomically.
      take: async (intervalMs, toleranceMs, now) => {
        const r = await this.row(
          `INSERT INTO pace (account, tat) VALUES ($1, $2::double precision + $3::double precision)
           ON CONFLICT (account) DO UPDATE SET tat = GREATEST(pace.tat, $2::double precision) + $3::double precision RETURNING tat`,
          [account, now, intervalMs],
        );
        const base = Number(r?.tat) - intervalMs;
        return Math.max(now, base - toleranceMs);
      },
      delay: (until) => {
        // This process waits all the same; the others learn of the 429 from the shared row when it lands.
        return this.pool
          .query('INSERT INTO pace (account, tat) VALUES ($1, $2) ON CONFLICT (account) DO UPDATE SET tat = GREATEST(pace.tat, excluded.tat)', [account, until])
          .then(() => undefined, () => undefined);
      },
    };
  }

  async boughtCreators(baseUrl: string, platform: string, since: number): Promise<string[]> {
    const rows = await this.rows(
      'SELECT handle FROM bought_creators WHERE base_url = $1 AND platform = $2 AND bought_at >= $3 GROUP BY handle ORDER BY MAX(bought_at) DESC, handle',
      [baseUrl, platform, ms(since)],
    );
    return rows.map((r) => String(r.handle));
  }

  private numbered(where: string, first = 1): string {
    let n = first;
    return where.replace(/\?/g, () => `$${n++}`);
  }

  async *list(f: ListFilter): AsyncIterable<StoredAnswer> {
    const { where, params } = whereOf([
      ['platform = ?', f.platform],
      ['kind = ?', f.kind],
      ['bought_at >= ?', msOrUndefined(f.since)],
      ['bought_at < ?', msOrUndefined(f.until)],
      ['base_url = ?', f.baseUrl],
    ]);
    // Newest first in slices (keyset on bought_at, seq), so a large store is never held in memory at once.
    let after: [number, number] | undefined;
    for (;;) {
      const cond = after ? `${where ? `${where} AND` : 'WHERE'} (bought_at, seq) < (?, ?)` : where;
      const args = after ? [...params, ...after] : params;
      const rows = await this.rows(`SELECT * FROM answers ${this.numbered(cond)} ORDER BY bought_at DESC, seq DESC LIMIT ${SLICE}`, args);
      for (const r of rows) yield answerOf(r);
      if (rows.length < SLICE) return;
      const last = rows[rows.length - 1] as Row;
      after = [Number(last.bought_at), Number(last.seq)];
    }
  }

  async *spend(f: SpendFilter): AsyncIterable<SpendEntry> {
    const { where, params } = whereOf([
      ['at >= ?', msOrUndefined(f.since)],
      ['at < ?', msOrUndefined(f.until)],
      ['profile = ?', f.profile],
      ['base_url = ?', f.baseUrl],
    ]);
    let after: [number, number] | undefined;
    for (;;) {
      const cond = after ? `${where ? `${where} AND` : 'WHERE'} (at, id) > (?, ?)` : where;
      const args = after ? [...params, ...after] : params;
      const rows = await this.rows(`SELECT * FROM spend ${this.numbered(cond)} ORDER BY at, id LIMIT ${SLICE}`, args);
      for (const r of rows) yield spendOf(r);
      if (rows.length < SLICE) return;
      const last = rows[rows.length - 1] as Row;
      after = [Number(last.at), Number(last.id)];
    }
  }

  async stats(): Promise<StoreStats> {
    const kinds = await this.rows(
      'SELECT kind, COUNT(*) AS n, COALESCE(SUM(records), 0) AS records, COALESCE(SUM(credits_milli), 0) AS credits, MIN(bought_at) AS oldest, MAX(bought_at) AS newest FROM answers GROUP BY kind ORDER BY kind',
    );
    const s = (await this.row('SELECT COUNT(*) AS n, COALESCE(SUM(credits_milli), 0) AS credits, MIN(at) AS oldest, MAX(at) AS newest FROM spend')) ?? {};
    const size = await this.row(
      "SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0) AS bytes FROM unnest(ARRAY['answers', 'spend', 'bought_creators', 'claims', 'runs', 'pace', 'meta', 'creators_schema']) AS t",
    );
    const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
    return {
      engine: 'postgres',
      location: this.location,
      schemaVersion: this.schema,
      sizeBytes: Number(size?.bytes ?? 0),
      answers: kinds.map((k) => ({ kind: k.kind as AnswerKind, count: Number(k.n), records: Number(k.records), creditsMilli: Number(k.credits), oldest: num(k.oldest), newest: num(k.newest) })),
      spend: { entries: Number(s.n ?? 0), creditsMilli: Number(s.credits ?? 0), oldest: num(s.oldest), newest: num(s.newest) },
    };
  }

  async prune(before: number, o: DeleteOptions = {}): Promise<number> {
    if (o.dryRun) return Number((await this.row('SELECT COUNT(*) AS n FROM answers WHERE bought_at < $1', [ms(before)]))?.n ?? 0);
    return this.tx(async (c) => (await c.query('DELETE FROM answers WHERE bought_at < $1', [ms(before)])).rowCount ?? 0);
  }

  async forget(platform: string, subject: string, o: DeleteOptions = {}): Promise<KindCounts> {
    const about = `SELECT key, kind FROM answers WHERE platform = $1 AND subject = $2
      UNION SELECT a.key, a.kind FROM answers a JOIN bought_creators b ON b.key = a.key WHERE b.platform = $1 AND b.handle = $2`;
    const counts = (rows: Row[]): KindCounts => ({
      creator: rows.filter((r) => r.kind === 'creator').length,
      page: rows.filter((r) => r.kind === 'page').length,
    });
    if (o.dryRun) return counts(await this.rows(about, [platform, subject]));
    return this.tx(async (c) => {
      const rows = (await c.query(about, [platform, subject])).rows as Row[];
      await c.query('DELETE FROM answers WHERE key = ANY($1::text[])', [rows.map((r) => String(r.key))]);
      return counts(rows);
    });
  }

  async storeId(): Promise<string> {
    return String((await this.row("SELECT value FROM meta WHERE name = 'store_id'"))?.value ?? '');
  }

  async dumpAnswers(after: string | undefined, limit: number): Promise<AnswerRecord[]> {
    const rows = await this.rows('SELECT * FROM answers WHERE key > $1 ORDER BY key LIMIT $2', [after ?? '', limit]);
    if (rows.length === 0) return [];
    const creators = await this.rows('SELECT key, handle FROM bought_creators WHERE key = ANY($1::text[]) ORDER BY handle', [rows.map((r) => String(r.key))]);
    return rows.map((r) => ({ answer: answerOf(r), creators: creators.filter((c) => c.key === r.key).map((c) => String(c.handle)) }));
  }

  async dumpSpend(after: number | undefined, limit: number): Promise<{ id: number; entry: SpendEntry }[]> {
    const id = await this.storeId();
    return (await this.rows('SELECT * FROM spend WHERE id > $1 ORDER BY id LIMIT $2', [after ?? 0, limit])).map((r) => {
      const entry = spendOf(r);
      return { id: Number(r.id), entry: { ...entry, origin: entry.origin ?? `${id}:${Number(r.id)}` } };
    });
  }

  async load(answers: readonly AnswerRecord[], spend: readonly SpendEntry[]): Promise<LoadCounts> {
    return this.tx(async (c) => {
      let added = 0;
      for (const { answer: a, creators } of answers) {
        const held = (await c.query('SELECT bought_at FROM answers WHERE key = $1 FOR UPDATE', [a.key])).rows[0] as Row | undefined;
        if (held && Number(held.bought_at) >= a.boughtAt) continue;
        await this.commitRows(c, a, creators);
        added++;
      }
      let logged = 0;
      for (const e of spend) if (await this.insertSpend(c, e)) logged++;
      return { answers: added, spend: logged };
    });
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
