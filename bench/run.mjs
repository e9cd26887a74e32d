#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --only startup,csv,bulk,download,enrich,inflight,search,reuse,events,store,team,trips]`: the performance budgets
// of issue 8 (and of issue 24's store, bench/store.mjs: about 5 minutes of the default run), each measured side by side with its baseline in the same run (csv: against fixed figures). Needs `npm run build`.
// Generated inputs go to a temporary directory that is removed at the end.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { bundleOptions } from '../scripts/build.mjs';
import { benchEnv, enrichArgs, bestRun, fmtMb, fmtMs, line, measure, median, medianRun, writeCsv } from './lib.mjs';
import { benchStore } from './store.mjs';
import { benchTeamStore } from './team-store.mjs';
import { benchReuse } from './reuse.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/creators.js');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only'));
const only = onlyArg
  ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1]).split(',')
  : undefined;
const want = (name) => only === undefined || only.includes(name);
const MB = 1024 * 1024;

const sizes = quick
  ? {
      startupRuns: 11,
      rounds: 1,
      downloadRounds: 1,
      csvRows: 100_000,
      rssRows: [100_000, 1_000_000],
      downloadBytes: [20 * MB, 200 * MB],
      handles: 500,
      searchResults: 2_000,
      events: [100_000, 1_000_000],
    }
  : {
      startupRuns: 31,
      rounds: 3,
      downloadRounds: 5,
      csvRows: 1_000_000,
      rssRows: [1_000_000, 10_000_000],
      downloadBytes: [100 * MB, 1024 * MB],
      handles: 2_000,
      searchResults: 10_000,
      events: [100_000, 1_000_000],
    };

if (!existsSync(join(root, 'dist/main.js'))) {
  console.error('bench: dist/ is missing; run `npm run build` first.');
  process.exit(2);
}
const tmp = await mkdtemp(join(tmpdir(), 'creators-bench-'));
const out = (s) => process.stdout.write(`${s}\n`);
const note = (s) => process.stderr.write(`  .. ${s}\n`);
out(
  `creators bench (${quick ? 'quick' : 'full'}; node ${process.version}; load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; NODE_EXTRA_CA_CERTS unset for every child)`,
);

/** Starts `creators sandbox` (JSON line on stdout) with its request log on stderr, timestamped on arrival. */
async function startSandbox(flags) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--debug', ...flags], {
    env: benchEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  let pending = '';
  child.stderr.on('data', (c) => {
    pending += c;
    const lines = pending.split('\n');
    pending = lines.pop();
    const at = performance.now();
    for (const l of lines) {
      const m = /^\[sandbox\] (\S+) (\S+) (\d{3}) (\d+)ms$/.exec(l);
      if (m) log.push({ at, method: m[1], url: m[2], status: Number(m[3]), ms: Number(m[4]) });
    }
  });
  let first = '';
  for await (const c of child.stdout) {
    first += c;
    if (first.includes('\n')) break;
  }
  const { base_url: baseUrl, api_key: apiKey } = JSON.parse(first);
  return {
    baseUrl,
    apiKey,
    log,
    env: (extra = {}) =>
      benchEnv({
        CREATORS_BASE_URL: baseUrl,
        CREATORS_API_KEY: apiKey,
        CREATORS_CONFIG_DIR: join(tmp, 'config'),
        ...extra,
      }),
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'close');
    },
  };
}

