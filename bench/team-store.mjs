// `npm run bench -- --only team`: the figures of the team store (a PostgreSQL store shared by machines).
// The server: CREATORS_BENCH_PG_URL or CREATORS_TEST_PG_URL (an admin URL: a database is created per case),
// else a throwaway cluster started here with scripts/pg-test-server.sh (Debian's postgresql package),
// else the figures are skipped with the reason.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { arrivalRate, csvOf, handlesOf, ledger, weeklyWorkflow } from './store.mjs';
import { benchEnv, fmtMs, line, measure } from './lib.mjs';

/** The admin URL of a PostgreSQL server for the bench, and how to stop it when started here. */
function server(root, tmp, note) {
  const given = process.env.CREATORS_BENCH_PG_URL || process.env.CREATORS_TEST_PG_URL;
  if (given) return { url: given, stop: () => undefined };
  const dir = join(tmp, 'pg');
  const script = join(root, 'scripts/pg-test-server.sh');
  const started = spawnSync('bash', [script, 'start', dir], { encoding: 'utf8' });
  if (started.status !== 0) {
    note(`team store: no PostgreSQL server (${(started.stderr || '').trim().split('\n')[0] || 'pg-test-server.sh failed'})`);
    return undefined;
  }
  return { url: started.stdout.trim(), stop: () => spawnSync('bash', [script, 'stop', dir]) };
}

