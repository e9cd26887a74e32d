/**
 * Versioned migrations, written once and spelt for each engine (the few words below differ). Each runs in one
 * transaction with the version bump (SQLite's `user_version`, PostgreSQL's `creators_schema`), so a store is
 * always at the version it says. Append only: a shipped migration is never edited; a change is a new one.
 * test/lib/store/schema-parity.test.ts reads both engines' catalogues at every version.
 */
interface Spelling {
  /** A 64-bit integer: money and times (SQLite's INTEGER is 64-bit; PostgreSQL's is 32). */
  bigint: string;
  real: string;
  /** A key numbered by the engine, in the order written. */
  id: string;
  /** Orders answers written in the same millisecond: SQLite's rowid does it, PostgreSQL needs a column. */
  seq: string;
  seqOrder: string;
  randomId: string;
  /** Around a change of answers' keys: the foreign key of bought_creators checked at commit, or set aside. */
  keysFrom: string;
  keysTo: string;
  /** A new table shared by every buying role: given the rights its role has on the table it comes out of. */
  grantsLike: string;
}

const SQLITE: Spelling = {
  bigint: 'INTEGER',
  real: 'REAL',
  id: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  seq: '',
  seqOrder: '',
  randomId: 'lower(hex(randomblob(16)))',
  keysFrom: 'PRAGMA defer_foreign_keys = ON;',
  keysTo: '',
  grantsLike: '',
};

const POSTGRES: Spelling = {
  bigint: 'BIGINT',
  real: 'DOUBLE PRECISION',
  id: 'BIGSERIAL PRIMARY KEY',
  seq: ',\n    seq BIGSERIAL NOT NULL',
  seqOrder: ', seq',
  randomId: "replace(gen_random_uuid()::text, '-', '')",
  // Not deferrable as created (schema 2): dropped and made again (a table made again would lose its grants).
  keysFrom: 'ALTER TABLE bought_creators DROP CONSTRAINT bought_creators_key_fkey;',
  keysTo:
    'ALTER TABLE bought_creators ADD CONSTRAINT bought_creators_key_fkey FOREIGN KEY (key) REFERENCES answers (key) ON DELETE CASCADE;',
  // Every role that may log a charge (INSERT on spend) may log its names (pg-grants.ts TABLE_RIGHTS), so a team's
  // roles keep buying after the migration without a GRANT of their owner's.
  grantsLike: `DO $$
  DECLARE r record;
  BEGIN
    FOR r IN SELECT DISTINCT a.grantee FROM pg_class c, aclexplode(c.relacl) a
      WHERE c.oid = 'spend'::regclass AND a.privilege_type = 'INSERT' AND a.grantee <> c.relowner
    LOOP
      EXECUTE format('GRANT SELECT, INSERT ON TABLE spend_names TO %s',
        CASE WHEN r.grantee = 0 THEN 'PUBLIC' ELSE r.grantee::regrole::text END);
      EXECUTE format('GRANT USAGE ON SEQUENCE spend_names_id_seq TO %s',
        CASE WHEN r.grantee = 0 THEN 'PUBLIC' ELSE r.grantee::regrole::text END);
    END LOOP;
  END $$;`,
};

/**
 * Characters of an answer's key kept: 32 hex digits, 128 bits of its SHA-256 (a collision is not expected before
 * 2^64 answers). A key written longer (an outbox or a store file of an older version) is read by its first 32.
 */
export const KEY_CHARS = 32;

export const storedKey = (key: string): string => key.slice(0, KEY_CHARS);

