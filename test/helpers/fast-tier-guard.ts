/**
 * Set-up of every fast-tier file (vitest.config.ts): any child_process call throws, so a fast test that
 * starts a process (itself, or through the code it drives: a pager, a browser, the built CLI) fails
 * saying where it belongs, instead of slowing the tier down unseen. Restored after the file, in case the
 * worker goes on to run a slow-tier file.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterAll } from 'vitest';

const SPAWNERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

const childProcess = createRequire(import.meta.url)('node:child_process') as Record<string, unknown>;
const originals = new Map(SPAWNERS.map((name) => [name, childProcess[name]]));

for (const name of SPAWNERS) {
  childProcess[name] = (command: unknown) => {
    throw new Error(
      `child_process.${name}(${JSON.stringify(command)}) in a fast-tier test: the fast tier starts no process; list the file in SLOW_TESTS (test/tiers.ts) with the reason`,
    );
  };
}
syncBuiltinESMExports();

afterAll(() => {
  for (const [name, fn] of originals) childProcess[name] = fn;
  syncBuiltinESMExports();
});