async function benchStartup() {
  const cases = [
    ['--version', ['--version']],
    ['--help', ['--help']],
    ['search --help', ['search', '--help']],
  ];
  const base = [];
  const times = cases.map(() => []);
  // Interleaved rounds, so a busy moment on a shared machine hits every side alike.
  for (let i = 0; i < sizes.startupRuns; i++) {
    base.push((await measure(process.execPath, ['-e', ''], { rss: false })).ms);
    for (const [j, [, argv]] of cases.entries()) {
      const r = await measure(process.execPath, [BIN, ...argv], { rss: false });
      if (r.code !== 0) throw new Error(`creators ${argv.join(' ')} exited ${r.code}: ${r.stderr}`);
      times[j].push(r.ms);
    }
  }
  const b = median(base);
  for (const [j, [name]] of cases.entries()) {
    const t = median(times[j]);
    out(
      line(
        `start-up: creators ${name}`,
        t / b,
        `${fmtMs(t)} vs node -e "" ${fmtMs(b)}, median of ${sizes.startupRuns}`,
        t / b <= 1.5,
        '<= 1.5x',
      ),
    );
  }
  // For reference: the same help through commander (a terminal width the snapshot does not cover).
  const viaCommander = [];
  for (let i = 0; i < Math.min(11, sizes.startupRuns); i++) {
    viaCommander.push(
      (
        await measure(
          process.execPath,
          [
            '-e',
            "process.stdout.isTTY=true;process.stdout.columns=97;process.argv=[process.argv[0],'creators','search','--help'];import('./bin/creators.js')",
          ],
          { rss: false, env: benchEnv() },
        )
      ).ms,
    );
  }
  out(`  (reference: search --help rendered by commander, no snapshot: ${fmtMs(median(viaCommander))})`);
  // One request: `creators credits --json`, `dict languages --json` and `auth status` (whose live check is
  // the credits GET) against a bare node:http script making the same GET and printing its JSON
  // (bench/credits-bare.mjs), all interleaved in each round.
  const sb = await startSandbox(['--rate-limit', '100000']);
  try {
    const bareScript = join(root, 'bench/credits-bare.mjs');
    const reads = [
      { name: 'credits --json', argv: ['credits', '--json'], bare: [], same: true },
      {
        name: 'dict languages --json',
        argv: ['dict', 'languages', '--json'],
        bare: ['/public/v1/discovery/classifier/languages/'],
      },
      { name: 'auth status', argv: ['auth', 'status'], bare: [] },
    ];
    const bareRuns = new Map(reads.map((r) => [r.bare.join(' '), []]));
    for (const r of reads) r.runs = [];
    // Node 22.1+: the launcher's module.enableCompileCache() keeps V8's compiled code of dist/ between runs
    // (absent on Node 20, where the call does nothing); credits without it, for the figure.
    const compileCache = typeof (await import('node:module')).default.enableCompileCache === 'function';
    const uncachedRuns = [];
    let same = true;
    for (let i = 0; i < sizes.startupRuns; i++) {
      for (const [path, runs] of bareRuns) {
        const b = await measure(process.execPath, [bareScript, ...(path ? [path] : [])], { rss: false, env: sb.env() });
        if (b.code !== 0) throw new Error(`credits-bare ${path} exited ${b.code}: ${b.stderr}`);
        runs.push(b);
      }
      for (const r of reads) {
        const c = await measure(process.execPath, [BIN, ...r.argv], { rss: false, env: sb.env() });
        if (c.code !== 0) throw new Error(`creators ${r.argv.join(' ')} exited ${c.code}: ${c.stderr}`);
        r.runs.push(c.ms);
        if (
          r.same &&
          JSON.stringify(JSON.parse(c.stdout)) !== JSON.stringify(JSON.parse(bareRuns.get('').at(-1).stdout))
        )
          same = false;
      }
      if (compileCache)
        uncachedRuns.push(
          (
            await measure(process.execPath, [BIN, 'credits', '--json'], {
              rss: false,
              env: sb.env({ NODE_DISABLE_COMPILE_CACHE: '1' }),
            })
          ).ms,
        );
    }
    for (const r of reads) {
      const c = median(r.runs);
      const bare = median(bareRuns.get(r.bare.join(' ')).map((b) => b.ms));
      const what = r.same
        ? `same request, same JSON${same ? '' : ': OUTPUT DIFFERS'}`
        : r.bare.length > 0
          ? 'the same GET'
          : 'the credits GET it makes';
      out(
        line(
          `one request: creators ${r.name}`,
          c / bare,
          `${fmtMs(c)} vs ${fmtMs(bare)} for a bare node:http script (${what}), median of ${sizes.startupRuns}`,
          c / bare <= 2,
          '<= 2x',
        ),
      );
    }
    const bare = median(bareRuns.get('').map((b) => b.ms));
    if (compileCache)
      out(
        `  (compile cache: credits with NODE_DISABLE_COMPILE_CACHE=1 took ${fmtMs(median(uncachedRuns))}, ${(median(uncachedRuns) / bare).toFixed(2)}x)`,
      );
    else out('  (no compile cache on this Node: module.enableCompileCache arrived in Node 22.1)');
  } finally {
    await sb.stop();
  }
}

