#!/usr/bin/env node
// `npm run demo`: starts the embedded sandbox on a free port, answering about as slowly as the real
// service might (`--latency real`, a guess), runs a few real commands against it with visible output,
// among them bulk work that uses the whole rate limit, and stops it. Under a minute. No account, no
// credits, no network beyond loopback.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const server = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--seed', '7', '--latency', 'real'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((resolve, reject) => {
  const rl = createInterface({ input: server.stdout });
  rl.once('line', (line) => resolve(line));
  server.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
});
const { base_url: baseUrl, api_key: apiKey } = JSON.parse(first);
const runEnv = { ...env, CREATORS_BASE_URL: baseUrl, CREATORS_API_KEY: apiKey, COLUMNS: '110' };

const run = (args) => spawnSync(process.execPath, [bin, ...args], { env: runEnv, encoding: 'utf8' });
// A real handle from the sandbox's synthetic creators, for the enrichment step.
const found = JSON.parse(run(['search', '--platform', 'instagram', '--min-followers', '50000', '--limit', '1', '--json', '--quiet']).stdout);
const handle = found[0]?.profile?.username ?? 'nasa';
// 40 handles for a bulk enrichment at the real latency guess (2 s ± 1 a request): ~9 s at 300/min.
const many = JSON.parse(run(['search', '--platform', 'instagram', '--limit', '40', '--json', '--quiet']).stdout).map((c) => c.profile.username);
const handlesCsv = join(configDir, 'handles.csv');
writeFileSync(handlesCsv, `handle\n${many.join('\n')}\n`);
const enrichedCsv = join(configDir, 'enriched.csv');

// [args, expected exit code]
const commands = [
  [['credits'], 0],
  [['search', '--platform', 'instagram', '--min-followers', '10000', '--filter', 'engagement_percent.min=3', '--limit', '5', '--format', 'csv',
    '--fields', 'profile.username,profile.full_name,profile.followers,profile.engagement_percent'], 0],
  [['search', '--platform', 'youtube', '--query', 'fitness creators in Spain', '--limit', '3', '--fields', 'profile.username,profile.followers', '--format', 'jsonl'], 0],
  [['search', '--platform', 'tiktok', '--all', '--max-results', '120', '--dry-run'], 0],
  [['similar', handle, '--platform', 'instagram', '--limit', '3', '--fields', 'profile.username,similarity_score', '--format', 'csv'], 0],
  [['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw', '--fields', 'handle,status,credits_cost', '--json'], 0],
  [['posts', handle, '--platform', 'instagram', '--format', 'csv', '--fields', 'created_at,type,engagement.likes,post_url'], 0],
  // Bulk: rows in flight sized from the rate limit and the latency seen; pages fetched several at once.
  [['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', handlesCsv, '-o', enrichedCsv], 0],
  // Never pay twice: the same rows again, to another file, come from the store at 0 credits.
  [['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', handlesCsv, '-o', join(configDir, 'again.csv')], 0],
  [['spend', '--by', 'command'], 0],
  [['search', '--platform', 'instagram', '--all', '--max-results', '500', '--fields', 'profile.username', '--format', 'jsonl'], 0],
  [['dict', 'languages', '--limit', '5', '--format', 'csv'], 0],
  [['auth', 'status', '--fields', 'base_url,credential_source,live_check,credits_available', '--json'], 0],
  [['credits', '--json'], 0],
  // A deliberate usage error, to show the message and exit code 2: nothing is sent.
  [['search', '--platform', 'myspace'], 2],
];

let failures = 0;
console.log(`Sandbox running at ${baseUrl} with --latency real (a guess: searches ~1.2 s, enrichments ~2 s)\n`);
for (const [args, expected] of commands) {
  console.log(`$ creators ${args.map((a) => (a.startsWith(configDir) ? a.slice(configDir.length + 1) : /[\s,=]/.test(a) && !a.startsWith('--') ? `'${a}'` : a)).join(' ')}`);
  const t0 = performance.now();
  const res = run(args);
  const took = ((performance.now() - t0) / 1000).toFixed(1);
  if (res.stdout.trim()) process.stdout.write(res.stdout.split('\n').slice(0, 16).join('\n').trimEnd() + '\n');
  if (res.stderr.trim()) process.stdout.write(res.stderr.trimEnd().replace(/^/gm, '  (stderr) ') + '\n');
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
console.log(`Demo finished in ${((performance.now() - started) / 1000).toFixed(1)} s: every command exited as expected.`);
