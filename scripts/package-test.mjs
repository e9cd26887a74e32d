#!/usr/bin/env node
// The package as users install it (`.ci/run`, after the suite): `npm pack`, then a global install of the
// tarball into an empty prefix with npm, and again with pnpm (whose default runs no dependency's install
// script: the store's libsql binding must work from its prebuilt package alone). Each install then runs a
// smoke set in an environment holding only PATH (the prefix's bin, this Node, /usr/bin:/bin) and HOME (an
// empty folder), as `env -i` gives, from a folder outside the repository: a sandbox started from the
// installed package, a search, a bulk enrichment from that search's CSV, the store (stats after the paid
// commands, then the same enrichment answered from it at 0 credits), completion and a help topic.
//
// Budgets: tarball under 1 MB, unpacked under 3.8 MB, each install under 10 s (a fresh package cache, so
// the time includes downloading the dependencies, as on a user's first install). The unpacked budget was 3 MB
// until `creators mcp`: the MCP SDK and the zod it needs are bundled (0.7 MB, loaded by that command alone),
// rather than installed with express, hono and ajv beside them.
//
//   node scripts/package-test.mjs            (PACKAGE_TEST_PNPM=pnpm@10 to try another pnpm)
// Exit 0 when every check passes; otherwise one line per failure, the temp folder kept for a look, exit 1.
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET = { tarballBytes: 1_000_000, unpackedBytes: 3_800_000, installMs: 10_000 };
const PNPM = process.env.PACKAGE_TEST_PNPM ?? 'pnpm@12';

const root = fileURLToPath(new URL('..', import.meta.url));
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const tmp = mkdtempSync(join(tmpdir(), 'creators-package-'));
const failures = [];
const figures = {};

function log(line) {
  process.stderr.write(`package-test: ${line}\n`);
}

function check(ok, what) {
  if (!ok) {
    failures.push(what);
    log(`FAIL ${what}`);
  }
  return ok;
}

/** Runs a command to completion; throws (one line) when it cannot start or exits non-zero, unless allowed. */
function run(cmd, args, options = {}) {
  const started = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  const ms = performance.now() - started;
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0 && !options.allowFail) {
    throw new Error(
      `${cmd} ${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`,
    );
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms };
}

/** Bytes of every file under dir, each inode once (pnpm hard-links from its store). */
function treeBytes(dir, seen = new Set()) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const st = lstatSync(path);
    if (seen.has(st.ino)) continue;
    seen.add(st.ino);
    total += entry.isDirectory() ? treeBytes(path, seen) : st.size;
  }
  return total;
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The clean environment of a smoke run: PATH and HOME only, plus the sandbox's URL and key once known. */
function cleanEnv(bin, home, extra = {}) {
  return { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, ...extra };
}

/** Starts `creators sandbox` from the installed package; resolves its base URL and key from its JSON line. */
function startSandbox(env, cwd) {
  const child = spawn('creators', ['sandbox'], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`creators sandbox printed no URL within 20 s: ${err.trim()}`));
    }, 20_000);
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      try {
        resolve({ child, ...JSON.parse(out.slice(0, newline)) });
      } catch {
        child.kill();
        reject(new Error(`creators sandbox printed ${JSON.stringify(out.slice(0, newline))}, not its JSON line`));
      }
    });
    child.on('error', (e) => reject(new Error(`creators sandbox: ${e.message}`)));
    child.on('exit', (code) =>
      reject(new Error(`creators sandbox exited ${code} before printing its URL: ${err.trim()}`)),
    );
  });
}