/** The harnesses of the csv bench, bundled as the CLI is (bench/.build). */
async function buildCsvHarness() {
  const harness = join(root, 'bench/.build');
  await build({
    ...bundleOptions,
    sourcemap: false,
    absWorkingDir: root,
    entryPoints: ['bench/csv-path.ts', 'bench/bulk-path.ts'],
    outdir: harness,
  });
  return harness;
}

/** `--only bulk`: the store-on bulk path alone (its rows/s and its peak RSS at 1k/10k/100k). */
async function benchBulkOnly() {
  const harness = await buildCsvHarness();
  const input = join(tmp, 'in.csv');
  note(`generating ${sizes.csvRows.toLocaleString('en-US')} rows`);
  await writeCsv(input, sizes.csvRows);
  await benchBulkPath(harness, input, (await stat(input)).size);
  await rm(input, { force: true });
}

async function benchCsv() {
  const harness = await buildCsvHarness();
  const input = join(tmp, 'in.csv');
  note(`generating ${sizes.csvRows.toLocaleString('en-US')} rows`);
  await writeCsv(input, sizes.csvRows);
  const size = (await stat(input)).size;
  // The budget is against what the API can take, not another CSV library: 50,000 rows a second through
  // `enrich --input` with the network taken out is 10,000 times the account's 300 requests a minute.
  const cliRuns = [];
  for (let round = 0; round < sizes.rounds; round++)
    cliRuns.push(await measure(process.execPath, [join(harness, 'csv-path.js'), input, join(tmp, 'cli.csv')]));
  for (const r of cliRuns) if (r.code !== 0) throw new Error(`csv harness failed: ${r.stderr}`);
  const cli = bestRun(cliRuns);
  const rate = (r) => sizes.csvRows / (r.ms / 1000);
  const target = 50_000;
  const medians =
    sizes.rounds > 1 ? `; median ${Math.round(rate(medianRun(cliRuns))).toLocaleString('en-US')} rows/s` : '';
  out(
    line(
      `csv: enrich --input path, no network`,
      rate(cli) / target,
      `${Math.round(rate(cli)).toLocaleString('en-US')} rows/s over ${sizes.csvRows.toLocaleString('en-US')} rows (${fmtMb(size / 1024)}), best of ${sizes.rounds}${medians}; peak RSS ${fmtMb(cli.peakKb)}`,
      rate(cli) >= target,
      `>= ${target.toLocaleString('en-US')} rows/s`,
    ),
  );
  await benchBulkPath(harness, input, size);
  for (const rows of sizes.rssRows) {
    let file = input;
    if (rows !== sizes.csvRows) {
      file = join(tmp, `rss-${rows}.csv`);
      note(`generating ${rows.toLocaleString('en-US')} rows`);
      await writeCsv(file, rows);
    }
    const bytes = (await stat(file)).size;
    const r = await measure(process.execPath, [join(harness, 'csv-path.js'), file, join(tmp, 'cli.csv')]);
    if (r.code !== 0) throw new Error(`csv harness failed: ${r.stderr}`);
    out(
      line(
        `csv: peak RSS, ${fmtMb(bytes / 1024)} input`,
        r.peakKb / 1024 / 150,
        `${fmtMb(r.peakKb)} of a 150 MB budget; ${rows.toLocaleString('en-US')} rows in ${fmtMs(r.ms)}`,
        r.peakKb / 1024 < 150,
        '< 150 MB',
      ),
    );
    if (file !== input) await rm(file, { force: true });
    await rm(join(tmp, 'cli.csv'), { force: true });
  }
  await rm(input, { force: true });
}

/**
 * The command's own path with the store on (bench/bulk-path.ts: the pass before the money gate with the store's
 * count, the run, the CSV printer; only the requests replaced by a fixed answer) against csv-parse into
 * csv-stringify over the same file (bench/csv-baseline.mjs), in turn, the best of each side.
 */
