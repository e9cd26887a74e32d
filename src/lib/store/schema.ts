/**
 * The store's schema as a list of versioned migrations. The version is SQLite's `user_version`; each
 * migration runs in one transaction with the version bump, so a store is always at a version it says.
 * Append only: a migration that has shipped is never edited, a change is a new one.
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
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
