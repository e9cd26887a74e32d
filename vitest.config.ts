import { defineConfig } from 'vitest/config';
import { SLOW_GLOBS, SLOW_INCLUDE } from './test/tiers.js';

// Two projects that split the suite (test/tiers.ts): `vitest run` runs both, `--project fast` the fast one.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
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
