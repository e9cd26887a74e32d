/**
 * The suite's two tiers. `npm test` runs both (the whole suite); `npm run test:fast` runs the fast one, for
 * the edit-test loop: in-process unit tests (test/lib, test/contract and the checks at the top of test/), no
 * build, no child process, no PostgreSQL, no sandbox-driven command runs, no README or help examples.
 *
 * A test file is fast unless it is listed here, so a new file under test/lib lands in the fast tier and one
 * under test/commands or test/e2e in the slow one. A fast file that spawns a process or needs dist/ fails
 * (test/tiers.test.ts reads its imports; test/helpers/fast-tier-guard.ts makes child_process throw) until
 * it is listed here with its reason. An entry is a file or `dir/**`. `test:fast` also shares workers between
 * files (`--no-isolate`: a third of the CPU); `npm test` keeps every file in a fresh module graph.
 */
export const SLOW_TESTS: Readonly<Record<string, string>> = {
  'test/e2e/**': 'spawns the built bin/creators.js (with tmux, shells, the README and help examples)',
  'test/scripts/**': 'runs npm pack and scripts/ensure-deps.mjs as child processes',
  'test/commands/**': 'drives main() against a sandbox or mock server over loopback: seconds a file',
  'test/sandbox/**': 'drives the sandbox over loopback, whole workflows a test',
  'test/money/**': 'the credits invariants: many runs over many seeds (and the built CLI on a full disk)',
  'test/reliability/**': 'fault-injected whole runs (and the built CLI interrupted and on one lock)',
  'test/security/**': 'hostile servers and whole runs over loopback',
  'test/dry-run-walk.test.ts': 'dry-runs every command of the tree',
  'test/lib/io/atomic-file.test.ts': 'makes a FIFO with mkfifo and a dead pid with a child process',
  'test/lib/io/lock.test.ts': 'holds locks from child processes',
  'test/lib/io/heap.test.ts': "measures V8's young generation in fresh child processes",
  'test/lib/io/pager-process.test.ts': 'starts real pagers through the shell',
  'test/lib/store/engines.test.ts':
    'runs the store family on PostgreSQL too (CREATORS_TEST_PG_URL), and spawns a process for a dead pid',
  'test/lib/store/postgres.test.ts': 'needs PostgreSQL (CREATORS_TEST_PG_URL)',
  'test/lib/store/pgbouncer.test.ts':
    'needs PostgreSQL and PgBouncer (CREATORS_TEST_PGBOUNCER_URL), and drives main() against a sandbox',
  'test/lib/store/schema-parity.test.ts': 'reads the schema PostgreSQL holds (CREATORS_TEST_PG_URL)',
  'test/lib/store/pg-upgrade.test.ts':
    'upgrades real PostgreSQL databases (CREATORS_TEST_PG_URL) and drives main() against a sandbox',
  'test/lib/store/store-file-locks.test.ts': 'starts a second process that opens and closes the store',
  'test/lib/store/huge-sums.test.ts': 'runs on PostgreSQL too (CREATORS_TEST_PG_URL)',
};

/** The glob of an entry, as vitest's include/exclude take it. */
export const SLOW_GLOBS: string[] = Object.keys(SLOW_TESTS);

/** What the slow project runs: the test files of each entry (a `dir/**` entry also holds the helpers its tests import). */
export const SLOW_INCLUDE: string[] = SLOW_GLOBS.map((g) => (g.endsWith('/**') ? `${g}/*.test.ts` : g));

/** Whether a repository-relative test path is in the slow tier. */
export function isSlow(path: string): boolean {
  return SLOW_GLOBS.some((g) => (g.endsWith('/**') ? path.startsWith(g.slice(0, -2)) : path === g));
}
