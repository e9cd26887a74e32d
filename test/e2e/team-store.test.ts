/**
 * The team store as a team and CI use it: two config directories ("two machines") sharing one
 * PostgreSQL store against one sandbox, checked at the sandbox's ledger — never paying twice for a
 * record, one budget across machines, `store migrate` explicit, `store push` resumable and idempotent —
 * and its bad days: the server unreachable at start, credentials refused, the connection lost in the
 * middle of a bulk run. A real PostgreSQL (CREATORS_TEST_PG_URL, started by `.ci/run`); skipped, saying
 * why, without one.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { SCHEMA_VERSION } from '../../src/lib/store/schema.js';
import { freshPgDatabase, PG_SKIP, PG_URL, withCredentials } from '../helpers/pg.js';
import { ledgerMark } from '../reliability/helpers.js';
import { runCli, tempConfigDir, type RunOptions } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv } from '../helpers/sandbox.js';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

/** A folder with `creators` on it: the built CLI, as a user's PATH has it. */
function tempBin(): string {
  const dir = join(tempDir('creators-bin-'), 'bin');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'creators'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, 'creators'), 0o755);
  return dir;
}

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A sandbox, a fresh team store (migrated unless told not to) and two machines using both. */
async function team(o: { migrate?: boolean; latency?: string } = {}) {
  const sandbox: Sandbox = await startSandbox({ port: 0, seed: 25, ...(o.latency ? { latency: o.latency } : {}) });
  cleanups.push(() => sandbox.close());
  const url = await freshPgDatabase();
  const machine = (storeUrl = url) => {
    const configDir = tempConfigDir();
    const run = (argv: string[], extra: RunOptions = {}) =>
      runCli(argv, {
        configDir,
        ...extra,
        env: { ...sandboxEnv(sandbox), CREATORS_STORE: storeUrl, ...(extra.env ?? {}) },
      });
    return { configDir, run };
  };
  const a = machine();
  if (o.migrate !== false) expect((await a.run(['store', 'migrate'])).code).toBe(0);
  return { sandbox, url, a, b: machine(), machine, mark: () => ledgerMark(sandbox) };
}

function csv(handles: string[]): string {
  const dir = tempDir('creators-team-');
  const file = join(dir, 'handles.csv');
  writeFileSync(file, `handle\n${handles.join('\n')}\n`);
  return file;
}

/** A TCP proxy in front of the test server whose connections can be cut (a network that drops). */
async function cuttableProxy(target: URL): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(target.href);
  url.port = String(port);
  return {
    url: url.href,
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The README's team setup: its SQL block and the shell block after it. */
function readmeSetup(): { sql: string; shell: string } {
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const at = readme.indexOf('### Sharing with a team and CI');
  const sql = /```sql\n([\s\S]*?)```/.exec(readme.slice(at))?.[1];
  const shell = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))?.[1];
  if (!sql || !shell) throw new Error('README: no team setup under "Sharing with a team and CI"');
  return { sql, shell };
}

