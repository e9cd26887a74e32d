#!/usr/bin/env node
// `npm test`: build, then the whole suite. The team-store tests need a PostgreSQL server (and PgBouncer in front
// of it): when the caller gave none (CREATORS_TEST_PG_URL, CREATORS_TEST_PGBOUNCER_URL) and the servers are
// installed, a throwaway cluster is started for this run on a free loopback port and removed at the end,
// whatever happens; when they are not installed, the run says how to install them (those tests then skip,
// naming the reason). Arguments go to vitest: `npm test -- test/e2e`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmdirSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stderr.write(`${line}\n`);

function installed(command, debianDir) {
  if (
    debianDir &&
    existsSync(debianDir) &&
    readdirSync(debianDir).some((v) => existsSync(join(debianDir, v, 'bin', command)))
  )
    return true;
  return (
    spawnSync('sh', ['-c', `command -v ${command} || test -x /usr/sbin/${command}`], { stdio: 'ignore' }).status === 0
  );
}

/** Runs one of the test-server scripts; its stdout (a URL) or undefined when it failed (its stderr shown). */
function server(script, args) {
  const r = spawnSync('bash', [join(root, 'scripts', script), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const env = { ...process.env };
const stops = [];
const freshDir = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  rmdirSync(dir); // the scripts make it with the owner and mode they need
  return dir;
};
const stopAll = () => {
  for (const stop of stops.splice(0).reverse()) stop();
};

if (!env.CREATORS_TEST_PG_URL) {
  if (installed('initdb', '/usr/lib/postgresql')) {
    const dir = freshDir('creators-test-pg.');
    const url = server('pg-test-server.sh', ['start', dir]);
    if (url) {
      stops.push(() => server('pg-test-server.sh', ['stop', dir]));
      env.CREATORS_TEST_PG_URL = url;
      say(`== a throwaway PostgreSQL for the team-store tests on ${url.replace(/\/\/([^:@/]+):[^@]*@/, '//$1@')}`);
    } else {
      say('== PostgreSQL is installed but a test cluster did not start (above): the team-store tests are skipped.');
    }
  } else {
    say('== PostgreSQL is not installed: the team-store tests are skipped (each says so). To run them:');
    say('   sudo apt-get install postgresql pgbouncer   (Debian, Ubuntu; or export CREATORS_TEST_PG_URL=<admin URL>)');
  }
}
if (env.CREATORS_TEST_PG_URL && !env.CREATORS_TEST_PGBOUNCER_URL) {
  if (installed('pgbouncer')) {
    const dir = freshDir('creators-test-pgbouncer.');
    const url = server('pgbouncer-test-server.sh', ['start', dir, env.CREATORS_TEST_PG_URL]);
    if (url) {
      stops.push(() => server('pgbouncer-test-server.sh', ['stop', dir]));
      env.CREATORS_TEST_PGBOUNCER_URL = url;
      say(`== PgBouncer (transaction pooling) in front of it on ${url.replace(/\/\/([^:@/]+):[^@]*@/, '//$1@')}`);
    }
  } else {
    say('== PgBouncer is not installed: its tests are skipped (sudo apt-get install pgbouncer).');
  }
}

const vitest = spawn(
  process.execPath,
  [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  { stdio: 'inherit', env },
);
// Ctrl-C reaches vitest through the terminal's process group; the servers are stopped once it has gone.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => vitest.kill(signal));
vitest.on('exit', (code, signal) => {
  stopAll();
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
