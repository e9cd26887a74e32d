/**
 * One schema on two engines: a SQLite file and a PostgreSQL database, each migrated by its engine to
 * SCHEMA_VERSION, have the same tables, columns (names, order, compatible types, NOT NULL, defaults), primary
 * keys, indexes (unique ones included) and foreign keys, read back from the engines' own catalogues. The
 * only differences allowed are listed below, each with its reason, and each must still be there (a stale
 * allowance fails too). The check is shown to see a difference planted on one side only.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateStore } from '../../../src/lib/store/open.js';
import { MIGRATIONS, PG_MIGRATIONS, SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import { openSqliteStore } from '../../../src/lib/store/sqlite.js';
import { freshPgDatabase, PG_SKIP, PG_URL } from '../../helpers/pg.js';
import { tempDir } from '../../helpers/temp.js';

/** The kind a column's declared type stores: SQLite's INTEGER is 64-bit, so PostgreSQL's INTEGER and BIGINT both map to it. */
type Kind = 'integer' | 'text' | 'real';

interface Column {
  name: string;
  kind: Kind;
  notNull: boolean;
  default: string | null;
  /** Numbered by the engine when not given (SQLite's INTEGER PRIMARY KEY AUTOINCREMENT, PostgreSQL's serial). */
  auto: boolean;
}

interface Table {
  columns: Column[];
  primaryKey: string[];
  /** `name(col, ...)`, `unique name(col, ...)`, the primary key's own index left out. */
  indexes: string[];
  /** `(col) -> table(col) on delete ACTION`. */
  foreignKeys: string[];
}

type Schema = Record<string, Table>;

/**
 * What may differ, and why. Each is applied to the side named and must find what it removes: an allowance
 * that no longer applies is reported as a difference.
 */
const ALLOWED = {
  pgOnlyTables: {
    creators_schema:
      "PostgreSQL keeps the schema version in a table; SQLite keeps it in the file header's user_version",
  },
  sqliteOnlyTables: { sqlite_sequence: "SQLite's own bookkeeping of AUTOINCREMENT (spend.id)" },
  pgOnlyColumns: {
    'answers.seq':
      "orders answers written in the same millisecond (store list, keyset paging): SQLite's rowid does that, and cannot be named as a column",
  },
  /** PostgreSQL's 32-bit INTEGER where SQLite's 64-bit one holds the same: only small counts, never money or time. */
  pgNarrowIntegers: {
    'answers.records': 'records on one page (at most a few hundred)',
    'spend.records': 'records of one charge',
    'claims.pid': 'a process id (32-bit on every system)',
    'runs.pid': 'a process id',
  },
} as const;

// ---- SQLite's catalogue

interface RawDb {
  exec(sql: string): void;
  prepare(sql: string): { all(...p: unknown[]): unknown[] };
  close(): void;
}

async function rawSqlite(file: string): Promise<RawDb> {
  const { default: Database } = (await import('libsql')) as unknown as { default: new (f: string) => RawDb };
  return new Database(file);
}

function sqliteKind(declared: string): Kind {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (t.includes('CHAR') || t.includes('TEXT') || t.includes('CLOB')) return 'text';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'real';
  throw new Error(`SQLite type ${declared} is not mapped here`);
}

async function sqliteSchema(file: string): Promise<Schema> {
  const db = await rawSqlite(file);
  try {
    const rows = <T>(sql: string): T[] => db.prepare(sql).all() as T[];
    const out: Schema = {};
    for (const { name, sql } of rows<{ name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )) {
      // SQLite's own tables (untyped columns) are only named.
      if (name.startsWith('sqlite_')) {
        out[name] = { columns: [], primaryKey: [], indexes: [], foreignKeys: [] };
        continue;
      }
      const info = rows<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
        `PRAGMA table_info(${name})`,
      );
      const primaryKey = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      const rowidAlias =
        primaryKey.length === 1 && info.find((c) => c.name === primaryKey[0])?.type.toUpperCase() === 'INTEGER';
      const autoincrement = rowidAlias && /AUTOINCREMENT/i.test(sql);
      const columns = info.map((c) => ({
        name: c.name,
        kind: sqliteKind(c.type),
        // A primary key is never NULL on PostgreSQL; SQLite lets a non-integer one be, a quirk it keeps for old files.
        notNull: c.notnull === 1 || c.pk > 0,
        default: c.dflt_value,
        auto: Boolean(autoincrement && c.name === primaryKey[0]),
      }));
      const indexes = rows<{ name: string; unique: number; origin: string }>(`PRAGMA index_list(${name})`)
        .filter((i) => i.origin !== 'pk')
        .map(
          (i) =>
            `${i.unique ? 'unique ' : ''}${i.name}(${rows<{ name: string }>(`PRAGMA index_info(${i.name})`)
              .map((c) => c.name)
              .join(', ')})`,
        )
        .sort();
      const foreignKeys = rows<{ table: string; from: string; to: string; on_delete: string }>(
        `PRAGMA foreign_key_list(${name})`,
      )
        .map((f) => `(${f.from}) -> ${f.table}(${f.to}) on delete ${f.on_delete.toUpperCase()}`)
        .sort();
      out[name] = { columns, primaryKey, indexes, foreignKeys };
    }
    return out;
  } finally {
    db.close();
  }
}