const SCHEMA: readonly string[] = [
  // 1: paid answers and the spend log.
  `
  CREATE TABLE answers (
    key TEXT PRIMARY KEY,
    base_url TEXT NOT NULL,
    route TEXT NOT NULL,
    kind TEXT NOT NULL,
    platform TEXT,
    subject TEXT,
    request TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    credits_milli {bigint} NOT NULL,
    records INTEGER NOT NULL,
    bought_at {bigint} NOT NULL,
    profile TEXT NOT NULL{seq}
  );
  CREATE INDEX answers_subject ON answers (platform, subject);
  CREATE INDEX answers_bought_at ON answers (bought_at{seqOrder});
  CREATE TABLE spend (
    id {id},
    at {bigint} NOT NULL,
    profile TEXT NOT NULL,
    base_url TEXT NOT NULL,
    command TEXT NOT NULL,
    route TEXT NOT NULL,
    platform TEXT,
    credits_milli {bigint} NOT NULL,
    records INTEGER NOT NULL,
    run TEXT NOT NULL
  );
  CREATE INDEX spend_at ON spend (profile, at);
  `,
  // 2: what is shared between processes: creators bought (for --skip-bought), claims in flight,
  // runs holding a budget reservation, the account's pace.
  `
  CREATE TABLE bought_creators (
    key TEXT NOT NULL REFERENCES answers (key) ON DELETE CASCADE,
    base_url TEXT NOT NULL,
    platform TEXT NOT NULL,
    handle TEXT NOT NULL,
    bought_at {bigint} NOT NULL,
    PRIMARY KEY (key, handle)
  );
  CREATE INDEX bought_creators_platform ON bought_creators (base_url, platform, bought_at);
  CREATE TABLE claims (
    key TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    claimed_at {bigint} NOT NULL
  );
  CREATE TABLE runs (
    run TEXT PRIMARY KEY,
    profile TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started_at {bigint} NOT NULL,
    reserved_milli {bigint} NOT NULL
  );
  CREATE TABLE pace (
    account TEXT PRIMARY KEY,
    tat {real} NOT NULL
  );
  `,
  // 3: where a spend entry came from (one charge is logged once, whatever copies it: a retried commit,
  // `store push` run twice), and the store's own id (what its entries are known by elsewhere).
  `
  ALTER TABLE spend ADD COLUMN origin TEXT;
  CREATE UNIQUE INDEX spend_origin ON spend (origin);
  CREATE TABLE meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  INSERT INTO meta (name, value) VALUES ('store_id', {randomId});
  `,
  // 4: claims and reservations carry the file lock's identity of their holder (boot id, process start time)
  // and when it last said it was alive (the database's clock): liveness is one rule (store/core.ts).
  `
  ALTER TABLE claims ADD COLUMN boot TEXT;
  ALTER TABLE claims ADD COLUMN start TEXT;
  ALTER TABLE claims ADD COLUMN seen_at {bigint} NOT NULL DEFAULT 0;
  ALTER TABLE runs ADD COLUMN boot TEXT;
  ALTER TABLE runs ADD COLUMN start TEXT;
  ALTER TABLE runs ADD COLUMN seen_at {bigint} NOT NULL DEFAULT 0;
  `,
  // 5: a compact store (README "Store size"). A key is the first 32 hex digits of its SHA-256 (128 bits), not
  // 64, in each table it is in; a creator answer's own creator (`ownCreator` in core.ts) is read from the answer,
  // not written again in bought_creators.
  `
  DELETE FROM bought_creators WHERE EXISTS (SELECT 1 FROM answers a WHERE a.key = bought_creators.key
    AND a.base_url = bought_creators.base_url AND a.platform = bought_creators.platform
    AND a.subject = bought_creators.handle AND a.bought_at = bought_creators.bought_at
    AND a.kind = 'creator' AND a.status = 'ok' AND a.subject <> '' AND a.subject NOT LIKE '%@%');
  {keysFrom}
  UPDATE answers SET key = substr(key, 1, 32) WHERE length(key) > 32;
  UPDATE bought_creators SET key = substr(key, 1, 32) WHERE length(key) > 32;
  UPDATE claims SET key = substr(key, 1, 32) WHERE length(key) > 32;
  {keysTo}
  `,
  // 6: a spend entry names its profile, base URL, command, route, platform and run by the id of a row of
  // spend_names (one a run and command, not ~110 B an entry; README "Store size"). A platform of none is ''.
  // answers_subject is the subject alone: forget names both, and the platform was 10 B an answer.
  `
  CREATE TABLE spend_names (
    id {id},
    run TEXT NOT NULL,
    profile TEXT NOT NULL,
    base_url TEXT NOT NULL,
    command TEXT NOT NULL,
    route TEXT NOT NULL,
    platform TEXT NOT NULL
  );
  CREATE UNIQUE INDEX spend_names_all ON spend_names (run, profile, base_url, command, route, platform);
  CREATE INDEX spend_names_profile ON spend_names (profile);
  INSERT INTO spend_names (run, profile, base_url, command, route, platform)
    SELECT DISTINCT run, profile, base_url, command, route, COALESCE(platform, '') FROM spend;
  ALTER TABLE spend ADD COLUMN names {bigint} NOT NULL DEFAULT 0;
  UPDATE spend SET names = (SELECT n.id FROM spend_names n WHERE n.run = spend.run AND n.profile = spend.profile
    AND n.base_url = spend.base_url AND n.command = spend.command AND n.route = spend.route
    AND n.platform = COALESCE(spend.platform, ''));
  DROP INDEX spend_at;
  ALTER TABLE spend DROP COLUMN profile;
  ALTER TABLE spend DROP COLUMN base_url;
  ALTER TABLE spend DROP COLUMN command;
  ALTER TABLE spend DROP COLUMN route;
  ALTER TABLE spend DROP COLUMN platform;
  ALTER TABLE spend DROP COLUMN run;
  CREATE INDEX spend_at ON spend (names, at);
  DROP INDEX answers_subject;
  CREATE INDEX answers_subject ON answers (subject);
  {grantsLike}
  `,
];

function spelt(s: Spelling): readonly string[] {
  return SCHEMA.map((m) =>
    m.replace(/\{(bigint|real|id|seq|seqOrder|randomId|keysFrom|keysTo|grantsLike)\}/g, (_, w: keyof Spelling) => s[w]),
  );
}

export const MIGRATIONS: readonly string[] = spelt(SQLITE);

export const PG_MIGRATIONS: readonly string[] = spelt(POSTGRES);

export const SCHEMA_VERSION = SCHEMA.length;