async function benchBulkPath(harness, input, size) {
  const bulkRuns = [];
  const baseRuns = [];
  for (let round = 0; round < sizes.rounds; round++) {
    const base = await measure(process.execPath, [join(root, 'bench/csv-baseline.mjs'), input, join(tmp, 'base.csv')]);
    if (base.code !== 0) throw new Error(`csv baseline failed: ${base.stderr}`);
    const storeFile = join(tmp, 'bulk-path.db');
    await rm(storeFile, { force: true });
    const bulk = await measure(process.execPath, [
      join(harness, 'bulk-path.js'),
      input,
      join(tmp, 'bulk.csv'),
      storeFile,
    ]);
    if (bulk.code !== 0) throw new Error(`bulk harness failed: ${bulk.stderr}`);
    baseRuns.push(base);
    bulkRuns.push(bulk);
  }
  await rm(join(tmp, 'base.csv'), { force: true });
  await rm(join(tmp, 'bulk.csv'), { force: true });
  const rate = (r) => sizes.csvRows / (r.ms / 1000);
  const bulk = bestRun(bulkRuns);
  const base = bestRun(baseRuns);
  const cpu = (r) => (r.cpuMs === undefined ? '' : ` (CPU ${fmtMs(r.cpuMs)})`);
  const cpuRatio = bulk.cpuMs && base.cpuMs ? `; CPU ${(bulk.cpuMs / base.cpuMs).toFixed(2)}x the baseline's` : '';
  const target = 100_000;
  out(
    line(
      'csv: store on, bulk path, no net',
      rate(bulk) / rate(base),
      `${Math.round(rate(bulk)).toLocaleString('en-US')} vs ${Math.round(rate(base)).toLocaleString('en-US')} rows/s for csv-parse + csv-stringify alone over the same ${sizes.csvRows.toLocaleString('en-US')} rows (${fmtMb(size / 1024)}); wall ${fmtMs(bulk.ms)}${cpu(bulk)} vs ${fmtMs(base.ms)}${cpu(base)}, best of ${sizes.rounds}${cpuRatio}; peak RSS ${fmtMb(bulk.peakKb)}; load ${loadavg()[0].toFixed(2)}`,
      rate(bulk) >= target,
      `>= ${target.toLocaleString('en-US')} rows/s`,
    ),
  );
  // The same path with every row bought (bench/bulk-path.ts --buy: claimed, committed with its spend entry before
  // its row is written): the store's write path, one durable commit a row. Shown, not budgeted.
  {
    const rows = quick ? 2_000 : 10_000;
    const file = join(tmp, `buy-${rows}.csv`);
    await writeCsv(file, rows);
    const storeFile = join(tmp, 'bulk-buy.db');
    await rm(storeFile, { force: true });
    const r = await measure(process.execPath, [
      join(harness, 'bulk-path.js'),
      file,
      join(tmp, 'bulk.csv'),
      storeFile,
      '--buy',
    ]);
    if (r.code !== 0) throw new Error(`bulk harness (--buy) failed: ${r.stderr}`);
    out(
      `  (every row bought, --buy: ${Math.round(rows / (r.ms / 1000)).toLocaleString('en-US')} rows/s over ${rows.toLocaleString('en-US')} rows; wall ${fmtMs(r.ms)}${cpu(r)}; load ${loadavg()[0].toFixed(2)})`,
    );
    await rm(file, { force: true });
    await rm(storeFile, { force: true });
  }
  // Memory of the same path at 1k, 10k and 100k rows: flat (within 10%) and under 120 MB.
  const peaks = [];
  for (const rows of [1_000, 10_000, 100_000]) {
    const file = join(tmp, `bulk-${rows}.csv`);
    await writeCsv(file, rows);
    const storeFile = join(tmp, 'bulk-rss.db');
    await rm(storeFile, { force: true });
    const r = await measure(process.execPath, [join(harness, 'bulk-path.js'), file, join(tmp, 'bulk.csv'), storeFile]);
    if (r.code !== 0) throw new Error(`bulk harness failed: ${r.stderr}`);
    peaks.push(r.peakKb);
    await rm(file, { force: true });
  }
  await rm(join(tmp, 'bulk.csv'), { force: true });
  const spread = Math.max(...peaks) / Math.min(...peaks);
  out(
    line(
      'csv: store on, peak RSS 1k/10k/100k',
      spread,
      `${peaks.map((kb) => fmtMb(kb)).join(' / ')} (flat: within 1.10x, each under 120 MB)`,
      spread <= 1.1 && Math.max(...peaks) < 120 * 1024,
      'flat, < 120 MB',
    ),
  );
}