// ---- PostgreSQL's catalogue

interface PgClient {
  connect(): Promise<void>;
  query(q: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

async function pgClient(url: string): Promise<PgClient> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: { Client: new (c: { connectionString: string }) => PgClient };
  };
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

function pgKind(type: string): Kind {
  if (type === 'bigint' || type === 'integer' || type === 'smallint') return 'integer';
  if (type === 'text' || type.startsWith('character')) return 'text';
  if (type === 'double precision' || type === 'real') return 'real';
  throw new Error(`PostgreSQL type ${type} is not mapped here`);
}

/** The schema, and the `table.column`s declared 32-bit INTEGER. */
async function pgSchema(url: string): Promise<{ schema: Schema; narrow: string[] }> {
  const c = await pgClient(url);
  try {
    const out: Schema = {};
    const narrow: string[] = [];
    const tables = await c.query(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
    );
    for (const { name } of tables.rows as { name: string }[]) {
      const cols = (
        await c.query(
          `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name = '${name}' ORDER BY ordinal_position`,
        )
      ).rows as { name: string; type: string; nullable: string; dflt: string | null }[];
      for (const col of cols) if (col.type === 'integer' || col.type === 'smallint') narrow.push(`${name}.${col.name}`);
      const idx = (
        await c.query(
          `SELECT i.relname AS name, x.indisunique AS uniq, x.indisprimary AS pk,
             (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n) JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum) AS cols
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = '${name}'::regclass`,
        )
      ).rows as { name: string; uniq: boolean; pk: boolean; cols: string[] }[];
      const pk = idx.find((i) => i.pk);
      const fks = (
        await c.query(
          `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = '${name}'::regclass AND contype = 'f'`,
        )
      ).rows as { def: string }[];
      out[name] = {
        columns: cols.map((col) => {
          const auto = col.dflt?.startsWith('nextval(') ?? false;
          return {
            name: col.name,
            kind: pgKind(col.type),
            notNull: col.nullable === 'NO',
            default: auto ? null : (col.dflt?.replace(/::[a-z ]+$/, '') ?? null),
            auto,
          };
        }),
        primaryKey: pk?.cols ?? [],
        indexes: idx
          .filter((i) => !i.pk)
          .map((i) => `${i.uniq ? 'unique ' : ''}${i.name}(${i.cols.join(', ')})`)
          .sort(),
        foreignKeys: fks
          .map(({ def }) => {
            const m =
              /^FOREIGN KEY \(([^)]+)\) REFERENCES (\w+)\(([^)]+)\)(?: ON DELETE (CASCADE|SET NULL|SET DEFAULT|RESTRICT))?/.exec(
                def,
              );
            if (!m) throw new Error(`foreign key not read: ${def}`);
            return `(${m[1]}) -> ${m[2]}(${m[3]}) on delete ${m[4] ?? 'NO ACTION'}`;
          })
          .sort(),
      };
    }
    return { schema: out, narrow: narrow.sort() };
  } finally {
    await c.end();
  }
}

// ---- the comparison

