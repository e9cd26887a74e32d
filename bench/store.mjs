// `npm run bench -- --only store`: the figures of issue 24 (purchase memory), each against its budget and,
// where there is one, its baseline: the build of ad49f9a, the commit before the store.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync, symlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { benchEnv, enrichArgs, fmtMb, fmtMs, line, measure } from './lib.mjs';

/** The commit before the store: its build is the baseline of the credit-efficiency figure. */
export const BASELINE_COMMIT = 'ad49f9a';
/** What the workflow's purchases cost (src/contract/prices.ts): a Discovery result, a full enrichment. */
const DISCOVERY_CREDITS = 0.01;
const FULL_CREDITS = 1;

async function run(cmd, args, cwd) {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const [code] = await once(child, 'close');
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`);
}

/**
 * The baseline build: a clone of this repository at BASELINE_COMMIT, built once and kept in the temp
 * directory between runs (BENCH_BASELINE_DIR names another). Its node_modules is this checkout's.
 */
async function baselineBin(root, note) {
  const dir = process.env.BENCH_BASELINE_DIR ?? join(tmpdir(), `creators-baseline-${BASELINE_COMMIT}`);
  const bin = join(dir, 'bin/creators.js');
  if (existsSync(join(dir, 'dist/main.js'))) return bin;
  note(`building the baseline (${BASELINE_COMMIT}) in ${dir}`);
  await rm(dir, { recursive: true, force: true });
  await run('git', ['clone', '-q', root, dir]);
  await run('git', ['checkout', '-q', BASELINE_COMMIT], dir);
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'));
  await run(process.execPath, ['scripts/build.mjs'], dir);
  return bin;
}

export const handlesOf = (records) => records.map((c) => c.profile.username);
export const csvOf = (handles) => `handle\n${handles.join('\n')}\n`;

export async function ledger(sb) {
  return (await fetch(`${sb.baseUrl}/_sandbox/ledger`)).json();
}

async function configure(sb, patch) {
  const r = await fetch(`${sb.baseUrl}/_sandbox/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (!r.ok) throw new Error(`sandbox config ${JSON.stringify(patch)}: ${r.status}`);
}

/** Bytes of the store's files (the database and any WAL left beside it). */
async function storeBytes(configDir) {
  const dir = join(configDir, 'store');
  let total = 0;
  for (const f of await readdir(dir)) total += (await stat(join(dir, f))).size;
  return total;
}

/** Requests per minute over the span of their arrivals at the sandbox (log time less the hold). */
export function arrivalRate(calls) {
  const arrivals = calls.map((e) => e.at - e.ms).sort((a, b) => a - b);
  const span = (arrivals[arrivals.length - 1] - arrivals[0]) / 60_000;
  return { perMin: (arrivals.length - 1) / span, arrivals };
}

/**
 * Credit efficiency of a weekly workflow. Week 1: search 1,000, enrich the top 200 in full. Week 2 (a
 * week later): the same search, now without the 60 creators at the top of week 1 (left out by
 * --exclude-handles, as creators already contacted would be), so its top 200 shares 140 (70 %) with
 * week 1's; enrich that top 200. The sandbox has no clock to move, so week 2's search passes
 * --max-age 0 (its pages, 24 h old a week later, are bought again) while the enrichment keeps the
 * default window (creator records, 14 days: a week-old record is reused). Necessary: both weeks'
 * results and one full record per distinct creator. Spent: the sandbox ledger. `weekEnv(week)` gives
 * each week's environment beyond the sandbox's (its config directory by default; two machines on one
 * team store for bench/team-store.mjs).
 */
