import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { csvObjects } from '../commands/enrich/helpers.js';
import { tempDir } from '../helpers/temp.js';

/**
 * End-to-end (run `npm run build` first): 32 rows at once, each enrichment answer held 400 ms by the
 * sandbox's latency model and the rest waiting at the pacer (600/min), print no Node internals on
 * stderr: no MaxListenersExceededWarning from the run's one abort signal (every waiter listens on it),
 * no descriptor closed by the garbage collector.
 */
const sb = useSandbox({ seed: 17, credits: 1000, latency: 'enrich=400ms,default=0' });

describe('a bulk run with 32 requests in flight', () => {
  it('stderr holds no Node warning, every row is enriched', async () => {
    const names = sb
      .get()
      .state.creators.list('instagram')
      .slice(100, 148)
      .map((c) => c.profile.username);
    const dir = tempDir('creators-e2e-inflight-');
    writeFileSync(join(dir, 'in.csv'), `handle\n${names.join('\n')}\n`);
    const env = {
      ...sandboxEnv(sb.get()),
      CREATORS_CONFIG_DIR: tempDir('creators-e2e-cfg-'),
      CREATORS_RATE_LIMIT: '600',
    };
    const res = await spawnCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--concurrency',
        '32',
        '--input',
        join(dir, 'in.csv'),
        '-o',
        join(dir, 'out.csv'),
      ],
      env,
      undefined,
      60_000,
    );
    expect(res.stderr).not.toMatch(/Warning|MaxListeners|file descriptor/);
    expect(res.code).toBe(0);
    expect(csvObjects(readFileSync(join(dir, 'out.csv'), 'utf8')).map((r) => r.status)).toEqual(names.map(() => 'ok'));
  }, 90_000);
});