/** Every difference between the two, the allowed ones taken out (an allowance that finds nothing to take is one). */
function differences(sqlite: Schema, pg: { schema: Schema; narrow: string[] }): string[] {
  const out: string[] = [];
  const s = structuredClone(sqlite);
  const p = structuredClone(pg.schema);
  for (const t of Object.keys(ALLOWED.sqliteOnlyTables)) {
    if (!s[t]) out.push(`allowed SQLite-only table ${t} is not there`);
    delete s[t];
  }
  for (const t of Object.keys(ALLOWED.pgOnlyTables)) {
    if (!p[t]) out.push(`allowed PostgreSQL-only table ${t} is not there`);
    delete p[t];
  }
  for (const tc of Object.keys(ALLOWED.pgOnlyColumns)) {
    const [t, c] = tc.split('.') as [string, string];
    const table = p[t];
    if (!table?.columns.some((x) => x.name === c)) out.push(`allowed PostgreSQL-only column ${tc} is not there`);
    if (!table) continue;
    table.columns = table.columns.filter((x) => x.name !== c);
    // An index may end with it (answers_bought_at: the paging order); without it, it must be SQLite's.
    table.indexes = table.indexes.map((i) => i.replace(`, ${c})`, ')'));
  }
  const narrowAllowed = Object.keys(ALLOWED.pgNarrowIntegers);
  for (const n of pg.narrow)
    if (!narrowAllowed.includes(n) && n.split('.')[0] !== 'creators_schema')
      out.push(`${n}: PostgreSQL INTEGER (32-bit) where SQLite's holds 64 bits; make it BIGINT`);
  for (const n of narrowAllowed)
    if (pg.schema[n.split('.')[0] as string] && !pg.narrow.includes(n))
      out.push(`allowed 32-bit PostgreSQL column ${n} is not 32-bit`);

  for (const t of [...new Set([...Object.keys(s), ...Object.keys(p)])].sort()) {
    const a = s[t];
    const b = p[t];
    if (!a || !b) {
      out.push(`table ${t}: only on ${a ? 'SQLite' : 'PostgreSQL'}`);
      continue;
    }
    const names = (x: Table) => x.columns.map((c) => c.name).join(', ');
    if (names(a) !== names(b)) out.push(`table ${t}: columns SQLite (${names(a)}) vs PostgreSQL (${names(b)})`);
    for (const ca of a.columns) {
      const cb = b.columns.find((c) => c.name === ca.name);
      if (!cb) continue;
      for (const k of ['kind', 'notNull', 'default', 'auto'] as const) {
        if (ca[k] !== cb[k])
          out.push(`column ${t}.${ca.name}: ${k} SQLite ${String(ca[k])} vs PostgreSQL ${String(cb[k])}`);
      }
    }
    if (a.primaryKey.join(', ') !== b.primaryKey.join(', '))
      out.push(
        `table ${t}: primary key SQLite (${a.primaryKey.join(', ')}) vs PostgreSQL (${b.primaryKey.join(', ')})`,
      );
    for (const [what, xa, xb] of [
      ['index', a.indexes, b.indexes],
      ['foreign key', a.foreignKeys, b.foreignKeys],
    ] as const) {
      for (const i of xa) if (!xb.includes(i)) out.push(`table ${t}: ${what} ${i} only on SQLite`);
      for (const i of xb) if (!xa.includes(i)) out.push(`table ${t}: ${what} ${i} only on PostgreSQL`);
    }
  }
  return out;
}

// ---- databases built from a list of migrations, the version kept as each engine keeps it