/**
 * A local file host serving a generated CSV of `bytes` bytes with Content-Length (like the sandbox's),
 * and the API's batch download route pointing at it. The sandbox's own file host renders each result
 * file as one in-memory string, which V8 caps at ~512 MB, so it cannot serve 1 GB (see the README).
 */
async function fileHost() {
  const row = Buffer.from(
    'creator_000000,Creator Name,12345,2.5,creator@example.com,"{""platform"":""instagram"",""followers"":12345}",0.03,ok,\n',
  );
  const block = Buffer.concat(Array.from({ length: Math.ceil((1 * MB) / row.length) }, () => row));
  const server = createServer((req, res) => {
    const m = /^\/public\/v1\/enrichment\/batch\/([^/]+)\/download\/$/.exec(req.url ?? '');
    if (m) {
      const bytes = Number(m[1].replace('bench-', ''));
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          download_url: `http://127.0.0.1:${server.address().port}/files/${bytes}/results.csv`,
          filename: 'results.csv',
          expires_in: 300,
          batch_id: m[1],
          total_results: 0,
          invalid_records: 0,
        }),
      );
    }
    const f = /^\/files\/(\d+)\/results\.csv$/.exec(req.url ?? '');
    if (!f) return res.writeHead(404).end();
    const total = Number(f[1]);
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': total });
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(block.length, total - sent);
        sent += n;
        if (!res.write(n === block.length ? block : block.subarray(0, n))) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

async function benchDownload() {
  const host = await fileHost();
  const curl = ['/usr/bin/curl', '/usr/local/bin/curl'].find((p) => existsSync(p));
  try {
    const env = benchEnv({
      CREATORS_BASE_URL: host.url,
      CREATORS_API_KEY: 'sbx_bench',
      CREATORS_CONFIG_DIR: join(tmp, 'config'),
    });
    const results = [];
    for (const bytes of sizes.downloadBytes) {
      const target = join(tmp, 'download.csv');
      const url = `${host.url}/files/${bytes}/results.csv`;
      const cliRuns = [];
      const baseRuns = [];
      // Interleaved rounds at the largest size, the best of each side (a 1 GB copy on this shared machine
      // took 1.2 s or 2.0 s from one run to the next); one round at the small size, only there for memory.
      for (
        let round = 0;
        round < (bytes === sizes.downloadBytes[sizes.downloadBytes.length - 1] ? sizes.downloadRounds : 1);
        round++
      ) {
        const cli = await measure(
          process.execPath,
          [BIN, 'batch', 'download', `bench-${bytes}`, '-o', target, '--quiet'],
          { env },
        );
        if (cli.code !== 0) throw new Error(`batch download exited ${cli.code}: ${cli.stderr}`);
        const got = (await stat(target)).size;
        if (got !== bytes) throw new Error(`batch download wrote ${got} bytes, expected ${bytes}`);
        await rm(target, { force: true });
        const base = curl
          ? await measure(curl, ['-s', '-o', target, url])
          : await measure(process.execPath, [
              '-e',
              `fetch(${JSON.stringify(url)}).then(async r=>{const {Readable}=await import('node:stream');const {pipeline}=await import('node:stream/promises');await pipeline(Readable.fromWeb(r.body),(await import('node:fs')).createWriteStream(${JSON.stringify(target)}))})`,
            ]);
        await rm(target, { force: true });
        cliRuns.push(cli);
        baseRuns.push(base);
      }
      results.push({
        bytes,
        cli: bestRun(cliRuns),
        base: bestRun(baseRuns),
        cliMedian: medianRun(cliRuns),
        baseMedian: medianRun(baseRuns),
        rounds: cliRuns.length,
      });
    }
    const big = results[results.length - 1];
    const tput = (r) => big.bytes / MB / (r.ms / 1000);
    const baseName = curl ? 'curl -o' : 'a node stream copy (no curl here)';
    out(
      line(
        `download: batch download vs ${curl ? 'curl -o' : 'node copy'}`,
        tput(big.cli) / tput(big.base),
        `${tput(big.cli).toFixed(0)} vs ${tput(big.base).toFixed(0)} MB/s for ${fmtMb(big.bytes / 1024)} (${baseName}); wall ${fmtMs(big.cli.ms)} vs ${fmtMs(big.base.ms)}, best of ${big.rounds}${big.rounds > 1 ? `; medians ${fmtMs(big.cliMedian.ms)} vs ${fmtMs(big.baseMedian.ms)}, ${(big.baseMedian.ms / big.cliMedian.ms).toFixed(2)}x` : ''}`,
        tput(big.cli) / tput(big.base) >= 0.9,
        '>= 0.9x',
      ),
    );
    const small = results[0];
    out(
      line(
        `download: peak RSS ${fmtMb(big.bytes / 1024)} vs ${fmtMb(small.bytes / 1024)}`,
        big.cli.peakKb / small.cli.peakKb,
        `${fmtMb(big.cli.peakKb)} vs ${fmtMb(small.cli.peakKb)} (flat: within 1.25x)`,
        big.cli.peakKb / small.cli.peakKb <= 1.25,
        'flat',
      ),
    );
  } finally {
    await host.close();
  }
}

