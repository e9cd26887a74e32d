/**
 * The team store on PostgreSQL through `pg`, read like `psql` does (`PG*` variables, the password file): the
 * dialect of `core.ts` for a server. Works through PgBouncer in transaction mode: no startup parameter and no
 * session state (timeouts are `SET LOCAL` in each transaction, advisory locks are transaction-scoped), no named
 * prepared statement (values are sent as quoted literals in the simple protocol), so a transaction decided
 * beforehand is one round trip. Only `creators store migrate` changes the schema (not whoever upgrades first).
 */
import type { Pool, PoolClient, PoolConfig } from 'pg';
import { StoreCore } from './core.js';
import { type Dialect, type Row, type Statement, type Tx, type TxKind, spell } from './dialect.js';
import { isUnreachable, pgError, type PgTarget } from './pg-errors.js';
import { checkRights } from './pg-grants.js';
import { PG_MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { POLICIES, realClock, withRetries } from '../retry-policy.js';

/** How long a statement may wait for another run's row or advisory lock before the run stops (exit 9). */
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** No statement of the store runs longer; one that would is cancelled by the server (its transaction rolled back). */
const STATEMENT_TIMEOUT_MS = 60_000;

const WORDS = {
  now: '(floor(extract(epoch from now()) * 1000))::bigint',
  greatest: 'GREATEST',
  sum: 'SUM',
  seq: 'seq',
} as const;

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
  const { parse } = (await import('pg-connection-string')) as unknown as {
    parse(url: string, options?: { useLibpqCompat?: boolean }): Record<string, unknown>;
  };
  const fromUrl = parse(o.url, /[?&]uselibpqcompat=/i.test(o.url) ? {} : { useLibpqCompat: true });
  const given = Object.fromEntries(
    Object.entries(fromUrl).filter(([, v]) => v !== '' && v !== null && v !== undefined),
  );
  const env = o.env;
  const num = (v: unknown): number | undefined =>
    typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : typeof v === 'number' ? v : undefined;
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
    // PgBouncer passes application_name on; any other startup parameter (`options`) it refuses.
    application_name: 'creators',
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
    default: {
      Pool: new (c: PoolConfig) => Pool;
      Client: new (c: unknown) => { on(event: 'error', fn: () => void): unknown };
    };
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

async function passwordFromFile(params: {
  host?: string;
  port?: number;
  database?: string;
  user?: string;
}): Promise<string | undefined> {
  const { default: pgpass } = await import('pgpass');
  return new Promise((resolve) => pgpass(params, resolve));
}

/** A value as an SQL literal (the simple protocol carries no parameters). */
export function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (Array.isArray(v)) return v.length === 0 ? "'{}'" : `ARRAY[${v.map(literal).join(', ')}]`;
  const s = String(v);
  if (s.includes('\0')) throw new Error('a text holds a NUL character');
  const quoted = `'${s.replace(/'/g, "''")}'`;
  // E'' reads backslashes the same whatever standard_conforming_strings says.
  return s.includes('\\') ? `E${quoted.replace(/\\/g, '\\\\')}` : quoted;
}

/** The statement with its `?` placeholders replaced by literals and the dialect's words spelt. */
export function inline(sql: string, params: readonly unknown[] = []): string {
  let i = 0;
  const text = spell(sql, WORDS).replace(/\?/g, () => {
    if (i >= params.length) throw new Error('fewer values than placeholders');
    return literal(params[i++]);
  });
  if (i !== params.length) throw new Error('more values than placeholders');
  return text;
}

/** PostgreSQL's side of the dialect. */
export class PgDialect implements Dialect {
  readonly engine = 'postgres' as const;
  readonly words = WORDS;
  readonly location: string;
  private readonly begin: string;

  constructor(
    readonly pool: Pool,
    readonly target: PgTarget,
    readOnly: boolean,
    busyTimeoutMs: number | undefined,
  ) {
    this.location = target.display;
    const lockMs = Math.max(0, Math.floor(busyTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS));
    // Per transaction, so a pooler that shares server sessions between clients keeps them.
    this.begin = [
      `BEGIN${readOnly ? ' READ ONLY' : ''}`,
      `SET LOCAL lock_timeout = ${lockMs}`,
      `SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`,
      `SET LOCAL idle_in_transaction_session_timeout = ${STATEMENT_TIMEOUT_MS}`,
    ].join('; ');
  }

  inList(column: string, values: readonly string[]): Statement {
    return { sql: `${column} = ANY(CAST(? AS TEXT[]))`, params: [values] };
  }

  async batch(_kind: TxKind, statements: readonly Statement[]): Promise<Row[][]> {
    if (statements.length === 0) return [];
    const text = [this.begin, ...statements.map((s) => inline(s.sql, s.params)), 'COMMIT'].join(';\n');
    return this.again(() =>
      this.onClient(async (c) => {
        const results = (await c.query(text)) as unknown as { rows: Row[] }[];
        // BEGIN and the SETs come first, COMMIT last: the statements' results are in between.
        return results.slice(4, 4 + statements.length).map((r) => r.rows);
      }),
    );
  }

  async tx<T>(_kind: TxKind, fn: (t: Tx) => Promise<T>): Promise<T> {
    return this.again(() =>
      this.onClient(async (c) => {
        await c.query(this.begin);
        const t: Tx = {
          all: async (sql, params) => (await c.query(inline(sql, params))).rows as Row[],
          run: async (sql, params) => (await c.query(inline(sql, params))).rowCount ?? 0,
        };
        const out = await fn(t);
        await c.query('COMMIT');
        return out;
      }),
    );
  }

