// scripts/pgbouncer-test-server.sh, which `.ci/run` starts in front of the test PostgreSQL: a stock PgBouncer in
// transaction pooling that lets through every database and role of the server (auth_query), refuses startup
// parameters as teams' bouncers do, and is gone, with its folder, once stopped.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freshPgDatabase, PG_URL, PGBOUNCER_BIN, PGBOUNCER_SKIP, withCredentials } from '../helpers/pg.js';

const script = fileURLToPath(new URL('../../scripts/pgbouncer-test-server.sh', import.meta.url));

interface PgClient {
  connect(): Promise<void>;
  query(q: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

async function pgClient(c: { connectionString: string; options?: string }): Promise<PgClient> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: { Client: new (c: { connectionString: string; options?: string }) => PgClient };
  };
  return new pg.Client(c);
}

async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const c = await pgClient({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
});

describe.skipIf(!PG_URL || !PGBOUNCER_BIN)(
  `scripts/pgbouncer-test-server.sh${PG_URL && PGBOUNCER_BIN ? '' : ` (${PGBOUNCER_SKIP})`}`,
  () => {
    it('starts in front of the server, lets a role made afterwards reach a database made afterwards, refuses options; stop ends it', async () => {
      // Straight under the temp folder: as root the bouncer runs as `postgres`, which must reach its folder.
      const dir = join(tmpdir(), `creators-pgb-${randomBytes(4).toString('hex')}`);
      const stop = () => void spawnSync('bash', [script, 'stop', dir]);
      stops.push(stop);
      const started = spawnSync('bash', [script, 'start', dir, PG_URL as string], { encoding: 'utf8' });
      expect(started.status, started.stderr).toBe(0);
      const url = new URL(started.stdout.trim());
      expect(url.hostname).toBe('127.0.0.1');
      expect(url.port).not.toBe(new URL(PG_URL as string).port);
      expect(readFileSync(join(dir, 'pgbouncer.ini'), 'utf8')).toMatch(/^pool_mode = transaction$/m);

      const db = new URL(await freshPgDatabase());
      const role = `creators_b_${randomBytes(4).toString('hex')}`;
      await query(PG_URL as string, `CREATE ROLE ${role} LOGIN PASSWORD 'pw-${role}'`);
      try {
        url.pathname = db.pathname;
        expect(
          await query(
            withCredentials(url.href, role, `pw-${role}`),
            'SELECT current_user AS who, current_database() AS db',
          ),
        ).toEqual([{ who: role, db: db.pathname.slice(1) }]);
        const wrong = await query(withCredentials(url.href, role, 'not-it'), 'SELECT 1').then(
          () => undefined,
          (e: unknown) => e,
        );
        // PgBouncer answers for the server, in its own words and code (08P01, not 28P01).
        expect(wrong).toMatchObject({ code: '08P01', message: 'SASL authentication failed' });
        const c = await pgClient({ connectionString: url.href, options: '-c lock_timeout=1000' });
        const refused = await c.connect().then(
          () => undefined,
          (e: unknown) => e,
        );
        await c.end().catch(() => undefined);
        expect(String((refused as Error | undefined)?.message)).toContain('unsupported startup parameter: options');
      } finally {
        await query(PG_URL as string, `DROP ROLE ${role}`);
      }

      const pid = Number(readFileSync(join(dir, 'pgbouncer.pid'), 'utf8'));
      stop();
      expect(existsSync(dir)).toBe(false);
      expect(() => process.kill(pid, 0)).toThrow();
      const gone = await query(url.href, 'SELECT 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(String((gone as { code?: string } | undefined)?.code)).toBe('ECONNREFUSED');
    });
  },
);
