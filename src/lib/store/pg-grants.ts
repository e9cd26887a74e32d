/**
 * The rights a team role needs, written once: the GRANT statements `store migrate` prints and the README
 * shows, and the check a buying run makes before its first request (a role that may claim but not keep an
 * answer would pay for it and lose it). Read from every statement the store runs (postgres.ts, PG_MIGRATIONS):
 * upserts need INSERT and UPDATE, `SELECT ... FOR UPDATE` needs UPDATE, prune and forget DELETE, a BIGSERIAL
 * default or `nextval` needs USAGE on its sequence; advisory locks and `pg_total_relation_size` need none.
 * The spend log is only ever appended to and read. Connecting needs CONNECT on the database (PUBLIC has it by
 * default) and USAGE on the schema.
 */
import { CliError, EXIT } from '../errors.js';
import type { PgTarget } from './pg-errors.js';

type Privilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';

/** Each table a purchase (and `store push|prune|forget`) touches, with what is done to it. */
export const TABLE_RIGHTS: ReadonlyArray<readonly [table: string, privileges: readonly Privilege[]]> = [
  ['answers', ['SELECT', 'INSERT', 'UPDATE', 'DELETE']],
  ['bought_creators', ['SELECT', 'INSERT', 'UPDATE', 'DELETE']],
  ['claims', ['SELECT', 'INSERT', 'UPDATE', 'DELETE']],
  ['runs', ['SELECT', 'INSERT', 'UPDATE', 'DELETE']],
  ['pace', ['SELECT', 'INSERT', 'UPDATE', 'DELETE']],
  ['spend', ['SELECT', 'INSERT']],
  ['spend_names', ['SELECT', 'INSERT']],
  ['meta', ['SELECT']],
  ['creators_schema', ['SELECT']],
];

/** The serial columns whose sequences an INSERT (or the answers upsert's `nextval`) advances. */
export const SEQUENCE_RIGHTS: ReadonlyArray<readonly [table: string, column: string, sequence: string]> = [
  ['answers', 'seq', 'answers_seq_seq'],
  ['spend', 'id', 'spend_id_seq'],
  ['spend_names', 'id', 'spend_names_id_seq'],
];

/** The schema the store's tables are in when made by `store migrate` on a default server. */
const SCHEMA = 'public';

// PostgreSQL's reserved key words (and those allowed only as function or type names): a role so named is quoted.
const RESERVED = new Set(
  (
    'all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate collation column concurrently ' +
    'constraint create cross current_catalog current_date current_role current_schema current_time current_timestamp current_user default ' +
    'deferrable desc distinct do else end except false fetch for foreign freeze from full grant group having ilike in initially inner ' +
    'intersect into is isnull join lateral leading left like limit localtime localtimestamp natural not notnull null offset on only or ' +
    'order outer overlaps placing primary references returning right select session_user similar some symmetric system_user table ' +
    'tablesample then to trailing true union unique user using variadic verbose when where window with'
  ).split(' '),
);

/** A role name as SQL spells it: bare when it can be, else double-quoted. */
export function quoteRole(role: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(role) && !RESERVED.has(role) ? role : `"${role.replace(/"/g, '""')}"`;
}

/** What a team role needs to buy through the store, and to use `store push|prune|forget`. */
export function grantStatements(role: string): string[] {
  const to = quoteRole(role);
  return [
    `GRANT USAGE ON SCHEMA ${SCHEMA} TO ${to};`,
    ...TABLE_RIGHTS.map(([table, privileges]) => `GRANT ${privileges.join(', ')} ON TABLE ${table} TO ${to};`),
    `GRANT USAGE ON SEQUENCE ${SEQUENCE_RIGHTS.map(([, , sequence]) => sequence).join(', ')} TO ${to};`,
  ];
}

/**
 * What `store migrate` needs: CREATE on the schema for the first run; a later schema alters the tables, which
 * only their owner may do, so every migrate runs as the role that ran the first.
 */
export function migrateGrantStatements(role: string): string[] {
  return [`GRANT USAGE, CREATE ON SCHEMA ${SCHEMA} TO ${quoteRole(role)};`];
}

export interface MissingRight {
  privilege: string;
  /** `table answers`, `sequence spend_id_seq`. */
  on: string;
}

export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * One round trip: the rights of `grantStatements` the current user lacks, and its name. Tables are named as
 * the store's statements name them (the search path decides), so the check sees what a purchase would. A
 * sequence the server does not know as a serial column's is not asked about.
 */
export function missingRightsSql(): string {
  const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;
  const tables = TABLE_RIGHTS.flatMap(([table, privileges]) => privileges.map((p) => [table, p] as const)).map(
    ([table, p], i) => `(${i}, ${lit(table)}, ${lit(p)})`,
  );
  const sequences = SEQUENCE_RIGHTS.map(
    ([table, column], i) => `(${tables.length + i}, ${lit(table)}, ${lit(column)})`,
  );
  return `SELECT current_user AS role, m.privilege, m.kind, m.name FROM (
  SELECT t.n, t.privilege, 'table' AS kind, t.name FROM (VALUES ${tables.join(', ')}) AS t (n, name, privilege)
   WHERE NOT has_table_privilege(t.name, t.privilege)
  UNION ALL
  SELECT s.n, 'USAGE', 'sequence', s.seq::regclass::text FROM (
    SELECT c.n, pg_get_serial_sequence(c.tab, c.col) AS seq FROM (VALUES ${sequences.join(', ')}) AS c (n, tab, col)) AS s
   WHERE s.seq IS NOT NULL AND NOT has_sequence_privilege(s.seq, 'USAGE')
) AS m RIGHT JOIN (SELECT 1) AS one ON true
ORDER BY m.n`;
}

export async function missingRights(query: Query): Promise<{ role: string; missing: MissingRight[] }> {
  const rows = await query(missingRightsSql());
  const role = String(rows[0]?.role ?? '');
  const missing = rows
    .filter((r) => r.privilege !== null && r.privilege !== undefined)
    .map((r) => ({ privilege: String(r.privilege), on: `${String(r.kind)} ${String(r.name)}` }));
  return { role, missing };
}

/** Refuses a role that lacks a right a purchase needs, naming the first ones, before anything is bought. */
export async function checkRights(query: Query, target: PgTarget): Promise<void> {
  const { role, missing } = await missingRights(query);
  if (missing.length === 0) return;
  const shown = missing.slice(0, 3).map((m) => `${m.privilege} on ${m.on}`);
  const more = missing.length > shown.length ? ` (and ${missing.length - shown.length} more)` : '';
  throw new CliError(
    `The role ${role} may not ${shown.join(', ')}${more} in the team store at ${target.host}:${target.port}; nothing was bought.`,
    EXIT.ERROR,
    {
      code: 'store_rights',
      hint: `Have the tables' owner run the GRANT statements \`creators store migrate --print-grants --role ${role}\` prints (the README lists them), or run with --no-store to buy without the purchase memory.`,
    },
  );
}
