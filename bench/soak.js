#!/usr/bin/env node
// `npm run soak [-- --quick | --duration <s> | --seed <n>]`: the reliability soak (issue 9). Runs the
// built CLI's long loops against a chaotic sandbox for several minutes (default 180 s, --quick 30 s):
//   - `events tail --cursor-file` in the background, restarted with Ctrl-C half-way (it must resume
//     from its cursor), then a final `--once` without faults to drain what is left;
//   - back-to-back `batch upload` + `batch poll` + `batch download -o` cycles.
// The sandbox is `creators sandbox --faults <spec>` (a real process); its listening clock is moved a
// minute per second so subscriptions produce events. At the end it
// compares what the CLI printed and wrote with what the sandbox holds, checks the ledger for double
// charges, prints the figures, and exits 1 if anything was lost or charged twice. Bounded: it always
// stops by itself. Not part of `npm test`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
};
const durationS = args.includes('--quick') ? 30 : flag('--duration', 180);
const seed = flag('--seed', 99);

/** Safe requests may meet anything; billable POSTs only faults that mean "not started" (503, 429). */
const CHAOS = [
  '503 GET p=0.06',
  '502 GET p=0.03',
  '504 GET p=0.03',
  '500 GET p=0.02',
  '429:1 p=0.04',
  '429:none GET p=0.03',
  '503 POST p=0.08',
  'drop-before GET p=0.03',
  'drop-after GET p=0.03',
  'truncate GET p=0.03',
  'malformed GET p=0.03',
  'trickle:40 GET p=0.03',
  'delay:300 p=0.04',
  'expire GET target=files p=0.15',
  'truncate GET target=files p=0.1',
  '503 GET target=files p=0.05',
].join('; ');

const bin = fileURLToPath(new URL('../bin/creators.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'creators-soak-'));
const t0 = Date.now();
const server = spawn(
  process.execPath,
  [bin, 'sandbox', '--seed', String(seed), '--credits', '1000000', '--rate-limit', '100000', '--faults', CHAOS],
  {
    env: { PATH: process.env.PATH ?? '', HOME: work, CREATORS_CONFIG_DIR: join(work, 'cfg') },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const sandbox = await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  server.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
});
sandbox.url = sandbox.base_url;
sandbox.apiKey = sandbox.api_key;
const env = {
  PATH: process.env.PATH ?? '',
  HOME: work,
  CREATORS_CONFIG_DIR: join(work, 'cfg'),
  CREATORS_BASE_URL: sandbox.url,
  CREATORS_API_KEY: sandbox.apiKey,
};
const deadline = t0 + durationS * 1000;
const log = (line) => process.stderr.write(`[soak ${Math.round((Date.now() - t0) / 1000)}s] ${line}\n`);

/** Runs the CLI; `stopAt` sends Ctrl-C at that time. Never longer than the soak plus a minute. */
function cli(argv, { stopAt } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timers = [setTimeout(() => child.kill('SIGKILL'), Math.max(0, deadline - Date.now()) + 60_000)];
    if (stopAt) timers.push(setTimeout(() => child.kill('SIGINT'), Math.max(0, stopAt - Date.now())));
    child.on('close', (code) => {
      timers.forEach(clearTimeout);
      resolve({ code, stdout, stderr });
    });
  });
}

async function api(method, path, body) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/** The control surface under /_sandbox/ is never faulted. */
const control = (method, path, body) => api(method, `/_sandbox/${path}`, body);
const faultSpec = await control('GET', 'faults');
await control('DELETE', 'faults');
// Set-up without faults: a subscription on six real creators, which produces events as time moves.
const found = JSON.parse((await cli(['search', '--platform', 'instagram', '--limit', '6', '--json'])).stdout);
const creators = found.map((c) => ({ platform: 'instagram', platform_id: c.profile?.username ?? c.username }));
const sub = await api('POST', '/public/v1/social/listening/subscription/', { name: 'soak', creators });
await control('POST', 'faults', {
  rules: faultSpec.rules.map(({ spec, matched, injected, ...rule }) => rule),
  reset: true,
});
log(`sandbox ${sandbox.url}, seed ${seed}, ${durationS} s, faults: ${CHAOS}`);
// A minute of listening time per second, for the whole soak.
const clock = setInterval(() => void control('POST', 'listening/advance', { minutes: 1 }).catch(() => {}), 1000);

const cursor = join(work, 'events.cursor');
const tailArgs = [
  'events',
  'tail',
  '--subscription',
  String(sub.id),
  '--cursor-file',
  cursor,
  '--interval',
  '1',
  '--format',
  'jsonl',
];
const half = t0 + (durationS * 1000) / 2;
const tails = (async () => {
  const first = await cli([...tailArgs, '--backlog', 'all'], { stopAt: half });
  log(`events tail #1 stopped with exit ${first.code}`);
  const second = await cli(tailArgs, { stopAt: deadline });
  log(`events tail #2 stopped with exit ${second.code}`);
  return [first, second];
})();

