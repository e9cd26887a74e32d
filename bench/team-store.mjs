// `npm run bench -- --only team`: the figures of the team store (a PostgreSQL store shared by machines).
// The server: CREATORS_BENCH_PG_URL or CREATORS_TEST_PG_URL (an admin URL: a database is created per case),
// else a throwaway cluster started here with scripts/pg-test-server.sh (Debian's postgresql package),
// else the figures are skipped with the reason. CREATORS_TEST_PGBOUNCER_URL (a PgBouncer in front of that server):
// the round trips are also counted through it. CREATORS_BENCH_BASELINE_BIN (another build's bin/creators.js):
// its round trips are counted side by side ("before"). `--only trips`: the round trips alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { arrivalRate, csvOf, handlesOf, ledger, weeklyWorkflow } from './store.mjs';
import { benchEnv, enrichArgs, fmtMs, line, measure } from './lib.mjs';
import { startPgProxy } from './pg-proxy.mjs';

/** Round trips a purchase may make on PostgreSQL: the look and claim, the pace, the commit with the release. */
const TRIPS_BUDGET = 3;

/** The admin URL of a PostgreSQL server for the bench, and how to stop it when started here. */
function server(root, tmp, note) {
  const given = process.env.CREATORS_BENCH_PG_URL || process.env.CREATORS_TEST_PG_URL;
  if (given) return { url: given, stop: () => dropDatabases(given) };
  const dir = join(tmp, 'pg');
  const script = join(root, 'scripts/pg-test-server.sh');
  const started = spawnSync('bash', [script, 'start', dir], { encoding: 'utf8' });
  if (started.status !== 0) {
    note(
      `team store: no PostgreSQL server (${(started.stderr || '').trim().split('\n')[0] || 'pg-test-server.sh failed'})`,
    );
    return undefined;
  }
  return { url: started.stdout.trim(), stop: () => spawnSync('bash', [script, 'stop', dir]) };
}

const created = [];