/** A new database on the server, its URL (the admin's credentials). */
async function database(adminUrl) {
  const { default: pg } = await import('pg');
  const name = `creators_bench_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.href;
}

export async function benchTeamStore({ BIN, root, tmp, out, note, startSandbox, quick }) {
  const pg = server(root, tmp, note);
  if (!pg) {
    out("team store: skipped (no PostgreSQL: set CREATORS_BENCH_PG_URL, or install Debian's postgresql for a throwaway cluster)");
    return;
  }
  const cli = async (bin, argv, env, what = argv.slice(0, 2).join(' ')) => {
    const r = await measure(process.execPath, [bin, ...argv], { env });
    if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr}`);
    return r;
  };
  /** A fresh team store, migrated once (as a team would). */
  const teamStore = async () => {
    const url = await database(pg.url);
    await cli(BIN, ['store', 'migrate', '--quiet'], benchEnv({ CREATORS_STORE: url, CREATORS_CONFIG_DIR: join(tmp, 'team-admin') }));
    return url;
  };
  try {
    /*
     * Two machines, the weekly workflow of the store's figure split between them: machine A (a config
     * directory of its own) does week 1, machine B week 2, both on one team store.
     */
    note('team store: the weekly workflow on two machines');
    const url = await teamStore();
    const split = await weeklyWorkflow({
      cli,
      startSandbox,
      tmp,
      bin: BIN,
      store: true,
      name: 'team',
      weekEnv: (week) => ({ CREATORS_CONFIG_DIR: join(tmp, `team-machine-${week}`), CREATORS_STORE: url }),
    });
    out(
      line(
        'team store: weekly workflow, 2 machines',
        split.spent / split.necessary,
        `${split.spent} spent / ${split.necessary} necessary (week 1 on machine A, week 2 on machine B; ${split.distinct} distinct full records, ${split.shared} bought by A and needed by B)`,
        split.spent <= split.necessary,
        '<= 1.00x',
      ),
    );

    // Handles the sandbox has (a sandbox of the same seed), for the runs below.
    const each = quick ? 80 : 100;
    const procs = 4;
    let handles;
    {
      const sb = await startSandbox(['--rate-limit', '100000', '--credits', '1000000']);
      try {
        const target = join(tmp, 'team-handles.jsonl');
        await cli(BIN, ['search', '--platform', 'instagram', '--all', '--max-results', '2000', '-o', target, '--quiet', '--no-store'], sb.env({ CREATORS_RATE_LIMIT: '100000' }));
        handles = handlesOf((await readFile(target, 'utf8')).trim().split('\n').map((l) => JSON.parse(l)));
        await rm(target, { force: true });
      } finally {
        await sb.stop();
      }
    }

    /*
     * Four processes on two config directories ("two machines", two each) sharing one team store and one
     * sandbox at 300/min, 1 s a reply, each enriching its own handles: together more than a minute's
     * worth, so a pace not shared across machines would meet 429s.
     */
    {
      const limit = 300;
      const url2 = await teamStore();
      const sb = await startSandbox(['--rate-limit', String(limit), '--credits', '1000000', '--latency', 'enrich=1s']);
      try {
        note(`team store: ${procs} processes on 2 machines at ${limit}/min`);
        const runs = await Promise.all(
          Array.from({ length: procs }, async (_, p) => {
            const file = join(tmp, `team-shared-${p}.csv`);
            await writeFile(file, csvOf(handles.slice(p * each, (p + 1) * each)));
            const env = sb.env({ CREATORS_CONFIG_DIR: join(tmp, `team-pace-machine-${p % 2}`), CREATORS_STORE: url2, CREATORS_RATE_LIMIT: String(limit) });
            return cli(BIN, ['enrich', 'handle', '--platform', 'instagram', '--input', file, '--mode', 'raw', '-o', join(tmp, `team-shared-${p}.out.csv`), '--quiet'], env);
          }),
        );
        const calls = sb.log.filter((e) => e.url.includes('/enrich/'));
        const n429 = calls.filter((e) => e.status === 429).length;
        const { perMin } = arrivalRate(calls);
        const wall = Math.max(...runs.map((r) => r.ms));
        out(line(`team store: ${procs} processes, 2 machines, ${limit}/min`, perMin / limit, `${Math.round(perMin)}/min together over ${calls.length} requests (${procs} x ${each}, 1 s a reply); ${n429} x 429; wall ${fmtMs(wall)}`, perMin / limit >= 0.9 && n429 === 0, '>= 0.9x, no 429'));
      } finally {
        await sb.stop();
      }
    }

    /*
     * Per-record overhead: the same raw rows bought with no latency into the team store (loopback), into
     * the embedded store, and with --no-store; reported, no budget.
     */
    {
      const rows = quick ? 500 : 2000;
      const file = join(tmp, 'team-overhead.csv');
      await writeFile(file, csvOf(handles.slice(0, rows)));
      const url3 = await teamStore();
      const timed = {};
      for (const [name, extra, flags] of [
        ['no-store', {}, ['--no-store']],
        ['sqlite', { CREATORS_STORE: join(tmp, 'team-overhead.db') }, []],
        ['postgres', { CREATORS_STORE: url3 }, []],
      ]) {
        const sb = await startSandbox(['--rate-limit', '1000000', '--credits', '1000000']);
        try {
          note(`team store: ${rows} rows, ${name}`);
          const r = await cli(BIN, ['enrich', 'handle', '--platform', 'instagram', '--input', file, '--mode', 'raw', '-o', join(tmp, `team-overhead-${name}.csv`), '--quiet', ...flags], sb.env({ CREATORS_CONFIG_DIR: join(tmp, `team-overhead-${name}`), CREATORS_RATE_LIMIT: '1000000', ...extra }));
          timed[name] = r.ms;
        } finally {
          await sb.stop();
        }
      }
      const per = (name) => ((timed[name] - timed['no-store']) / rows).toFixed(2);
      out(
        `team store: per-record store overhead   ${per('postgres')} ms a record on PostgreSQL (loopback) vs ${per('sqlite')} ms on SQLite, over --no-store (${rows} raw rows, no latency: ${fmtMs(timed.postgres)} / ${fmtMs(timed.sqlite)} / ${fmtMs(timed['no-store'])})  [reported, no budget]`,
      );
    }
  } finally {
    pg.stop();
  }
}
