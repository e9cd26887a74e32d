/**
 * The rights a team role needs: `store migrate --print-grants` prints them (the README shows the same), a role
 * given exactly those can do all a purchase does (buy, reuse, budgets, forget), and a role missing one is
 * refused before any request is sent, with one line naming the right. Real PostgreSQL (CREATORS_TEST_PG_URL):
 * each test a fresh database migrated by the admin and a role of its own, dropped after.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { grantStatements } from '../../src/lib/store/pg-grants.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { freshPgDatabase, PG_SKIP, PG_URL, withCredentials } from '../helpers/pg.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { ledgerMark } from '../reliability/helpers.js';

interface PgClient {
  connect(): Promise<void>;
  query(q: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

async function sql(url: string, statements: string[]): Promise<void> {
  const { default: pg } = (await import('pg')) as unknown as {
    default: { Client: new (c: { connectionString: string }) => PgClient };
  };
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const s of statements) await c.query(s);
  } finally {
    await c.end();
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The GRANT lines of `store migrate --print-grants` for a role: what buying needs, then what migrate needs. */
async function printed(role: string): Promise<{ buy: string[]; migrate: string[] }> {
  const r = await runCli(['store', 'migrate', '--print-grants', '--role', role], { configDir: tempConfigDir() });
  expect(r.code, r.stderr).toBe(0);
  const [buy, migrate] = r.stdout
    .split(/^-- To run creators store migrate.*$/m)
    .map((part) => part.split('\n').filter((l) => l.startsWith('GRANT')));
  return { buy: buy ?? [], migrate: migrate ?? [] };
}

/**
 * A sandbox, a fresh database migrated by the admin, and a login role with `grants` run by the admin: the
 * role's store URL and a machine buying through it.
 */