const batches = [];
let rerunDownloads = 0;
let partialFiles = 0;
const batchLoop = (async () => {
  for (let n = 1; Date.now() < deadline - 10_000; n++) {
    const input = join(work, `batch-${n}.csv`);
    const rows = Array.from({ length: 40 + n }, (_, i) => `soak_${n}_${i}`);
    writeFileSync(input, `handle\n${rows.join('\n')}\n`);
    const up = await cli(['batch', 'upload', input, '--mode', 'raw', '--platform', 'instagram']);
    const id = up.stdout.trim();
    if (up.code !== 0 || !id) {
      batches.push({ n, id: null, ok: false, why: `upload exit ${up.code}: ${up.stderr.trim().split('\n')[0]}` });
      continue;
    }
    const timeout = String(Math.max(5, Math.round((deadline - Date.now()) / 1000)));
    const poll = await cli(['batch', 'poll', id, '--interval', '1', '--timeout', timeout]);
    if (poll.code === 8) break; // the soak ran out of time, not the CLI
    const out = join(work, `batch-${n}.out.csv`);
    const count = () => {
      try {
        return readFileSync(out, 'utf8').trim().split('\n').length - 1;
      } catch {
        return -1; // absent
      }
    };
    let dl = await cli(['batch', 'download', id, '-o', out]);
    if (dl.code !== 0) {
      // Gave up within its attempt budget: the file must be absent, and a re-run (what a user or cron
      // job does) must get the whole result.
      if (count() !== -1) partialFiles++;
      rerunDownloads++;
      dl = await cli(['batch', 'download', id, '-o', out]);
    }
    const lines = count();
    const ok = poll.code === 0 && dl.code === 0 && lines === rows.length;
    batches.push({
      n,
      id,
      rows: rows.length,
      ok,
      why: ok
        ? ''
        : `poll ${poll.code}, download ${dl.code}, ${lines} rows: ${(dl.stderr || poll.stderr).trim().split('\n')[0]}`,
    });
    log(`batch ${n}: ${ok ? 'ok' : `FAILED (${batches.at(-1).why})`}`);
  }
})();

await Promise.all([tails, batchLoop]);
const [first, second] = await tails;
clearInterval(clock);
const figures = await control('GET', 'faults');
await control('DELETE', 'faults');
const drain = await cli([...tailArgs, '--once']);

// What the sandbox holds for the subscription, read without faults.
const all = [];
for (let page = 1; ; page++) {
  const res = await api(
    'GET',
    `/public/v1/social/listening/events/?subscription_id=${sub.id}&page_size=100&page=${page}`,
  );
  all.push(...res.results.map((e) => e.id));
  if (!res.next) break;
}
const seen = [first, second, drain].flatMap((r) =>
  r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).id),
);
const unique = new Set(seen);
const lost = all.filter((id) => !unique.has(id)).length;
const duplicates = seen.length - unique.size;

// Double charges: a job charged for more rows than it has, or the same charge recorded twice.
const { charges } = await control('GET', 'ledger');
let doubleCharges = 0;
for (const b of batches.filter((x) => x.id)) {
  const milli = charges.filter((c) => c.note.startsWith(`batch ${b.id}:`)).reduce((s, c) => s + c.milli, 0);
  if (milli > b.rows * 30) doubleCharges++;
}
server.kill('SIGINT');
await new Promise((resolve) => server.once('close', resolve));

const report = {
  duration_s: Math.round((Date.now() - t0) / 1000),
  faults_injected: figures.total,
  faults_by_kind: figures.injected,
  requests_seen: figures.requests,
  events_expected: all.length,
  events_printed: unique.size,
  events_lost: lost,
  events_duplicated: duplicates,
  tail_exits: [first.code, second.code, drain.code],
  batches_completed: batches.filter((b) => b.ok).length,
  batches_failed: batches.filter((b) => !b.ok).map((b) => `${b.n}: ${b.why}`),
  downloads_rerun: rerunDownloads,
  partial_files_left: partialFiles,
  double_charges: doubleCharges,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
const healthy =
  lost === 0 &&
  duplicates === 0 &&
  partialFiles === 0 &&
  doubleCharges === 0 &&
  report.batches_failed.length === 0 &&
  first.code === 130 &&
  second.code === 130 &&
  drain.code === 0;
log(healthy ? 'soak passed: nothing lost, nothing charged twice' : 'soak FAILED');
rmSync(work, { recursive: true, force: true });
process.exitCode = healthy ? 0 : 1;
