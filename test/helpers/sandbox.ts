import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export type StartedSandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Starts a sandbox on a random port for the current test file and stops it afterwards. */
export function useSandbox(options: SandboxOptions = {}): { get(): StartedSandbox } {
  let sandbox: StartedSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return {
    get() {
      if (!sandbox) throw new Error('sandbox not started');
      return sandbox;
    },
  };
}

/** Environment pointing the CLI at a sandbox. */
export function sandboxEnv(sandbox: StartedSandbox, extra: Record<string, string> = {}): Record<string, string> {
  return { CREATORS_BASE_URL: sandbox.url, CREATORS_API_KEY: sandbox.apiKey, ...extra };
}

/**
 * n handles of the sandbox's own creators on a platform, from index `from` (cycling past the end):
 * handles that batch and single enrichment both find (made-up handles are not found, and free).
 */
export function creatorHandles(
  sandbox: StartedSandbox,
  n: number,
  from = 0,
  platform: 'instagram' | 'youtube' | 'tiktok' | 'twitter' | 'twitch' | 'onlyfans' = 'instagram',
): string[] {
  const list = sandbox.state.creators.list(platform);
  return Array.from({ length: n }, (_, i) => list[(from + i) % list.length]!.profile.username);
}
