#!/usr/bin/env node
// `npm run demo`: starts the embedded sandbox on a free port, runs a few real commands against it
// with visible output, and stops it. No account, no credits, no network beyond loopback.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const bin = fileURLToPath(new URL('../bin/creators.js', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'creators-demo-'));
const env = { ...process.env, CREATORS_CONFIG_DIR: configDir };
delete env.CREATORS_API_KEY;
delete env.CREATORS_BASE_URL;

const server = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--seed', '7'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((resolve, reject) => {
  const rl = createInterface({ input: server.stdout });
  rl.once('line', (line) => resolve(line));
  server.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
});
const { base_url: baseUrl, api_key: apiKey } = JSON.parse(first);
const runEnv = { ...env, CREATORS_BASE_URL: baseUrl, CREATORS_API_KEY: apiKey, COLUMNS: '110' };

const commands = [
  ['credits'],
  ['credits', '--json'],
  ['auth', 'status'],
  ['dict', 'languages', '--limit', '5'],
  ['dict', 'locations', '--platform', 'instagram', '--search', 'new', '--limit', '5', '--format', 'csv'],
  ['dict', 'brands', '--search', 'nike', '--limit', '3', '--json'],
  ['api', 'discovery/classifier/niche', '--fields', 'name', '--format', 'jsonl'],
  ['dict', 'locations'],
];

let failures = 0;
console.log(`Sandbox running at ${baseUrl}\n`);
for (const args of commands) {
  console.log(`$ creators ${args.join(' ')}`);
  const res = spawnSync(process.execPath, [bin, ...args], { env: runEnv, encoding: 'utf8' });
  process.stdout.write(res.stdout.split('\n').slice(0, 14).join('\n').trimEnd() + '\n');
  if (res.stderr.trim()) process.stdout.write(res.stderr.trimEnd().replace(/^/gm, '  (stderr) ') + '\n');
  console.log(`  (exit ${res.status})\n`);
  // The last command is a deliberate usage error, to show the message and exit code 2.
  const expected = args[0] === 'dict' && args[1] === 'locations' && args.length === 2 ? 2 : 0;
  if (res.status !== expected) failures += 1;
}
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(configDir, { recursive: true, force: true });
if (failures > 0) {
  console.error(`demo: ${failures} command(s) did not exit as expected`);
  process.exit(1);
}
console.log('Demo finished: every command exited as expected.');
