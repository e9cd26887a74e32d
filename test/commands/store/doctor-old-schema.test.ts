/**
 * `store doctor --dry-run` on a store an older version wrote: a dry run reads it as it is (not migrated), and its
 * claims and reservations have no liveness columns yet. It says so and changes nothing, instead of failing on a
 * missing column.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';

it('an older store: the dry run says to migrate, exit 0, the file not changed by a byte; the real run migrates and reads it', async () => {
  const configDir = tempConfigDir();
  const file = join(configDir, 'store', 'default.db');
  mkdirSync(join(configDir, 'store'), { recursive: true });
  const { default: Database } = (await import('libsql')) as unknown as {
    default: new (f: string) => { exec(sql: string): void; close(): void };
  };
  const db = new Database(file);
  for (let v = 0; v < SCHEMA_VERSION - 1; v++) db.exec(MIGRATIONS[v] as string);
  db.exec("INSERT INTO claims (key, run, pid, host, claimed_at) VALUES ('k', 'old-run', 1, 'elsewhere', 0)");
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION - 1}`);
  db.close();
  const before = readFileSync(file);
  const dry = await runCli(['store', 'doctor', '--dry-run'], { configDir });
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stderr).toContain(`is at schema ${SCHEMA_VERSION - 1}`);
  expect(dry.stderr).toContain('creators store migrate');
  expect(readFileSync(file).equals(before)).toBe(true);
  const real = await runCli(['store', 'doctor', '--json'], { configDir });
  expect(real.code, real.stderr).toBe(0);
  // The pre-upgrade claim (no heartbeat ever) reads as silent and is cleared.
  expect(real.json<{ id: string; state: string; action: string }[]>()).toEqual([
    expect.objectContaining({ id: 'k', state: 'silent', action: 'cleared' }),
  ]);
});