/**
 * Enrichment against a service with real latency: 300 handles with every enrich reply held 1 s or 3 s
 * (sandbox --latency), at 600/min to keep it short. The achieved rate is the requests' arrivals at the
 * sandbox (its log line's time less the time it held the reply) between the first and the last, per minute,
 * over the limit: what the account's budget was used for.
 */
async function benchEnrich() {
  const limit = 600;
  const handles = 300;
  for (const seconds of [1, 3]) {
    const sb = await startSandbox([
      '--rate-limit',
      String(limit),
      '--credits',
      '1000000',
      '--latency',
      `enrich=${seconds}s`,
    ]);
    try {
      const input = join(tmp, 'handles.csv');
      await writeFile(input, `handle\n${Array.from({ length: handles }, (_, i) => `bench_creator_${i}`).join('\n')}\n`);
      const r = await measure(process.execPath, [BIN, ...enrichArgs(input, join(tmp, 'enriched.csv'))], {
        env: sb.env({ CREATORS_RATE_LIMIT: String(limit) }),
      });
      if (r.code !== 0 && r.code !== 3) throw new Error(`enrich handle exited ${r.code}: ${r.stderr}`);
      const calls = sb.log.filter((e) => e.url.includes('/enrich/'));
      const arrivals = calls.map((e) => e.at - e.ms).sort((a, b) => a - b);
      const n429 = calls.filter((e) => e.status === 429).length;
      const span = (arrivals[arrivals.length - 1] - arrivals[0]) / 60_000;
      const perMin = (arrivals.length - 1) / span;
      const ideal = ((handles - 1) / limit) * 60_000 + seconds * 1000;
      out(
        line(
          `rate: enrich ${handles} handles at ${seconds} s a request`,
          perMin / limit,
          `${Math.round(perMin)}/min of ${limit}/min over ${calls.length} requests; ${n429} x 429; wall ${fmtMs(r.ms)} (at the limit: ${fmtMs(ideal)} + start-up)`,
          perMin / limit >= 0.9 && n429 === 0,
          '>= 0.9x, no 429',
        ),
      );
    } finally {
      await sb.stop();
    }
  }
}

/** In flight from the account's rate: 10 s replies at 600 and 1,200/min need 100 and 200 in flight (Little's
  law); half a minute's worth of handles each, so the row stays short. */
async function benchInFlight() {
  for (const perMinute of [600, 1200]) {
    const n = perMinute / 2;
    const sb = await startSandbox([
      '--rate-limit',
      String(perMinute),
      '--credits',
      '1000000',
      '--latency',
      'enrich=10s',
    ]);
    try {
      const input = join(tmp, `handles-${perMinute}.csv`);
      await writeFile(
        input,
        `handle\n${Array.from({ length: n }, (_, i) => `bench_rate_${perMinute}_${i}`).join('\n')}\n`,
      );
      const r = await measure(
        process.execPath,
        [BIN, ...enrichArgs(input, join(tmp, 'enriched.csv'), { extra: ['--no-store'] })],
        { env: sb.env({ CREATORS_RATE_LIMIT: String(perMinute) }) },
      );
      if (r.code !== 0 && r.code !== 3) throw new Error(`enrich handle exited ${r.code}: ${r.stderr}`);
      const calls = sb.log.filter((e) => e.url.includes('/enrich/'));
      const arrivals = calls.map((e) => e.at - e.ms).sort((a, b) => a - b);
      const n429 = calls.filter((e) => e.status === 429).length;
      const perMin = (arrivals.length - 1) / ((arrivals[arrivals.length - 1] - arrivals[0]) / 60_000);
      out(
        line(
          `rate: enrich ${n} handles at 10 s a request, ${perMinute.toLocaleString('en-US')}/min`,
          perMin / perMinute,
          `${Math.round(perMin)}/min of ${perMinute}/min over ${calls.length} requests (Little's law: ${Math.round((perMinute / 60) * 10)} in flight); ${n429} x 429; wall ${fmtMs(r.ms)}`,
          perMin / perMinute >= 0.95 && n429 === 0,
          '>= 0.95x, no 429',
        ),
      );
    } finally {
      await sb.stop();
    }
  }
}

