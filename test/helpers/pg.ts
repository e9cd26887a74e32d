/**
 * A real PostgreSQL for the tests that need one: `.ci/run` starts a throwaway cluster
 * (scripts/pg-test-server.sh) and gives its URL in CREATORS_TEST_PG_URL. Each test gets a database of
 * its own, dropped after the file. Without the variable those tests are skipped, and say why. `.ci/run` also
 * puts PgBouncer in transaction pooling in front of it (scripts/pgbouncer-test-server.sh), given in
 * CREATORS_TEST_PGBOUNCER_URL: every database of the server is reachable through it by name.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** The admin URL of the test server, or undefined. */
export const PG_URL = process.env.CREATORS_TEST_PG_URL || undefined;

/** Why PostgreSQL tests are skipped here (shown in the test name). */
export const PG_SKIP =
  'skipped: no PostgreSQL (CREATORS_TEST_PG_URL unset; .ci/run starts one with scripts/pg-test-server.sh)';

if (!PG_URL) console.warn(`PostgreSQL store tests ${PG_SKIP}`);

/** The admin URL of a PgBouncer in front of the test server, or undefined. */
export const PGBOUNCER_URL = (PG_URL && process.env.CREATORS_TEST_PGBOUNCER_URL) || undefined;

/** Where Debian's `pgbouncer` is, if installed (it lives in /usr/sbin, often off a user's PATH). */
export const PGBOUNCER_BIN = [
  '/usr/sbin/pgbouncer',
  ...(process.env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .map((d) => join(d, 'pgbouncer')),
].find((f) => existsSync(f));

/** Why PgBouncer tests are skipped here. */
export const PGBOUNCER_SKIP = !PG_URL
  ? PG_SKIP
  : PGBOUNCER_BIN
    ? 'skipped: no PgBouncer running (CREATORS_TEST_PGBOUNCER_URL unset; .ci/run starts one with scripts/pgbouncer-test-server.sh)'
    : 'skipped: pgbouncer is not installed (apt-get install pgbouncer; .ci/run installs it and sets CREATORS_TEST_PGBOUNCER_URL)';

if (PG_URL && !PGBOUNCER_URL) console.warn(`PgBouncer store tests ${PGBOUNCER_SKIP}`);

interface Admin {
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

async function admin(): Promise<Admin> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: { Client: new (c: { connectionString: string }) => Admin & { connect(): Promise<void> } };
  };
  const c = new pg.Client({ connectionString: PG_URL as string });
  await c.connect();
  return c;
}

const created: string[] = [];
afterAll(async () => {
  if (created.length === 0) return;
  const c = await admin();
  try {
    for (const db of created.splice(0)) await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  } finally {
    await c.end();
  }
});

/** The URL of a new, empty database on the test server (with the admin's credentials). */
export async function freshPgDatabase(): Promise<string> {
  if (!PG_URL) throw new Error(PG_SKIP);
  const name = `creators_t_${randomBytes(6).toString('hex')}`;
  const c = await admin();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  created.push(name);
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.href;
}

/** A bouncer URL to a new, empty database made on the server directly (with the admin's credentials). */
export async function freshPgDatabaseViaBouncer(): Promise<string> {
  if (!PGBOUNCER_URL) throw new Error(PGBOUNCER_SKIP);
  const direct = new URL(await freshPgDatabase());
  const u = new URL(PGBOUNCER_URL);
  u.pathname = direct.pathname;
  return u.href;
}

/** The same URL with another user and password (for the credential tests). */
export function withCredentials(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.href;
}