/** The smoke set against one installed copy, whose `creators` is in bin. */
async function smoke(label, bin) {
  const home = join(tmp, `smoke-${label}-home`);
  const work = join(tmp, `smoke-${label}-work`);
  mkdirSync(home);
  mkdirSync(work);
  const bare = cleanEnv(bin, home);
  const which = run('sh', ['-c', 'command -v creators'], { env: bare, cwd: work, allowFail: true });
  check(
    which.stdout.trim().startsWith(bin),
    `${label}: creators on PATH is ${which.stdout.trim() || 'missing'}, not the installed one in ${bin}`,
  );

  const v = run('creators', ['--version'], { env: bare, cwd: work, allowFail: true });
  check(
    v.code === 0 && v.stdout.trim() === version,
    `${label}: creators --version printed '${v.stdout.trim()}' (exit ${v.code}), expected ${version}`,
  );

  const help = run('creators', ['help', 'filters'], { env: bare, cwd: work, allowFail: true });
  check(
    help.code === 0 && help.stdout.includes('Discovery filter keys'),
    `${label}: creators help filters exited ${help.code}: ${help.stderr.trim()}`,
  );

  const completion = run('creators', ['completion', 'bash'], { env: bare, cwd: work, allowFail: true });
  if (
    check(
      completion.code === 0 && completion.stdout.length > 1000,
      `${label}: creators completion bash exited ${completion.code} with ${completion.stdout.length} bytes`,
    )
  ) {
    // The script must be bash that registers a completion for creators (bash itself is a test tool, not required).
    writeFileSync(join(work, 'creators.bash'), completion.stdout);
    const sourced = run('bash', ['-c', 'source ./creators.bash && complete -p creators'], {
      env: bare,
      cwd: work,
      allowFail: true,
    });
    check(
      sourced.code === 0 && sourced.stdout.includes('creators'),
      `${label}: the bash completion script did not register: ${sourced.stderr.trim()}`,
    );
  }

  const sandbox = await startSandbox(bare, work);
  try {
    const env = cleanEnv(bin, home, { CREATORS_BASE_URL: sandbox.base_url, CREATORS_API_KEY: sandbox.api_key });
    const cli = (args) => run('creators', args, { env, cwd: work, allowFail: true });
    const credits = () => JSON.parse(cli(['credits', '--json']).stdout).credits_used;

    const search = cli(['search', '--platform', 'instagram', '--limit', '5', '-o', 'top5.csv']);
    const rows = search.code === 0 ? readFileSync(join(work, 'top5.csv'), 'utf8').trim().split('\n') : [];
    check(
      search.code === 0 && rows.length === 6,
      `${label}: search exited ${search.code} with ${rows.length} CSV lines (expected a header and 5 rows): ${search.stderr.trim()}`,
    );

    // Bulk enrichment from the search's own CSV (its profile.username column).
    const enrich = cli([
      'enrich',
      'handle',
      '--input',
      'top5.csv',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--format',
      'jsonl',
      '-o',
      'enriched.jsonl',
    ]);
    const enriched =
      enrich.code === 0
        ? readFileSync(join(work, 'enriched.jsonl'), 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
        : [];
    check(
      enrich.code === 0 && enriched.length === 5 && enriched.every((r) => r.status === 'ok'),
      `${label}: enrich handle --input exited ${enrich.code} with ${enriched.length} rows (${[...new Set(enriched.map((r) => r.status))].join(', ')}): ${enrich.stderr.trim()}`,
    );

    // The store (libsql's native binding, installed without install scripts under pnpm).
    const stats = cli(['store', 'stats', '--json']);
    const held = stats.code === 0 ? JSON.parse(stats.stdout) : undefined;
    check(
      held?.engine === 'sqlite' && held.answers.creator.count === 5 && held.answers.page.count === 1,
      `${label}: store stats exited ${stats.code}: ${stats.code === 0 ? JSON.stringify(held.answers) : stats.stderr.trim()}`,
    );
    const before = credits();
    const again = cli([
      'enrich',
      'handle',
      '--input',
      'top5.csv',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--format',
      'jsonl',
      '-o',
      'again.jsonl',
    ]);
    const after = credits();
    check(
      again.code === 0 && after === before && /from the store/.test(again.stderr),
      `${label}: the same enrichment again exited ${again.code}, credits used ${before} -> ${after} (expected unchanged, answered from the store): ${again.stderr.trim()}`,
    );

    // The team store (the bundled PostgreSQL driver), when .ci/run gives a server: migrate a database of
    // its own, push the local store into it, and a second "machine" then buys none of it.
    const admin = process.env.CREATORS_TEST_PG_URL;
    if (admin) {
      const db = `creators_package_${label}_${process.pid}`;
      const url = new URL(admin);
      url.pathname = `/${db}`;
      const createdb = run(
        process.execPath,
        [
          '-e',
          `const {Client}=require(${JSON.stringify(join(root, 'node_modules/pg'))});const c=new Client({connectionString:process.argv[1]});c.connect().then(()=>c.query('CREATE DATABASE ${db}')).then(()=>c.end(),(e)=>{console.error(e.message);process.exit(1)})`,
          admin,
        ],
        { allowFail: true },
      );
      if (
        check(
          createdb.code === 0,
          `${label}: could not create database ${db} on the test server: ${createdb.stderr.trim()}`,
        )
      ) {
        const team = (args, extra = {}) =>
          run('creators', args, { env: { ...env, CREATORS_STORE: url.href, ...extra }, cwd: work, allowFail: true });
        const migrate = team(['store', 'migrate', '--json']);
        const push = team(['store', 'push', '--json']);
        const pushed = push.code === 0 ? JSON.parse(push.stdout) : undefined;
        check(
          migrate.code === 0 && pushed?.answers.added === 6,
          `${label}: team store migrate/push exited ${migrate.code}/${push.code}: ${migrate.stderr.trim()} ${push.stderr.trim()}`,
        );
        const teamBefore = credits();
        const other = team(
          [
            'enrich',
            'handle',
            '--input',
            'top5.csv',
            '--platform',
            'instagram',
            '--mode',
            'raw',
            '--format',
            'jsonl',
            '-o',
            'team.jsonl',
          ],
          { HOME: join(home, 'other-machine') },
        );
        check(
          other.code === 0 && credits() === teamBefore,
          `${label}: another machine on the team store exited ${other.code} and paid ${credits() - teamBefore}: ${other.stderr.trim()}`,
        );
        check(
          !`${migrate.stdout}${push.stdout}${other.stderr}`.includes(decodeURIComponent(url.password)),
          `${label}: the team store's password was printed`,
        );
      }
    }
  } finally {
    const exited = new Promise((resolve) => sandbox.child.once('exit', resolve));
    sandbox.child.kill('SIGTERM');
    await exited;
  }
}

/** Packages in an npm or pnpm install's report ("added 4 packages", "resolved 4, ..."), for the figures. */
function installedCount(output) {
  const m = /added (\d+) packages?/.exec(output) ?? [...output.matchAll(/resolved (\d+)/g)].at(-1);
  return m ? Number(m[1]) : undefined;
}

async function main() {
  log(`node ${process.version}, temp ${tmp}`);
  const pack = run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: root });
  const [tarball] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
  const tgz = join(tmp, tarball.filename);
  Object.assign(figures, { tarball: tarball.size, unpacked: tarball.unpackedSize, files: tarball.entryCount });
  check(tarball.size < BUDGET.tarballBytes, `tarball is ${mb(tarball.size)}, budget ${mb(BUDGET.tarballBytes)}`);
  check(
    tarball.unpackedSize < BUDGET.unpackedBytes,
    `unpacked package is ${mb(tarball.unpackedSize)}, budget ${mb(BUDGET.unpackedBytes)}`,
  );

  // npm: a global install into an empty prefix, with an empty cache.
  const npmPrefix = join(tmp, 'npm-prefix');
  const npmInstall = run('npm', [
    'install',
    '--global',
    '--prefix',
    npmPrefix,
    '--cache',
    join(tmp, 'npm-cache'),
    '--no-audit',
    '--no-fund',
    tgz,
  ]);
  figures.npm = {
    ms: npmInstall.ms,
    packages: installedCount(npmInstall.stdout + npmInstall.stderr),
    bytes: treeBytes(join(npmPrefix, 'lib/node_modules')),
  };
  check(npmInstall.ms < BUDGET.installMs, `npm install took ${secs(npmInstall.ms)}, budget ${secs(BUDGET.installMs)}`);
  await smoke('npm', join(npmPrefix, 'bin'));

  // pnpm, itself from the npm registry (not timed); its global bin folder is $PNPM_HOME/bin (pnpm 11+) or $PNPM_HOME.
  const tool = join(tmp, 'pnpm-tool');
  run('npm', ['install', '--prefix', tool, '--no-audit', '--no-fund', '--no-save', PNPM]);
  const pnpmHome = join(tmp, 'pnpm-home');
  mkdirSync(pnpmHome);
  const pnpmEnv = {
    ...process.env,
    PNPM_HOME: pnpmHome,
    PATH: `${pnpmHome}/bin:${pnpmHome}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(tmp, 'pnpm-config'),
    XDG_CACHE_HOME: join(tmp, 'pnpm-cache'),
    XDG_DATA_HOME: join(tmp, 'pnpm-data'),
    XDG_STATE_HOME: join(tmp, 'pnpm-state'),
  };
  const pnpmVersion = run(join(tool, 'node_modules/.bin/pnpm'), ['--version'], { env: pnpmEnv }).stdout.trim();
  const pnpmInstall = run(
    join(tool, 'node_modules/.bin/pnpm'),
    ['add', '--global', '--store-dir', join(tmp, 'pnpm-store'), tgz],
    { env: pnpmEnv, cwd: tmp },
  );
  figures.pnpm = {
    version: pnpmVersion,
    ms: pnpmInstall.ms,
    packages: installedCount(pnpmInstall.stdout + pnpmInstall.stderr),
    bytes: treeBytes(pnpmHome) + treeBytes(join(tmp, 'pnpm-store')),
  };
  check(
    pnpmInstall.ms < BUDGET.installMs,
    `pnpm add --global took ${secs(pnpmInstall.ms)}, budget ${secs(BUDGET.installMs)}`,
  );
  const pnpmBin = readdirSync(join(pnpmHome, 'bin')).includes('creators') ? join(pnpmHome, 'bin') : pnpmHome;
  await smoke('pnpm', pnpmBin);

  const n = (v) => v ?? '?';
  log(
    `tarball ${mb(figures.tarball)} (budget ${mb(BUDGET.tarballBytes)}), unpacked ${mb(figures.unpacked)} (budget ${mb(BUDGET.unpackedBytes)}), ${figures.files} files`,
  );
  log(
    `npm install -g: ${n(figures.npm.packages)} packages, ${mb(figures.npm.bytes)} on disk, ${secs(figures.npm.ms)} (budget ${secs(BUDGET.installMs)})`,
  );
  log(
    `pnpm ${figures.pnpm.version} add -g: ${n(figures.pnpm.packages)} packages, ${mb(figures.pnpm.bytes)} on disk with its store, ${secs(figures.pnpm.ms)} (budget ${secs(BUDGET.installMs)})`,
  );
}

try {
  await main();
} catch (e) {
  failures.push(e.message);
  log(`FAIL ${e.message}`);
}
if (failures.length > 0) {
  log(`${failures.length} check(s) failed; files kept in ${tmp}`);
  process.exit(1);
}
rmSync(tmp, { recursive: true, force: true });
log('ok: the packed package installs with npm and pnpm and its smoke set passes');