/**
 * search --all against Discovery pages that take 1 s (sandbox --latency), at the default 300/min: the
 * wall time over what the account allows (pages / rate limit, plus one page's latency for the last
 * answer). The CLI's start-up is inside the wall time. Also the peak RSS of 10x the results (flat).
 */
async function benchSearch() {
  const perPage = 50;
  const limit = 300;
  const latencyS = 1;
  const results = 5_000;
  const sb = await startSandbox([
    '--rate-limit',
    String(limit),
    '--credits',
    '1000000',
    '--latency',
    `discovery=${latencyS}s`,
  ]);
  try {
    await fetch(`${sb.baseUrl}/_sandbox/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dailyDiscoveryLimit: 1_000_000 }),
    }).catch(() => undefined);
    const env = sb.env({ CREATORS_RATE_LIMIT: String(limit) });
    const run = async (max) => {
      const from = sb.log.length;
      const target = join(tmp, `search-${max}.jsonl`);
      const r = await measure(
        process.execPath,
        [
          BIN,
          'search',
          '--platform',
          'instagram',
          '--all',
          '--limit',
          String(perPage),
          '--max-results',
          String(max),
          '-o',
          target,
          '--quiet',
        ],
        { env },
      );
      if (r.code !== 0) throw new Error(`search exited ${r.code}: ${r.stderr}`);
      const calls = sb.log.slice(from).filter((e) => e.url.includes('/discovery/'));
      await rm(target, { force: true });
      return { ...r, calls };
    };
    const small = await run(results / 10);
    const big = await run(results);
    const pages = big.calls.length;
    const ideal = (pages / limit) * 60_000 + latencyS * 1000;
    const n429 = big.calls.filter((e) => e.status === 429).length;
    out(
      line(
        `paging: search --all ${results.toLocaleString('en-US')} at ${latencyS} s a page`,
        big.ms / ideal,
        `wall ${fmtMs(big.ms)} vs ${fmtMs(ideal)} allowed (${pages} pages at ${limit}/min + one page's ${latencyS} s); ${n429} x 429`,
        big.ms / ideal <= 1.3 && n429 === 0,
        '<= 1.3x',
      ),
    );
    out(
      line(
        `paging: peak RSS ${results} vs ${results / 10}`,
        big.peakKb / small.peakKb,
        `${fmtMb(big.peakKb)} vs ${fmtMb(small.peakKb)} (flat: within 1.25x)`,
        big.peakKb / small.peakKb <= 1.25,
        'flat',
      ),
    );
  } finally {
    await sb.stop();
  }
}

/**
 * `events tail --once --backlog all --cursor-file` over a backlog seeded into the sandbox
 * (`/_sandbox/listening/seed`), 100,000 then 1,000,000 events: every event delivered once (lines
 * counted), wall time, events a second and peak RSS, which must stay flat (within 1.25x) for ten times
 * the backlog. Then the same cursor again: nothing new, one request.
 */