async function sqliteAt(migrations: readonly string[]): Promise<string> {
  const file = join(tempDir('creators-parity-'), 'store.db');
  const db = await rawSqlite(file);
  try {
    for (const [v, m] of migrations.entries()) {
      db.exec('BEGIN IMMEDIATE');
      db.exec(m);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
  return file;
}

async function pgAt(migrations: readonly string[]): Promise<string> {
  const url = await freshPgDatabase();
  const c = await pgClient(url);
  try {
    await c.query('CREATE TABLE creators_schema (version INTEGER NOT NULL)');
    for (const [v, m] of migrations.entries())
      await c.query(
        `BEGIN; ${m}; DELETE FROM creators_schema; INSERT INTO creators_schema (version) VALUES (${v + 1}); COMMIT`,
      );
  } finally {
    await c.end();
  }
  return url;
}

describe('the schema on both engines', () => {
  it('one migration a version on each engine', () => {
    expect(PG_MIGRATIONS.length).toBe(MIGRATIONS.length);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it.skipIf(!PG_URL)(
    `each engine migrated by its own code to the current version: the same tables, columns, keys and indexes${PG_URL ? '' : ` (${PG_SKIP})`}`,
    async () => {
      const file = join(tempDir('creators-parity-'), 'store.db');
      const s = await openSqliteStore({ file });
      expect(s.version()).toBe(SCHEMA_VERSION);
      await s.close();
      const url = await freshPgDatabase();
      expect(await migrateStore({ file: url, env: {} })).toEqual({ engine: 'postgres', from: 0, to: SCHEMA_VERSION });

      const sqlite = await sqliteSchema(file);
      const pg = await pgSchema(url);
      expect(differences(sqlite, pg)).toEqual([]);
      // What the issue names, read from the catalogues themselves (not only as equal on both sides).
      expect(sqlite.spend?.indexes).toContain('unique spend_origin(origin)');
      expect(sqlite.bought_creators?.foreignKeys).toEqual(['(key) -> answers(key) on delete CASCADE']);
      expect(sqlite.bought_creators?.primaryKey).toEqual(['key', 'handle']);
      expect(Object.keys(sqlite).sort()).toEqual([
        'answers',
        'bought_creators',
        'claims',
        'meta',
        'pace',
        'runs',
        'spend',
        'spend_names',
        'sqlite_sequence',
      ]);
    },
  );

  it.skipIf(!PG_URL)(
    'at every version on the way, too: a change lands in the same version on both engines',
    async () => {
      for (let v = 1; v <= SCHEMA_VERSION; v++) {
        const sqlite = await sqliteSchema(await sqliteAt(MIGRATIONS.slice(0, v)));
        const pg = await pgSchema(await pgAt(PG_MIGRATIONS.slice(0, v)));
        // sqlite_sequence comes with the first AUTOINCREMENT (version 1), seq with answers: every allowance holds from 1 on.
        expect(differences(sqlite, pg), `at version ${v}`).toEqual([]);
      }
    },
  );
});

describe.skipIf(!PG_URL)(
  'the check sees a difference planted on one side (a test that cannot fail is a defect)',
  () => {
    const planted: [string, string | undefined, string | undefined, string[]][] = [
      [
        'a column on one side',
        'ALTER TABLE spend ADD COLUMN note TEXT',
        undefined,
        [
          'table spend: columns SQLite (id, at, credits_milli, records, origin, names, note) vs PostgreSQL (id, at, credits_milli, records, origin, names)',
        ],
      ],
      [
        'a table on one side',
        undefined,
        'CREATE TABLE extra (id TEXT PRIMARY KEY)',
        ['table extra: only on PostgreSQL'],
      ],
      [
        "a type that is not the other side's",
        'ALTER TABLE meta ADD COLUMN n REAL',
        'ALTER TABLE meta ADD COLUMN n TEXT',
        ['column meta.n: kind SQLite real vs PostgreSQL text'],
      ],
      [
        'money in a 32-bit column',
        'ALTER TABLE runs ADD COLUMN extra_milli INTEGER',
        'ALTER TABLE runs ADD COLUMN extra_milli INTEGER',
        ["runs.extra_milli: PostgreSQL INTEGER (32-bit) where SQLite's holds 64 bits; make it BIGINT"],
      ],
      [
        'NOT NULL on one side',
        "ALTER TABLE meta ADD COLUMN m TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE meta ADD COLUMN m TEXT DEFAULT ''",
        ['column meta.m: notNull SQLite true vs PostgreSQL false'],
      ],
      [
        'a unique index on one side',
        undefined,
        'CREATE UNIQUE INDEX claims_run ON claims (run)',
        ['table claims: index unique claims_run(run) only on PostgreSQL'],
      ],
      [
        'a unique index that is plain on the other side',
        'CREATE INDEX claims_run ON claims (run)',
        'CREATE UNIQUE INDEX claims_run ON claims (run)',
        [
          'table claims: index claims_run(run) only on SQLite',
          'table claims: index unique claims_run(run) only on PostgreSQL',
        ],
      ],
      [
        'a foreign key on one side',
        'CREATE TABLE notes (key TEXT NOT NULL REFERENCES answers (key) ON DELETE CASCADE)',
        'CREATE TABLE notes (key TEXT NOT NULL)',
        ['table notes: foreign key (key) -> answers(key) on delete CASCADE only on SQLite'],
      ],
    ];

    for (const [what, onSqlite, onPg, expected] of planted) {
      it(what, async () => {
        const sqlite = await sqliteSchema(await sqliteAt(onSqlite ? [...MIGRATIONS, onSqlite] : MIGRATIONS));
        const pg = await pgSchema(await pgAt(onPg ? [...PG_MIGRATIONS, onPg] : PG_MIGRATIONS));
        expect(differences(sqlite, pg)).toEqual(expected);
      });
    }

    it('a stale allowance is a difference: answers.seq gone from PostgreSQL, or answers_bought_at not ending with it', async () => {
      const sqlite = await sqliteSchema(await sqliteAt(MIGRATIONS));
      const pg = await pgSchema(
        await pgAt([
          ...PG_MIGRATIONS,
          'DROP INDEX answers_bought_at; ALTER TABLE answers DROP COLUMN seq; CREATE INDEX answers_bought_at ON answers (bought_at)',
        ]),
      );
      expect(differences(sqlite, pg)).toEqual(['allowed PostgreSQL-only column answers.seq is not there']);
      const other = await pgSchema(
        await pgAt([
          ...PG_MIGRATIONS,
          'DROP INDEX answers_bought_at; CREATE INDEX answers_bought_at ON answers (seq, bought_at)',
        ]),
      );
      expect(differences(sqlite, other)).toEqual([
        'table answers: index answers_bought_at(bought_at) only on SQLite',
        'table answers: index answers_bought_at(seq, bought_at) only on PostgreSQL',
      ]);
    });
  },
);