async function world(grants: (role: string) => string[]) {
  const sandbox = await startSandbox({ port: 0, seed: 25 });
  cleanups.push(() => sandbox.close());
  const admin = await freshPgDatabase();
  const role = `creators_g_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(9).toString('hex');
  await sql(PG_URL as string, [`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`]);
  cleanups.push(async () => {
    await sql(admin, [`DROP OWNED BY ${role}`]);
    await sql(PG_URL as string, [`DROP ROLE IF EXISTS ${role}`]);
  });
  const configDir = tempConfigDir();
  const adminRun = await runCli(['store', 'migrate'], {
    configDir,
    env: { ...sandboxEnv(sandbox), CREATORS_STORE: admin },
  });
  expect(adminRun.code, adminRun.stderr).toBe(0);
  await sql(admin, grants(role));
  const url = withCredentials(admin, role, password);
  const run = (argv: string[]) => runCli(argv, { configDir, env: { ...sandboxEnv(sandbox), CREATORS_STORE: url } });
  return { sandbox, role, url, run, mark: () => ledgerMark(sandbox) };
}

function csv(handles: string[]): string {
  const file = join(tempDir('creators-grants-'), 'handles.csv');
  writeFileSync(file, `handle\n${handles.join('\n')}\n`);
  return file;
}

describe('store migrate --print-grants', () => {
  it('prints the statements for the role named (quoted when SQL needs it), what migrate needs apart; --role alone is a usage error', async () => {
    const { buy, migrate } = await printed('ci');
    expect(buy).toEqual([
      'GRANT USAGE ON SCHEMA public TO ci;',
      'GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE answers TO ci;',
      'GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE bought_creators TO ci;',
      'GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE claims TO ci;',
      'GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE runs TO ci;',
      'GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE pace TO ci;',
      'GRANT SELECT, INSERT ON TABLE spend TO ci;',
      'GRANT SELECT, INSERT ON TABLE spend_names TO ci;',
      'GRANT SELECT ON TABLE meta TO ci;',
      'GRANT SELECT ON TABLE creators_schema TO ci;',
      'GRANT USAGE ON SEQUENCE answers_seq_seq, spend_id_seq, spend_names_id_seq TO ci;',
    ]);
    expect(migrate).toEqual(['GRANT USAGE, CREATE ON SCHEMA public TO ci;']);
    expect((await printed('Team "A"')).buy[0]).toBe('GRANT USAGE ON SCHEMA public TO "Team ""A""";');
    expect((await printed('user')).buy[0]).toBe('GRANT USAGE ON SCHEMA public TO "user";');

    // Without --role: the team store URL's user.
    const fromUrl = await runCli(['store', 'migrate', '--print-grants'], {
      configDir: tempConfigDir(),
      env: { CREATORS_STORE: 'postgres://nightly:pw@db.internal/creators' },
    });
    expect(fromUrl.stdout).toContain('GRANT SELECT, INSERT ON TABLE spend TO nightly;');
    expect(fromUrl.stdout).not.toContain('pw');

    const alone = await runCli(['store', 'migrate', '--role', 'ci'], { configDir: tempConfigDir() });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--role names the role of --print-grants.');
    const everyone = await runCli(['store', 'migrate', '--print-grants', '--role', 'PUBLIC'], {
      configDir: tempConfigDir(),
    });
    expect(everyone.code).toBe(2);
    expect(everyone.stderr).toContain("Invalid --role 'PUBLIC'");
  });

  it("the README's statements are the printed ones", async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const at = readme.indexOf('**Team store roles.**');
    expect(at).toBeGreaterThan(0);
    const block = /```sql\n([\s\S]*?)```/.exec(readme.slice(at))?.[1];
    expect(block?.trim().split('\n')).toEqual((await printed('ci')).buy);
    expect(grantStatements('ci')).toEqual((await printed('ci')).buy);
  });
});

describe.skipIf(!PG_URL)(`a team role's rights${PG_URL ? '' : ` (${PG_SKIP})`}`, () => {
  it('exactly the printed GRANTs: the role buys, reuses, keeps to a budget and forgets', async () => {
    const t = await world((role) => grantStatements(role));
    const handles = creatorHandles(t.sandbox, 5);

    const first = t.mark();
    const bought = await t.run(['enrich', 'handle', handles[0]!, '--platform', 'instagram', '--mode', 'raw', '--json']);
    expect(bought.code, bought.stderr).toBe(0);
    expect(first.since().count).toBe(1);
    const again = t.mark();
    const reused = await t.run(['enrich', 'handle', handles[0]!, '--platform', 'instagram', '--mode', 'raw', '--json']);
    expect(reused.code, reused.stderr).toBe(0);
    expect(reused.stderr).toContain('In the store (bought within 14 days): 0 credits');
    expect(again.since().count).toBe(0);

    // A budget the first bulk run fits in and the second would pass: a reservation, the spend sum, the refusal.
    expect((await t.run(['config', 'set', 'daily-budget', '0.5'])).code).toBe(0);
    const bulk = t.mark();
    const within = await t.run([
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'profile',
      '--input',
      csv(handles.slice(1, 3)),
      '-o',
      join(tempDir('creators-grants-'), 'a.csv'),
    ]);
    expect(within.code, within.stderr).toBe(0);
    expect(bulk.since().count).toBe(2);
    const over = t.mark();
    const refused = await t.run([
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'profile',
      '--input',
      csv(handles.slice(3, 5)),
      '-o',
      join(tempDir('creators-grants-'), 'b.csv'),
    ]);
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stderr).toContain('over the daily-budget of 0.5');
    expect(over.since().count).toBe(0);

    const spend = await t.run(['spend', '--json']);
    expect(spend.code, spend.stderr).toBe(0);
    const stats = JSON.parse((await t.run(['store', 'stats', '--json'])).stdout) as { spend: { entries: number } };
    expect(stats.spend.entries).toBe(3);
    const forget = await t.run(['store', 'forget', `instagram:${handles[0]!}`, '--yes']);
    expect(forget.code, forget.stderr).toBe(0);
  });

  it('a role that may claim and pace but not keep what it bought is refused before any request, naming the right', async () => {
    const t = await world((role) =>
      grantStatements(role).map((g) =>
        g.includes('ON TABLE bought_creators')
          ? g.replace('SELECT, INSERT, UPDATE, DELETE', 'SELECT, UPDATE, DELETE')
          : g,
      ),
    );
    const mark = t.mark();
    const r = await t.run([
      'enrich',
      'handle',
      creatorHandles(t.sandbox, 1)[0]!,
      '--platform',
      'instagram',
      '--mode',
      'raw',
    ]);
    expect(mark.since().count, 'charged before the refusal').toBe(0);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe(
      `error: The role ${t.role} may not INSERT on table bought_creators in the team store at 127.0.0.1:${new URL(t.url).port}; nothing was bought.`,
    );
    expect(r.stderr).toContain(`creators store migrate --print-grants --role ${t.role}`);
    expect(r.stderr).not.toContain(new URL(t.url).password);
  });

  it('a role without the sequences, or with nothing at all, is refused naming them; read-only commands still work', async () => {
    const noSeq = await world((role) => grantStatements(role).filter((g) => !g.includes('SEQUENCE')));
    const mark = noSeq.mark();
    const r = await noSeq.run([
      'enrich',
      'handle',
      creatorHandles(noSeq.sandbox, 1)[0]!,
      '--platform',
      'instagram',
      '--mode',
      'raw',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `may not USAGE on sequence answers_seq_seq, USAGE on sequence spend_id_seq, USAGE on sequence spend_names_id_seq in the team store`,
    );
    expect(mark.since().count).toBe(0);
    expect((await noSeq.run(['store', 'stats', '--json'])).code).toBe(0);

    const bare = await world((role) => [`GRANT SELECT ON TABLE creators_schema TO ${role}`]);
    const none = await bare.run([
      'enrich',
      'handle',
      creatorHandles(bare.sandbox, 1)[0]!,
      '--platform',
      'instagram',
      '--mode',
      'raw',
    ]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `The role ${bare.role} may not SELECT on table answers, INSERT on table answers, UPDATE on table answers (and 25 more)`,
    );
  });
});