export async function weeklyWorkflow({
  cli,
  startSandbox,
  tmp,
  bin,
  store,
  name = store ? 'store' : 'baseline',
  weekEnv,
}) {
  const sb = await startSandbox(['--rate-limit', '100000', '--credits', '1000000']);
  try {
    await configure(sb, { dailyDiscoveryLimit: 1_000_000 });
    const dir = join(tmp, `workflow-${name}`);
    await mkdir(dir, { recursive: true });
    const env = (week) =>
      sb.env({
        CREATORS_CONFIG_DIR: join(dir, 'config'),
        CREATORS_RATE_LIMIT: '100000',
        ...(weekEnv ? weekEnv(week) : {}),
      });
    const f = (file) => join(dir, file);
    await cli(
      bin,
      ['search', '--platform', 'instagram', '--all', '--max-results', '1000', '-o', f('week1.json'), '--quiet'],
      env(1),
    );
    const week1 = JSON.parse(await readFile(f('week1.json'), 'utf8'));
    const top1 = handlesOf(week1).slice(0, 200);
    await writeFile(f('top1.csv'), csvOf(top1));
    await writeFile(f('contacted.txt'), `${top1.slice(0, 60).join('\n')}\n`);
    await cli(bin, enrichArgs(f('top1.csv'), f('e1.csv'), { mode: 'full' }), env(1));
    await cli(
      bin,
      [
        'search',
        '--platform',
        'instagram',
        '--all',
        '--max-results',
        '1000',
        '--exclude-handles',
        f('contacted.txt'),
        ...(store ? ['--max-age', '0'] : []),
        '-o',
        f('week2.json'),
        '--quiet',
      ],
      env(2),
    );
    const week2 = JSON.parse(await readFile(f('week2.json'), 'utf8'));
    const top2 = handlesOf(week2).slice(0, 200);
    await writeFile(f('top2.csv'), csvOf(top2));
    await cli(bin, enrichArgs(f('top2.csv'), f('e2.csv'), { mode: 'full' }), env(2));
    const shared = top2.filter((h) => top1.includes(h)).length;
    const distinct = new Set([...top1, ...top2]).size;
    const necessary = (week1.length + week2.length) * DISCOVERY_CREDITS + distinct * FULL_CREDITS;
    const spent = (await ledger(sb)).used;
    return { spent, necessary, shared, distinct, results: week1.length + week2.length };
  } finally {
    await sb.stop();
  }
}

