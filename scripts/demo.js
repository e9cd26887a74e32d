#!/usr/bin/env node
// `npm run demo`: starts the embedded sandbox on a free port, answering about as slowly as the real
// service might (`--latency real`, a guess), runs a few real commands against it with visible output,
// among them bulk work that uses the whole rate limit, and stops it. Under a minute. No account, no
// credits, no network beyond loopback.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const bin = fileURLToPath(new URL('../bin/creators.js', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'creators-demo-'));
const env = { ...process.env, CREATORS_CONFIG_DIR: configDir };
delete env.CREATORS_API_KEY;
delete env.CREATORS_BASE_URL;

const started = performance.now();
// CREATORS_DEMO_LATENCY=none: the demo's test, which checks what it shows, not how long it takes.
const latency = process.env.CREATORS_DEMO_LATENCY ?? 'real';
const server = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--seed', '7', '--latency', latency], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise((resolve, reject) => {
  const rl = createInterface({ input: server.stdout });
  rl.once('line', (line) => resolve(line));
  server.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
});
const { base_url: baseUrl, api_key: apiKey } = JSON.parse(first);
const runEnv = { ...env, CREATORS_BASE_URL: baseUrl, CREATORS_API_KEY: apiKey, COLUMNS: '110' };

const run = (args) => spawnSync(process.execPath, [bin, ...args], { env: runEnv, encoding: 'utf8' });
const handlesCsv = join(configDir, 'handles.csv');
const enrichedCsv = join(configDir, 'enriched.csv');
// Every command the demo runs is shown, set-up included: what it costs is in `spend` and `credits` below.
const shown = (file) => file.slice(configDir.length + 1);
const csvSummary = (file) => () => {
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const cut = (line) => (line.length > 100 ? `${line.slice(0, 99)}…` : line);
  return `${shown(file)}: ${lines.length - 1} rows; the first three (lines cut at 100 characters):\n${lines.slice(0, 4).map(cut).join('\n')}`;
};

// [args, expected exit code, what to show after it (for a command whose output is a file)]
const commands = [
  [['credits'], 0],
  // 40 handles for the bulk enrichment below, at the real latency guess (2 s ± 1 a request): ~9 s at 300/min.
  [
    ['search', '--platform', 'instagram', '--limit', '40', '--fields', 'profile.username', '-o', handlesCsv],
    0,
    csvSummary(handlesCsv),
  ],
  [
    [
      'search',
      '--platform',
      'instagram',
      '--min-followers',
      '10000',
      '--filter',
      'engagement_percent.min=3',
      '--limit',
      '5',
      '--format',
      'csv',
      '--fields',
      'profile.username,profile.full_name,profile.followers,profile.engagement_percent',
    ],
    0,
  ],
  [
    [
      'search',
      '--platform',
      'youtube',
      '--query',
      'fitness creators in Spain',
      '--limit',
      '3',
      '--fields',
      'profile.username,profile.followers',
      '--format',
      'jsonl',
    ],
    0,
  ],
  [['search', '--platform', 'tiktok', '--all', '--max-results', '120', '--dry-run'], 0],
  [
    [
      'similar',
      'omarcloset',
      '--platform',
      'instagram',
      '--limit',
      '3',
      '--fields',
      'profile.username,similarity_score',
      '--format',
      'csv',
    ],
    0,
  ],
  [
    [
      'enrich',
      'handle',
      'omarcloset',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--fields',
      'handle,status,credits_cost',
      '--json',
    ],
    0,
  ],
  [
    [
      'posts',
      'omarcloset',
      '--platform',
      'instagram',
      '--format',
      'csv',
      '--fields',
      'created_at,type,engagement.likes,post_url',
    ],
    0,
  ],
  // Bulk: rows in flight sized from the rate limit and the latency seen; pages fetched several at once.
  [
    ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', handlesCsv, '-o', enrichedCsv],
    0,
    csvSummary(enrichedCsv),
  ],
  // Never pay twice: the same rows again, to another file, come from the store at 0 credits.
  [
    [
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      handlesCsv,
      '-o',
      join(configDir, 'again.csv'),
    ],
    0,
  ],
  [['spend', '--by', 'command', '--format', 'csv'], 0],
  [
    [
      'search',
      '--platform',
      'instagram',
      '--all',
      '--max-results',
      '500',
      '--fields',
      'profile.username',
      '--format',
      'jsonl',
    ],
    0,
  ],
  [['dict', 'languages', '--limit', '5', '--format', 'csv'], 0],
  [['auth', 'status', '--fields', 'base_url,credential_source,live_check,credits_available', '--json'], 0],
  [['credits', '--json'], 0],
  // A deliberate usage error, to show the message and exit code 2: nothing is sent.
  [['search', '--platform', 'myspace'], 2],
];

let failures = 0;
console.log(
  `Sandbox running at ${baseUrl} with --latency ${latency}${latency === 'real' ? ' (a guess: searches ~1.2 s, enrichments ~2 s)' : ''}\n`,
);
const MAX_LINES = 16;
for (const [args, expected, after] of commands) {
  console.log(
    `$ creators ${args.map((a) => (a.startsWith(configDir) ? shown(a) : /[\s,=]/.test(a) && !a.startsWith('--') ? `'${a}'` : a)).join(' ')}`,
  );
  const t0 = performance.now();
  const res = run(args);
  const took = ((performance.now() - t0) / 1000).toFixed(1);
  const lines = res.stdout.trimEnd().split('\n');
  if (res.stdout.trim()) process.stdout.write(lines.slice(0, MAX_LINES).join('\n') + '\n');
  if (lines.length > MAX_LINES)
    console.log(`  (... ${lines.length - MAX_LINES} more lines of stdout, ${lines.length} in all, not shown here)`);
  if (res.stderr.trim()) process.stdout.write(res.stderr.trimEnd().replace(/^/gm, '  (stderr) ') + '\n');
  if (after && res.status === 0) console.log(after().replace(/^/gm, '  (file) '));
  console.log(`  (exit ${res.status}, ${took} s)\n`);
  if (res.status !== expected) failures += 1;
}
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(configDir, { recursive: true, force: true });
if (failures > 0) {
  console.error(`demo: ${failures} command(s) did not exit as expected`);
  process.exit(1);
}
console.log(
  `Demo finished in ${((performance.now() - started) / 1000).toFixed(1)} s: every command exited as expected.`,
);
