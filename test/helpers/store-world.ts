import { afterEach } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { ledgerMark } from '../reliability/helpers.js';
import { runCli, tempConfigDir, type RunOptions } from './run-cli.js';
import { sandboxEnv } from './sandbox.js';
import { screen } from './screen.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/**
 * A sandbox of its own and a config directory (so a store) of its own, shared by the runs of one test;
 * closed after each test. `run` returns stderr as a terminal shows it (a progress line erased in place
 * before the summary is gone).
 */
export function useStoreWorlds(seed: number) {
  const open: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (options: Parameters<typeof startSandbox>[0] = {}) => {
    const sandbox = await startSandbox({ port: 0, seed, ...options });
    open.push(sandbox);
    const configDir = tempConfigDir();
    const run = async (argv: string[], extra: RunOptions = {}) => {
      const res = await runCli(argv, { env: sandboxEnv(sandbox), configDir, ...extra });
      return { ...res, stderr: screen(res.stderr).join('\n') };
    };
    return { sandbox, configDir, run, mark: () => ledgerMark(sandbox) };
  };
}