/** A new database on the server, its URL (the admin's credentials); dropped by `dropDatabases`. */
export async function database(adminUrl) {
  const { default: pg } = await import('pg');
  const name = `creators_bench_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
    created.push(name);
  } finally {
    await c.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.href;
}

/** The databases this bench made (a server it was given outlives it). */
export async function dropDatabases(adminUrl) {
  if (created.length === 0) return;
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    for (const name of created.splice(0)) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await c.end();
  }
}

/** `url` with its database replaced by the one of `dbUrl`. */
function onDatabase(url, dbUrl) {
  const u = new URL(url);
  u.pathname = new URL(dbUrl).pathname;
  return u.href;
}

/** Distinct handles the sandbox has (a sandbox of the same seed). */
async function sandboxHandles(cli, BIN, tmp, startSandbox) {
  const sb = await startSandbox(['--rate-limit', '100000', '--credits', '1000000']);
  try {
    const target = join(tmp, 'team-handles.jsonl');
    await cli(
      BIN,
      ['search', '--platform', 'instagram', '--all', '--max-results', '2000', '-o', target, '--quiet', '--no-store'],
      sb.env({ CREATORS_RATE_LIMIT: '100000' }),
    );
    const handles = handlesOf(
      (await readFile(target, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    await rm(target, { force: true });
    return handles;
  } finally {
    await sb.stop();
  }
}

/**
 * Round trips between the CLI and PostgreSQL (bench/pg-proxy.mjs counts them on the wire) in a bulk enrichment
 * of n and of 2n distinct handles, each on a fresh database migrated beforehand: a purchase costs
 * (trips(2n) - trips(n)) / n, and what is left of trips(n) is the run's fixed cost (open, schema and grants
 * checks, outbox, end of run). The same inputs run again, every answer from the store, give the reused
 * record's cost the same way.
 */
async function roundTrips({ bin, cli, sb, tmp, adminUrl, routeUrl, n, handles, name, migrate }) {
  const proxy = await startPgProxy(new URL(routeUrl), { label: name });
  try {
    const trips = { buy: {}, reuse: {}, connections: {} };
    for (const size of [n, 2 * n]) {
      const url = await database(adminUrl);
      await migrate(bin, url);
      const file = join(tmp, `trips-${name}-${size}.csv`);
      await writeFile(file, csvOf(handles.slice(0, size)));
      const env = sb.env({
        CREATORS_CONFIG_DIR: join(tmp, `trips-${name}-${size}`),
        CREATORS_STORE: proxy.via(onDatabase(routeUrl, url)),
        CREATORS_RATE_LIMIT: '1000000',
      });
      for (const pass of ['buy', 'reuse']) {
        const calls = sb.log.length;
        proxy.reset();
        await cli(
          bin,
          enrichArgs(file, join(tmp, `trips-${name}-${size}-${pass}.csv`)),
          env,
          `${name}: enrich (${pass}, ${size} handles)`,
        );
        const bought = sb.log.slice(calls).filter((e) => e.url.includes('/enrich/') && e.status === 200).length;
        const want = pass === 'buy' ? size : 0;
        if (bought !== want)
          throw new Error(`${name}: the ${pass} run of ${size} handles made ${bought} paid requests, not ${want}`);
        trips[pass][size] = proxy.counts.trips;
        if (pass === 'buy') trips.connections[size] = proxy.counts.connections;
      }
    }
    const per = (pass) => (trips[pass][2 * n] - trips[pass][n]) / n;
    const fixed = (pass) => trips[pass][n] - n * per(pass);
    return {
      perPurchase: per('buy'),
      fixedBuy: fixed('buy'),
      perReused: per('reuse'),
      fixedReuse: fixed('reuse'),
      trips,
      n,
    };
  } finally {
    await proxy.close();
  }
}

const fmtTrips = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** The round-trip figures: this build (and a baseline build, given), directly and through PgBouncer (given). */
export async function benchTeamRoundTrips({ BIN, tmp, out, note, startSandbox, quick, pg, cli, handles }) {
  const n = quick ? 20 : 50;
  const baseline = process.env.CREATORS_BENCH_BASELINE_BIN;
  if (baseline && !existsSync(baseline)) throw new Error(`CREATORS_BENCH_BASELINE_BIN: no file ${baseline}`);
  const bouncer = process.env.CREATORS_TEST_PGBOUNCER_URL;
  const routes = [['server', pg.url], ...(bouncer ? [['PgBouncer', bouncer]] : [])];
  const sides = [...(baseline ? [['before', baseline]] : []), ['this build', BIN]];
  // Each build migrates its own database directly on the server (the schema change is not counted).
  const migrate = (bin, url) =>
    cli(
      bin,
      ['store', 'migrate', '--quiet'],
      benchEnv({ CREATORS_STORE: url, CREATORS_CONFIG_DIR: join(tmp, 'trips-admin') }),
      'store migrate',
    );
  const sb = await startSandbox(['--rate-limit', '1000000', '--credits', '1000000']);
  try {
    for (const [route, routeUrl] of routes) {
      for (const [side, bin] of sides) {
        const name = `${side === 'before' ? 'before' : 'now'}-${route === 'server' ? 'server' : 'bouncer'}`;
        note(`team store: round trips, ${side}, ${route}, ${n} and ${2 * n} purchases`);
        let r;
        try {
          r = await roundTrips({ bin, cli, sb, tmp, adminUrl: pg.url, routeUrl, n, handles, name, migrate });
        } catch (err) {
          if (side === 'before' || route !== 'server') {
            out(`team store: round trips (${side}, ${route})   not measured: ${String(err.message).split('\n')[0]}`);
            continue;
          }
          throw err;
        }
        const details = `${fmtTrips(r.perPurchase)} a purchase, ${fmtTrips(r.perReused)} a reused record; ${fmtTrips(r.fixedBuy)} a run (${fmtTrips(r.fixedReuse)} when all reused); ${side}, ${route}; from runs of ${n} and ${2 * n} (${r.trips.buy[n]} / ${r.trips.buy[2 * n]} trips buying, ${r.trips.reuse[n]} / ${r.trips.reuse[2 * n]} reusing)`;
        out(
          side === 'before'
            ? `${'team store: round trips a purchase'.padEnd(34)} ${fmtTrips(r.perPurchase).padStart(6)}  ${details}  [reported: the baseline]`
            : `${'team store: round trips a purchase'.padEnd(34)} ${fmtTrips(r.perPurchase).padStart(6)}  ${details}  [budget <= ${TRIPS_BUDGET}: ${r.perPurchase <= TRIPS_BUDGET ? 'PASS' : 'FAIL'}]`,
        );
      }
    }
  } finally {
    await sb.stop();
  }
}

export async function benchTeamStore({ BIN, root, tmp, out, note, startSandbox, quick, tripsOnly = false }) {
  const pg = server(root, tmp, note);
  if (!pg) {
    out(
      "team store: skipped (no PostgreSQL: set CREATORS_BENCH_PG_URL, or install Debian's postgresql for a throwaway cluster)",
    );
    return;
  }
  const cli = async (bin, argv, env, what = argv.slice(0, 2).join(' ')) => {
    const r = await measure(process.execPath, [bin, ...argv], { env });
    if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr}`);
    return r;
  };
  if (tripsOnly) {
    try {
      await benchTeamRoundTrips({
        BIN,
        tmp,
        out,
        note,
        startSandbox,
        quick,
        pg,
        cli,
        handles: await sandboxHandles(cli, BIN, tmp, startSandbox),
      });
    } finally {
      await pg.stop();
    }
    return;
  }
  /** A fresh team store, migrated once (as a team would). */
  const teamStore = async () => {
    const url = await database(pg.url);
    await cli(
      BIN,
      ['store', 'migrate', '--quiet'],
      benchEnv({ CREATORS_STORE: url, CREATORS_CONFIG_DIR: join(tmp, 'team-admin') }),
    );
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
    const handles = await sandboxHandles(cli, BIN, tmp, startSandbox);

    await benchTeamRoundTrips({ BIN, tmp, out, note, startSandbox, quick, pg, cli, handles });

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
            const env = sb.env({
              CREATORS_CONFIG_DIR: join(tmp, `team-pace-machine-${p % 2}`),
              CREATORS_STORE: url2,
              CREATORS_RATE_LIMIT: String(limit),
            });
            return cli(BIN, enrichArgs(file, join(tmp, `team-shared-${p}.out.csv`), { mode: 'raw' }), env);
          }),
        );
        const calls = sb.log.filter((e) => e.url.includes('/enrich/'));
        const n429 = calls.filter((e) => e.status === 429).length;
        const { perMin } = arrivalRate(calls);
        const wall = Math.max(...runs.map((r) => r.ms));
        out(
          line(
            `team store: ${procs} processes, 2 machines, ${limit}/min`,
            perMin / limit,
            `${Math.round(perMin)}/min together over ${calls.length} requests (${procs} x ${each}, 1 s a reply); ${n429} x 429; wall ${fmtMs(wall)}`,
            perMin / limit >= 0.9 && n429 === 0,
            '>= 0.9x, no 429',
          ),
        );
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
          const r = await cli(
            BIN,
            enrichArgs(file, join(tmp, `team-overhead-${name}.csv`), { mode: 'raw', extra: flags }),
            sb.env({
              CREATORS_CONFIG_DIR: join(tmp, `team-overhead-${name}`),
              CREATORS_RATE_LIMIT: '1000000',
              ...extra,
            }),
          );
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
    await pg.stop();
  }
}
