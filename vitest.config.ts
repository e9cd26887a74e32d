import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SLOW_GLOBS, SLOW_INCLUDE } from './test/tiers.js';

// Two projects that split the suite (test/tiers.ts): `vitest run` runs both, `--project fast` the fast one.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most files wait (child processes, loopback servers, PostgreSQL, a sandbox's latency) far more than they
    // compute: vitest's default of one worker fewer than the cores ran the suite one file at a time on a
    // 2-core machine. Two files a core keep the cores busy (README, Tests: the figures before and after).
    maxWorkers: Math.max(2, availableParallelism() * 2),
    globalSetup: ['test/helpers/temp-root.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: SLOW_GLOBS, setupFiles: ['test/helpers/fast-tier-guard.ts'] },
      },
      { extends: true, test: { name: 'slow', include: SLOW_INCLUDE } },
    ],
  },
});
