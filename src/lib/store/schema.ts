/**
 * Versioned migrations, one text per engine for each version. Each runs in one transaction with the version
 * bump (SQLite's `user_version`, PostgreSQL's `creators_schema`), so a store is always at the version it says.
 * Append only: a shipped migration is never edited; a change is a new one, in both lists.
 */
export const MIGRATIONS: readonly string[] = [
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
    credits_milli INTEGER NOT NULL,
    records INTEGER NOT NULL,
    bought_at INTEGER NOT NULL,
    profile TEXT NOT NULL
  );
  CREATE INDEX answers_subject ON answers (platform, subject);
  CREATE INDEX answers_bought_at ON answers (bought_at);
  CREATE TABLE spend (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    profile TEXT NOT NULL,
    base_url TEXT NOT NULL,
    command TEXT NOT NULL,
    route TEXT NOT NULL,
    platform TEXT,
    credits_milli INTEGER NOT NULL,
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
    bought_at INTEGER NOT NULL,
    PRIMARY KEY (key, handle)
  );
  CREATE INDEX bought_creators_platform ON bought_creators (base_url, platform, bought_at);
  CREATE TABLE claims (
    key TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    claimed_at INTEGER NOT NULL
  );
  CREATE TABLE runs (
    run TEXT PRIMARY KEY,
    profile TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    reserved_milli INTEGER NOT NULL
  );
  CREATE TABLE pace (
    account TEXT PRIMARY KEY,
    tat REAL NOT NULL
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
  INSERT INTO meta (name, value) VALUES ('store_id', lower(hex(randomblob(16))));
  `,
  // 4: claims and reservations carry the file lock's identity of their holder (boot id, process start time)
  // and when it last said it was alive (the database's clock): liveness is one rule (store/core.ts).
  `
  ALTER TABLE claims ADD COLUMN boot TEXT;
  ALTER TABLE claims ADD COLUMN start TEXT;
  ALTER TABLE claims ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE runs ADD COLUMN boot TEXT;
  ALTER TABLE runs ADD COLUMN start TEXT;
  ALTER TABLE runs ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
  `,
];

/** `seq` orders answers written in the same millisecond as SQLite's rowid does. */
export const PG_MIGRATIONS: readonly string[] = [
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
    credits_milli BIGINT NOT NULL,
    records INTEGER NOT NULL,
    bought_at BIGINT NOT NULL,
    profile TEXT NOT NULL,
    seq BIGSERIAL NOT NULL
  );
  CREATE INDEX answers_subject ON answers (platform, subject);
  CREATE INDEX answers_bought_at ON answers (bought_at, seq);
  CREATE TABLE spend (
    id BIGSERIAL PRIMARY KEY,
    at BIGINT NOT NULL,
    profile TEXT NOT NULL,
    base_url TEXT NOT NULL,
    command TEXT NOT NULL,
    route TEXT NOT NULL,
    platform TEXT,
    credits_milli BIGINT NOT NULL,
    records INTEGER NOT NULL,
    run TEXT NOT NULL
  );
  CREATE INDEX spend_at ON spend (profile, at);
  `,
  `
  CREATE TABLE bought_creators (
    key TEXT NOT NULL REFERENCES answers (key) ON DELETE CASCADE,
    base_url TEXT NOT NULL,
    platform TEXT NOT NULL,
    handle TEXT NOT NULL,
    bought_at BIGINT NOT NULL,
    PRIMARY KEY (key, handle)
  );
  CREATE INDEX bought_creators_platform ON bought_creators (base_url, platform, bought_at);
  CREATE TABLE claims (
    key TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    claimed_at BIGINT NOT NULL
  );
  CREATE TABLE runs (
    run TEXT PRIMARY KEY,
    profile TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    reserved_milli BIGINT NOT NULL
  );
  CREATE TABLE pace (
    account TEXT PRIMARY KEY,
    tat DOUBLE PRECISION NOT NULL
  );
  `,
  `
  ALTER TABLE spend ADD COLUMN origin TEXT;
  CREATE UNIQUE INDEX spend_origin ON spend (origin);
  CREATE TABLE meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  INSERT INTO meta (name, value) VALUES ('store_id', replace(gen_random_uuid()::text, '-', ''));
  `,
  `
  ALTER TABLE claims ADD COLUMN boot TEXT, ADD COLUMN start TEXT, ADD COLUMN seen_at BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE runs ADD COLUMN boot TEXT, ADD COLUMN start TEXT, ADD COLUMN seen_at BIGINT NOT NULL DEFAULT 0;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