describe.skipIf(!PG_URL)(`team store on PostgreSQL${PG_URL ? '' : ` (${PG_SKIP})`}`, () => {
  it("the README's setup works as printed (its role and database named afresh, its host the test server's)", async () => {
    const { sql, shell } = readmeSetup();
    const name = `creators_readme_${randomBytes(4).toString('hex')}`;
    const admin = new URL(PG_URL as string);
    const { default: pg } = (await import('pg')) as unknown as {
      default: {
        Client: new (c: {
          connectionString: string;
        }) => { connect(): Promise<void>; query(q: string): Promise<unknown>; end(): Promise<void> };
      };
    };
    const c = new pg.Client({ connectionString: admin.href });
    await c.connect();
    try {
      for (const statement of sql
        .replace(/\bcreators\b/g, name)
        .split(';')
        .map((x) => x.trim())
        .filter(Boolean))
        await c.query(statement);
    } finally {
      await c.end();
    }
    cleanups.push(async () => {
      const d = new pg.Client({ connectionString: admin.href });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.query(`DROP ROLE IF EXISTS ${name}`);
      await d.end();
    });
    const sandbox = await startSandbox({ port: 0, seed: 25 });
    cleanups.push(() => sandbox.close());
    // A laptop that bought one creator before joining (its own file), then the README's lines.
    const configDir = tempConfigDir();
    const env = {
      ...process.env,
      ...sandboxEnv(sandbox),
      CREATORS_CONFIG_DIR: configDir,
      PATH: `${tempBin()}:${process.env.PATH}`,
    };
    expect(
      (
        await runCli(['enrich', 'handle', creatorHandles(sandbox, 1)[0]!, '--platform', 'instagram', '--mode', 'raw'], {
          configDir,
          env: sandboxEnv(sandbox),
        })
      ).code,
    ).toBe(0);
    const script = shell
      .replace(
        /postgres:\/\/creators@db\.internal:5432\/creators/g,
        `postgres://${name}@127.0.0.1:${admin.port}/${name}`,
      )
      .replace(/\bcreators_readme\b/g, name);
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Migrated the store from schema 0 to ${SCHEMA_VERSION}.`);
    expect(r.stderr).toContain('Copied 1 answer and 1 spend entry into');
    expect(r.stdout).toContain(`postgres://${name}@127.0.0.1:${admin.port}/${name}`);
    expect(r.stdout).not.toContain('choose-one');
  });

  it('two machines never pay twice for one record: single and bulk enrichment, each machine buying what the other bought', async () => {
    const t = await team();
    const handles = creatorHandles(t.sandbox, 6);
    const first = t.mark();
    expect(
      (await t.a.run(['enrich', 'handle', handles[0]!, '--platform', 'instagram', '--mode', 'raw', '--json'])).code,
    ).toBe(0);
    expect(first.since().count).toBe(1);

    const second = t.mark();
    const b1 = await t.b.run(['enrich', 'handle', handles[0]!, '--platform', 'instagram', '--mode', 'raw', '--json']);
    expect(b1.code).toBe(0);
    expect(second.since().count).toBe(0);
    expect(b1.stderr).toContain('In the store (bought within 14 days): 0 credits');

    // Both machines at once, on overlapping inputs: each creator bought once in all.
    const both = t.mark();
    const outA = join(tempDir('creators-team-'), 'a.csv');
    const outB = join(tempDir('creators-team-'), 'b.csv');
    const [ra, rb] = await Promise.all([
      t.a.run([
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        csv(handles.slice(0, 4)),
        '-o',
        outA,
      ]),
      t.b.run([
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        csv(handles.slice(2, 6)),
        '-o',
        outB,
      ]),
    ]);
    expect([ra.code, rb.code]).toEqual([0, 0]);
    // handles[0] was bought already; 1..5 once each.
    expect(both.since().count).toBe(5);
    const spend = JSON.parse((await t.b.run(['spend', '--json', '--by', 'command'])).stdout) as { credits: number }[];
    expect(spend.at(-1)?.credits).toBe(0.18);
  });

  it('store stats names the engine and the server without the password; --debug lines never show it', async () => {
    const t = await team();
    const password = new URL(t.url).password;
    expect(password.length).toBeGreaterThan(0);
    const stats = await t.a.run(['store', 'stats', '--json']);
    expect(stats.code).toBe(0);
    const record = JSON.parse(stats.stdout) as { engine: string; location: string; schema_version: number };
    expect(record).toMatchObject({ engine: 'postgres', schema_version: SCHEMA_VERSION });
    expect(record.location).toBe(`postgres://postgres@127.0.0.1:${new URL(t.url).port}${new URL(t.url).pathname}`);
    const path = await t.a.run(['store', 'path']);
    expect(path.stdout.trim()).toBe(record.location);
    const debug = await t.a.run([
      '--debug',
      'enrich',
      'handle',
      creatorHandles(t.sandbox, 1)[0]!,
      '--platform',
      'instagram',
      '--mode',
      'raw',
    ]);
    expect(debug.code).toBe(0);
    for (const r of [stats, path, debug]) expect(`${r.stdout}${r.stderr}`).not.toContain(password);
  });

  it('a store never migrated: the purchase is refused before sending (exit 1, says to migrate); store migrate is explicit and idempotent', async () => {
    const t = await team({ migrate: false });
    const mark = t.mark();
    const r = await t.a.run(['enrich', 'handle', 'carlosrobinson', '--platform', 'instagram', '--mode', 'raw']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('has no creators schema yet; nothing was bought.');
    expect(r.stderr).toContain('creators store migrate');
    expect(mark.since().count).toBe(0);
    const dry = await t.a.run(['store', 'migrate', '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ engine: 'postgres', from: 0, to: SCHEMA_VERSION, dry_run: true });
    // Two machines migrating at once: one does it, neither fails.
    const [m1, m2] = await Promise.all([
      t.a.run(['store', 'migrate', '--json']),
      t.b.run(['store', 'migrate', '--json']),
    ]);
    expect([m1.code, m2.code]).toEqual([0, 0]);
    expect([JSON.parse(m1.stdout).from, JSON.parse(m2.stdout).from].sort()).toEqual([0, SCHEMA_VERSION]);
    expect(
      (await t.a.run(['enrich', 'handle', 'carlosrobinson', '--platform', 'instagram', '--mode', 'raw'])).code,
    ).toBe(0);
  });

  it('one daily budget across machines: two runs at once whose worst cases together exceed it, one is refused (exit 5) before sending', async () => {
    const t = await team();
    const handles = creatorHandles(t.sandbox, 8);
    for (const m of [t.a, t.b]) expect((await m.run(['config', 'set', 'daily-budget', '1'])).code).toBe(0);
    const mark = t.mark();
    // 4 profile enrichments at 0.2 worst case each: 0.8 of the 1-credit budget per run.
    const [ra, rb] = await Promise.all([
      t.a.run([
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'profile',
        '--input',
        csv(handles.slice(0, 4)),
        '-o',
        join(tempDir('creators-team-'), 'a.csv'),
      ]),
      t.b.run([
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'profile',
        '--input',
        csv(handles.slice(4, 8)),
        '-o',
        join(tempDir('creators-team-'), 'b.csv'),
      ]),
    ]);
    expect([ra.code, rb.code].sort()).toEqual([0, 5]);
    const refused = ra.code === 5 ? ra : rb;
    expect(refused.stderr).toContain('over the daily-budget of 1');
    expect(refused.stderr).toContain('nothing was sent.');
    expect(mark.since().count).toBe(4);
  });

  it('server unreachable at start: exit 1 naming host and port, nothing bought, no silent run without the memory', async () => {
    const t = await team();
    const closed = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    const dead = new URL(t.url);
    dead.port = String(closed);
    const m = t.machine(dead.href);
    const mark = t.mark();
    const r = await m.run(['enrich', 'handle', 'carlosrobinson', '--platform', 'instagram', '--mode', 'raw']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Cannot reach the team store at 127.0.0.1:${closed} (ECONNREFUSED).`);
    expect(r.stderr).toContain('--no-store');
    expect(mark.since().count).toBe(0);
    expect(r.stderr).not.toContain(dead.password);
  });

  it("wrong credentials: exit 4 with the server's reason, the password in no line", async () => {
    const t = await team();
    const wrong = withCredentials(t.url, 'postgres', 'not-the-password-42');
    const m = t.machine(wrong);
    const mark = t.mark();
    const r = await m.run(['enrich', 'handle', 'carlosrobinson', '--platform', 'instagram', '--mode', 'raw']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('refused the credentials: password authentication failed for user "postgres"');
    expect(`${r.stdout}${r.stderr}`).not.toContain('not-the-password-42');
    expect(mark.since().count).toBe(0);
  });

  it('the PG* variables and a password file work as for psql (the URL names only the database)', async () => {
    const t = await team();
    const u = new URL(t.url);
    const dir = tempDir('creators-pgpass-');
    const passfile = join(dir, 'pgpass');
    writeFileSync(passfile, `127.0.0.1:${u.port}:*:postgres:${decodeURIComponent(u.password)}\n`, { mode: 0o600 });
    const env = { PGHOST: '127.0.0.1', PGPORT: u.port, PGUSER: 'postgres' };
    const m = t.machine(`postgres:///${u.pathname.slice(1)}`);
    const before = process.env.PGPASSFILE;
    process.env.PGPASSFILE = passfile;
    try {
      const r = await m.run(['store', 'stats', '--json'], { env });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toMatchObject({
        engine: 'postgres',
        exists: true,
        location: `postgres://postgres@127.0.0.1:${u.port}${u.pathname}`,
      });
      const withPassword = await m.run(['store', 'stats', '--json'], {
        env: { ...env, PGPASSWORD: decodeURIComponent(u.password) },
      });
      expect(JSON.parse(withPassword.stdout)).toMatchObject({ exists: true });
    } finally {
      if (before === undefined) delete process.env.PGPASSFILE;
      else process.env.PGPASSFILE = before;
    }
  });

  it("store push copies a laptop's local store into the team store: the team then buys none of it; run twice, nothing is copied twice", async () => {
    const t = await team();
    const handles = creatorHandles(t.sandbox, 3);
    // The laptop bought three creators with its own file, before joining the team.
    const laptop = t.machine();
    const local = await laptop.run(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        csv(handles),
        '-o',
        join(tempDir('creators-team-'), 'l.csv'),
      ],
      {
        env: { CREATORS_STORE: '' },
      },
    );
    expect(local.code).toBe(0);
    const dry = await laptop.run(['store', 'push', '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, answers: { read: 3 }, spend: { read: 3 } });
    const push = await laptop.run(['store', 'push', '--json']);
    expect(push.code).toBe(0);
    expect(JSON.parse(push.stdout)).toMatchObject({ answers: { read: 3, added: 3 }, spend: { read: 3, added: 3 } });
    const again = await laptop.run(['store', 'push', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ answers: { read: 3, added: 0 }, spend: { read: 3, added: 0 } });
    const mark = t.mark();
    const r = await t.b.run([
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      csv(handles),
      '-o',
      join(tempDir('creators-team-'), 'b.csv'),
    ]);
    expect(r.code).toBe(0);
    expect(mark.since().count).toBe(0);
    // A push into a file store is a usage error.
    const notTeam = await laptop.run(['store', 'push'], { env: { CREATORS_STORE: '' } });
    expect(notTeam.code).toBe(2);
    expect(notTeam.stderr).toContain('store push copies into a team store');
  });

  it('a blip (every connection cut, the server back at once): operations are tried again on new connections; each paid record is in the team store once, with its charge once', async () => {
    const t = await team({ latency: 'enrich=150ms' });
    const proxy = await cuttableProxy(new URL(t.url));
    cleanups.push(() => proxy.close());
    const handles = creatorHandles(t.sandbox, 40);
    const m = t.machine(proxy.url);
    const mark = t.mark();
    const running = spawnCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--concurrency',
        '4',
        '--input',
        csv(handles),
        '-o',
        join(tempDir('creators-team-'), 'out.csv'),
      ],
      {
        ...sandboxEnv(t.sandbox),
        CREATORS_CONFIG_DIR: m.configDir,
        CREATORS_STORE: proxy.url,
      },
    );
    for (let i = 0; i < 200 && mark.since().count < 6; i++) await new Promise((r) => setTimeout(r, 25));
    // Every connection dropped, twice, in the middle of the run; new ones get through.
    proxy.cut();
    await new Promise((r) => setTimeout(r, 300));
    proxy.cut();
    const r = await running;
    const paid = mark.since().count;
    if (r.code === 0) {
      // Usually: every operation a cut connection failed was tried again on a new one.
      expect(r.stderr).toBe('');
      expect(paid).toBe(40);
    } else {
      // A statement that failed every try: the run stops buying, and what it paid and the store missed is
      // committed once the store answers again (said so), or no answer was missed at all.
      expect(r.stderr).toMatch(/Cannot reach the team store at 127\.0\.0\.1:\d+/);
      expect(r.stderr).not.toContain('kept in the local store');
    }
    // Whichever: each paid record once in the team store, with its charge once in the spend log.
    const stats = JSON.parse((await t.a.run(['store', 'stats', '--json'])).stdout) as {
      answers: { creator: { count: number } };
      spend: { entries: number };
    };
    expect(stats.answers.creator.count).toBe(paid);
    expect(stats.spend.entries).toBe(paid);
  });

  it('the connection lost mid-run: no new purchase starts, what was paid is in the output and in the outbox (said where), exit non-zero; the next run puts it in the team store first and pays nothing again, without store push', async () => {
    const t = await team({ latency: 'enrich=150ms' });
    const proxy = await cuttableProxy(new URL(t.url));
    cleanups.push(() => proxy.close());
    const handles = creatorHandles(t.sandbox, 40);
    const m = t.machine(proxy.url);
    const out = join(tempDir('creators-team-'), 'out.csv');
    const mark = t.mark();
    // A process of its own (as a user's run is): its claims, left in the team store it lost, are a dead
    // process's once it has exited, and the re-run below takes them over at once.
    const running = spawnCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--concurrency',
        '4',
        '--input',
        csv(handles),
        '-o',
        out,
      ],
      {
        ...sandboxEnv(t.sandbox),
        CREATORS_CONFIG_DIR: m.configDir,
        CREATORS_STORE: proxy.url,
      },
    );
    // Cut the network (and keep it down) once a few rows are bought.
    for (let i = 0; i < 200 && mark.since().count < 6; i++) await new Promise((r) => setTimeout(r, 25));
    await proxy.close();
    const r = await running;
    expect(r.code).not.toBe(0);
    const paid = mark.since().count;
    expect(paid).toBeGreaterThanOrEqual(6);
    expect(paid).toBeLessThan(40);
    expect(r.stderr).toMatch(/Cannot reach the team store at 127\.0\.0\.1:\d+/);
    const outbox = join(m.configDir, 'store', 'default.outbox.jsonl');
    expect(r.stderr).toMatch(
      /The store could not take \d+ paid answers? \(instagram:[^)]*\); (it is|they are) kept in the outbox /,
    );
    expect(r.stderr).toContain(`${outbox}, and the next run puts`);
    expect(r.stderr).not.toContain('store push');
    // The same machine's next run, the team store back: the outbox goes in first, only the rows never bought are bought.
    const rest = t.mark();
    const again = await m.run(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        csv(handles),
        '-o',
        join(tempDir('creators-team-'), 'again.csv'),
      ],
      { env: { CREATORS_STORE: t.url } },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(rest.since().count).toBe(40 - paid);
    const stats = JSON.parse((await t.a.run(['store', 'stats', '--json'])).stdout) as {
      answers: { creator: { count: number } };
      spend: { entries: number };
    };
    expect(stats.answers.creator.count).toBe(40);
    expect(stats.spend.entries).toBe(40);
  });
});