export async function benchStore({ BIN, root, tmp, out, note, startSandbox, quick }) {
  const cli = async (bin, argv, env, what = argv.slice(0, 2).join(' ')) => {
    const r = await measure(process.execPath, [bin, ...argv], { env });
    if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr}`);
    return r;
  };

  note(`store: weekly workflow, this build and ${BASELINE_COMMIT}`);
  const workflow = (bin, o) => weeklyWorkflow({ cli, startSandbox, tmp, bin, ...o });
  const now = await workflow(BIN, { store: true });
  let base;
  try {
    base = await workflow(await baselineBin(root, note), { store: false });
  } catch (e) {
    note(`baseline unavailable: ${e.message.split('\n')[0]}`);
  }
  out(
    line(
      'store: weekly workflow credits',
      now.spent / now.necessary,
      `${now.spent} spent / ${now.necessary} necessary (${now.results.toLocaleString('en-US')} search results, ${now.distinct} distinct full records; week 2's top 200 shares ${now.shared} with week 1's)${base ? `; baseline ${BASELINE_COMMIT}: ${base.spent} / ${base.necessary} = ${(base.spent / base.necessary).toFixed(2)}x` : ''}`,
      now.spent <= now.necessary,
      '<= 1.00x',
    ),
  );

  // Handles the sandbox has, for the runs below (any store, a sandbox of the same seed).
  const rows = 10_000;
  let handles;
  {
    const sb = await startSandbox(['--rate-limit', '100000', '--credits', '1000000']);
    try {
      await configure(sb, { dailyDiscoveryLimit: 1_000_000 });
      const target = join(tmp, 'handles.jsonl');
      await cli(
        BIN,
        [
          'search',
          '--platform',
          'instagram',
          '--all',
          '--max-results',
          String(rows),
          '-o',
          target,
          '--quiet',
          '--no-store',
        ],
        sb.env({ CREATORS_RATE_LIMIT: '100000' }),
      );
      handles = handlesOf(
        (await readFile(target, 'utf8'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l)),
      );
      await rm(target, { force: true });
    } finally {
      await sb.stop();
    }
  }
  const input = join(tmp, 'store-10k.csv');
  await writeFile(input, csvOf(handles));

  /*
   * Reuse, size and memory: 10,000 full-mode rows bought into an empty store (no latency, no rate limit
   * to speak of), then the same file again, every row from the store (the timed run: wall time and
   * CPU), then bought once more with --no-store. Peak RSS of the two buying runs side by side.
   */
  {
    const sb = await startSandbox(['--rate-limit', '1000000', '--credits', '1000000']);
    try {
      const configDir = join(tmp, 'store-reuse');
      const env = sb.env({ CREATORS_CONFIG_DIR: configDir, CREATORS_RATE_LIMIT: '1000000' });
      const enrich = (o, more = []) => cli(BIN, enrichArgs(input, join(tmp, o), { mode: 'full', extra: more }), env);
      note(`store: ${rows.toLocaleString('en-US')} full-mode rows into an empty store`);
      const fill = await enrich('fill.csv');
      const bought = (await ledger(sb)).used;
      const bytes = await storeBytes(configDir);
      const reuses = [];
      for (let i = 0; i < (quick ? 1 : 3); i++) reuses.push(await enrich('reuse.csv'));
      const reuse = [...reuses].sort((a, b) => a.ms - b.ms)[0];
      const paidAgain = (await ledger(sb)).used - bought;
      const fromStore = (await readFile(join(tmp, 'reuse.csv'), 'utf8'))
        .trim()
        .split('\n')
        .filter((l) => l.endsWith(',store')).length;
      note(`store: the same rows with --no-store`);
      const bare = await enrich('bare.csv', ['--no-store']);
      const cpu = (r) => (r.cpuMs === undefined ? '' : `, CPU ${fmtMs(r.cpuMs)}`);
      out(
        line(
          `store: ${rows.toLocaleString('en-US')} rows from the store`,
          reuse.ms / 3000,
          `wall ${fmtMs(reuse.ms)}${cpu(reuse)}, ${Math.round(rows / (reuse.ms / 1000)).toLocaleString('en-US')} rows/s (best of ${reuses.length}); ${fromStore.toLocaleString('en-US')} rows source=store, ${paidAgain} credits paid again; buying them into the store took ${fmtMs(fill.ms)}${cpu(fill)}, with --no-store ${fmtMs(bare.ms)}${cpu(bare)}`,
          reuse.ms < 3000 && fromStore === rows && paidAgain === 0,
          '< 3 s',
        ),
      );
      out(
        `  store size: ${fmtMb(bytes / 1024)} per ${rows.toLocaleString('en-US')} full-mode records (${Math.round(bytes / rows).toLocaleString('en-US')} bytes a record; ${bought} credits bought)`,
      );
      // "Unchanged within 10 %": the store may not add more than a tenth; using less is no regression.
      out(
        line(
          'store: peak RSS, store vs --no-store',
          fill.peakKb / bare.peakKb,
          `${fmtMb(fill.peakKb)} vs ${fmtMb(bare.peakKb)} buying ${rows.toLocaleString('en-US')} full rows; from the store ${fmtMb(reuse.peakKb)}`,
          fill.peakKb / bare.peakKb <= 1.1 && reuse.peakKb / bare.peakKb <= 1.1,
          '<= 1.10x',
        ),
      );
    } finally {
      await sb.stop();
    }
  }

  /*
   * Rate at real latency with the store on: raw enrichments held 1 s, 3 s and 10 s at the account's
   * 300/min, each in a fresh store. The rate is the arrivals at the sandbox over their span, so the
   * ramp (a few in flight until answers show the latency) counts against it.
   */
  const limit = 300;
  const perRun = quick ? 60 : 100;
  for (const seconds of [1, 3, 10]) {
    const sb = await startSandbox([
      '--rate-limit',
      String(limit),
      '--credits',
      '1000000',
      '--latency',
      `enrich=${seconds}s`,
    ]);
    try {
      const file = join(tmp, `rate-${seconds}.csv`);
      await writeFile(file, csvOf(handles.slice(0, perRun)));
      const r = await cli(
        BIN,
        enrichArgs(file, join(tmp, 'rate.csv'), { mode: 'raw' }),
        sb.env({ CREATORS_CONFIG_DIR: join(tmp, `store-rate-${seconds}`), CREATORS_RATE_LIMIT: String(limit) }),
      );
      const calls = sb.log.filter((e) => e.url.includes('/enrich/'));
      const n429 = calls.filter((e) => e.status === 429).length;
      const { perMin } = arrivalRate(calls);
      out(
        line(
          `store: rate at ${seconds} s a request`,
          perMin / limit,
          `${Math.round(perMin)}/min of ${limit}/min over ${calls.length} requests; ${n429} x 429; wall ${fmtMs(r.ms)}`,
          perMin / limit >= 0.95 && n429 === 0,
          '>= 0.95x, no 429',
        ),
      );
    } finally {
      await sb.stop();
    }
  }

  /*
   * Four processes at once, one store, one sandbox at 300/min, each enriching its own handles (1 s a
   * reply): together more than a minute's worth, so a pace not shared would meet 429s.
   */
  {
    const procs = 4;
    const each = quick ? 80 : 100;
    const sb = await startSandbox(['--rate-limit', String(limit), '--credits', '1000000', '--latency', 'enrich=1s']);
    try {
      const env = sb.env({ CREATORS_CONFIG_DIR: join(tmp, 'store-shared'), CREATORS_RATE_LIMIT: String(limit) });
      const runs = await Promise.all(
        Array.from({ length: procs }, async (_, p) => {
          const file = join(tmp, `shared-${p}.csv`);
          await writeFile(file, csvOf(handles.slice(p * each, (p + 1) * each)));
          return cli(BIN, enrichArgs(file, join(tmp, `shared-${p}.out.csv`), { mode: 'raw' }), env);
        }),
      );
      const calls = sb.log.filter((e) => e.url.includes('/enrich/'));
      const n429 = calls.filter((e) => e.status === 429).length;
      const { perMin } = arrivalRate(calls);
      const wall = Math.max(...runs.map((r) => r.ms));
      out(
        line(
          `store: ${procs} processes share ${limit}/min`,
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
}