  async lock(t: Tx, name: string): Promise<void> {
    await t.all('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);
  }

  /** A client of the pool for one transaction; on failure rolled back (or dropped when its connection is gone). */
  private async onClient<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
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
      return await fn(client);
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

  /**
   * Runs `op` again on a fresh connection when its connection was lost (a server restart, a NAT dropping idle
   * connections). Safe because a repeated write changes nothing: answers replace by key, spend is logged once
   * per origin, claims and runs are upserts of the same holder.
   */
  private async again<T>(op: () => Promise<T>): Promise<T> {
    // A blip may leave several pooled connections dead: each is found out (and dropped) by one try.
    return withRetries(POLICIES.storeReconnect, realClock, { retryable: isUnreachable }, op);
  }

  async sizeBytes(): Promise<number> {
    const [rows] = await this.batch('read', [
      {
        sql: "SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0) AS bytes FROM unnest(ARRAY['answers', 'spend', 'bought_creators', 'claims', 'runs', 'pace', 'meta', 'creators_schema']) AS t",
      },
    ]);
    return Number(rows?.[0]?.bytes ?? 0);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

export async function openPgStore(o: PgOptions): Promise<PgStore> {
  const pool = await newPool(o);
  const dialect = new PgDialect(pool, o.target, Boolean(o.readOnly), o.busyTimeoutMs);
  const store = new PgStore(dialect, Boolean(o.readOnly));
  try {
    if (o.migrate) await store.migrate();
    await store.checkVersion();
    // Before anything is bought: a role that may claim but not keep an answer would pay for it and lose it.
    if (!o.readOnly) await checkRights(async (sql) => (await dialect.batch('read', [{ sql }]))[0] ?? [], o.target);
    return store;
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw pgError(err, o.target);
  }
}

export async function migratePgStore(o: PgOptions): Promise<number> {
  const pool = await newPool(o);
  try {
    return await new PgStore(new PgDialect(pool, o.target, false, o.busyTimeoutMs), false).migrate();
  } catch (err) {
    throw pgError(err, o.target);
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/**
 * The schema version a team store is at (0: never migrated), read without changing anything; a newer one is refused.
 */
export async function pgSchemaVersion(o: PgOptions): Promise<number> {
  const store = await openPgStore({ ...o, readOnly: true, migrate: false });
  try {
    return await store.version();
  } finally {
    await store.close();
  }
}

export class PgStore extends StoreCore {
  private schema = 0;

  constructor(
    private readonly dialect: PgDialect,
    private readonly readOnly: boolean,
  ) {
    super(dialect);
  }

  protected async schemaVersion(): Promise<number> {
    return this.schema;
  }

  async version(): Promise<number> {
    const [rows] = await this.dialect.batch('read', [
      {
        sql: "SELECT to_regclass('creators_schema') IS NOT NULL AS versioned, to_regclass('answers') IS NOT NULL AS answers",
      },
    ]);
    const r = rows?.[0];
    if (!r?.versioned) {
      if (r?.answers) throw pgError({ code: 'CREATORS_FOREIGN_DB' }, this.dialect.target);
      return 0;
    }
    const [v] = await this.dialect.batch('read', [{ sql: 'SELECT MAX(version) AS v FROM creators_schema' }]);
    return Number(v?.[0]?.v ?? 0);
  }

  /** Refuses a newer schema and, outside read-only use, an older one: the team migrates explicitly. */
  async checkVersion(): Promise<number> {
    const found = await this.version();
    if (found > SCHEMA_VERSION)
      throw pgError({ code: 'CREATORS_NEWER_SCHEMA', found, known: SCHEMA_VERSION }, this.dialect.target);
    // Read-only (a dry run, `store stats`) an older schema is read as it is, and none at all is no store yet.
    if (found < SCHEMA_VERSION && !this.readOnly)
      throw pgError({ code: 'CREATORS_MIGRATE', found, known: SCHEMA_VERSION }, this.dialect.target);
    this.schema = found;
    return found;
  }

  /**
   * Under an advisory lock: of two `store migrate` at once, the second finds the work done. Returns the version found.
   */
  async migrate(): Promise<number> {
    return this.dialect.tx('write', async (t) => {
      await this.dialect.lock(t, 'creators:migrate');
      await t.run('CREATE TABLE IF NOT EXISTS creators_schema (version INTEGER NOT NULL)');
      const [foreign] = await t.all(
        "SELECT to_regclass('answers') IS NOT NULL AS answers, (SELECT COALESCE(MAX(version), 0) FROM creators_schema) AS v",
      );
      const at = Number(foreign?.v ?? 0);
      if (at === 0 && foreign?.answers) throw Object.assign(new Error('foreign'), { code: 'CREATORS_FOREIGN_DB' });
      if (at > SCHEMA_VERSION)
        throw Object.assign(new Error('newer schema'), {
          code: 'CREATORS_NEWER_SCHEMA',
          found: at,
          known: SCHEMA_VERSION,
        });
      for (let v = at; v < SCHEMA_VERSION; v++) await t.run(PG_MIGRATIONS[v] as string);
      await t.run('DELETE FROM creators_schema');
      await t.run('INSERT INTO creators_schema (version) VALUES (?)', [SCHEMA_VERSION]);
      return at;
    });
  }
}