async function benchEvents() {
  const sb = await startSandbox(['--rate-limit', '100000000', '--credits', '1000000']);
  try {
    const post = async (path, body) => {
      const res = await fetch(`${sb.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
      return res.json();
    };
    const sub = await post('/public/v1/social/listening/subscription/', {
      name: 'bench',
      creators: [{ platform: 'instagram', platform_id: 'bench_events' }],
    });
    const env = sb.env({ CREATORS_RATE_LIMIT: '100000000' });
    const runs = [];
    let seeded = 0;
    for (const events of sizes.events) {
      note(`seeding ${(events - seeded).toLocaleString('en-US')} events`);
      await post('/_sandbox/listening/seed', { events: events - seeded, subscription_id: sub.id });
      seeded = events;
      const cursor = join(tmp, `events-${events}.cursor`);
      const args = [
        BIN,
        'events',
        'tail',
        '--once',
        '--backlog',
        'all',
        '--subscription',
        String(sub.id),
        '--cursor-file',
        cursor,
      ];
      const r = await measure(process.execPath, args, { env, keepStdout: false });
      if (r.code !== 0) throw new Error(`events tail exited ${r.code}: ${r.stderr}`);
      if (r.lines !== events) throw new Error(`events tail delivered ${r.lines} lines of ${events}`);
      const again = await measure(process.execPath, args, { env, keepStdout: false });
      if (again.code !== 0 || again.lines !== 0)
        throw new Error(`events tail again: exit ${again.code}, ${again.lines} lines`);
      const listed = join(tmp, 'events-list.jsonl');
      const list = await measure(
        process.execPath,
        [
          BIN,
          'events',
          'list',
          '--all',
          '--subscription',
          String(sub.id),
          '--format',
          'jsonl',
          '-o',
          listed,
          '--quiet',
        ],
        { env, keepStdout: false },
      );
      if (list.code !== 0) throw new Error(`events list --all exited ${list.code}: ${list.stderr}`);
      await rm(listed, { force: true });
      runs.push({ events, ...r, again, list });
      await rm(cursor, { force: true });
    }
    const small = runs[0];
    const big = runs[runs.length - 1];
    const rate = (r) => Math.round(r.events / (r.ms / 1000)).toLocaleString('en-US');
    out(
      line(
        `events tail: ${big.events.toLocaleString('en-US')} backlog`,
        big.peakKb / 1024 / 150,
        `${fmtMb(big.peakKb)} peak RSS of a 150 MB budget; every event once in ${fmtMs(big.ms)} (${rate(big)} events/s); then nothing new in ${fmtMs(big.again.ms)}`,
        big.peakKb / 1024 < 150,
        '< 150 MB',
      ),
    );
    out(
      line(
        `events list --all: ${big.events.toLocaleString('en-US')}`,
        big.list.peakKb / 1024 / 100,
        `${fmtMb(big.list.peakKb)} peak RSS (${fmtMb(small.list.peakKb)} at ${small.events.toLocaleString('en-US')}, ${(big.list.peakKb / small.list.peakKb).toFixed(2)}x); ${fmtMs(big.list.ms)}`,
        big.list.peakKb / 1024 < 100,
        '< 100 MB',
      ),
    );
    out(
      line(
        `events tail: peak RSS ${big.events / 1000}k vs ${small.events / 1000}k`,
        big.peakKb / small.peakKb,
        `${fmtMb(big.peakKb)} vs ${fmtMb(small.peakKb)} (flat: within 1.25x); ${fmtMs(small.ms)} for ${small.events.toLocaleString('en-US')} (${rate(small)} events/s)`,
        big.peakKb / small.peakKb <= 1.25,
        'flat',
      ),
    );
  } finally {
    await sb.stop();
  }
}

try {
  if (want('startup')) await benchStartup();
  if (want('csv')) await benchCsv();
  // The store-on bulk path alone (also part of `csv`).
  else if (only?.includes('bulk')) await benchBulkOnly();
  if (want('download')) await benchDownload();
  if (want('enrich')) await benchEnrich();
  if (want('inflight')) await benchInFlight();
  if (want('search')) await benchSearch();
  if (want('events')) await benchEvents();
  if (want('reuse')) await benchReuse({ BIN, root, tmp, out, note, startSandbox, quick });
  if (want('store')) await benchStore({ BIN, root, tmp, out, note, startSandbox, quick });
  if (want('team')) await benchTeamStore({ BIN, root, tmp, out, note, startSandbox, quick });
  // The team store's round trips alone (also part of `team`).
  else if (only?.includes('trips'))
    await benchTeamStore({ BIN, root, tmp, out, note, startSandbox, quick, tripsOnly: true });
} finally {
  await rm(tmp, { recursive: true, force: true });
}
