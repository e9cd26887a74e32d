import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

/** End-to-end: the built bin/creators.js (run `npm run build` first) against the sandbox. */
const sb = useSandbox({ seed: 31 });
const env = () => ({ ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: tempDir('creators-e2e-disc-') });

describe('discovery commands through bin/creators.js', () => {
  it('search --all -o file.csv: streamed to an atomic CSV, charged exactly what was returned', async () => {
    const dir = tempDir('creators-disc-out-');
    const before = sb.get().state.ledger.usedMilli;
    const res = await spawnCli(
      ['search', '--platform', 'instagram', '--max-results', '60', '-o', join(dir, 'out.csv')],
      env(),
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\n');
    expect(lines[0]).toContain('profile.username');
    expect(lines).toHaveLength(61);
    expect(readdirSync(dir)).toEqual(['out.csv']);
    // 2 pages of 30: exactly the 60 asked for returned, charged and written.
    expect(sb.get().state.ledger.usedMilli - before).toBe(600);
  });

  it('with an explicit --limit, exactly --max-results are bought and written (the last request is smaller)', async () => {
    const dir = tempDir('creators-disc-out-');
    const before = sb.get().state.ledger.usedMilli;
    const res = await spawnCli(
      ['search', '--platform', 'instagram', '--max-results', '60', '--limit', '25', '-o', join(dir, 'out.csv')],
      env(),
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\n')).toHaveLength(61);
    expect(sb.get().state.ledger.usedMilli - before).toBe(600);
  });

  it('exclusions round trip, then search leaves the handles out', async () => {
    const e = env();
    const first = JSON.parse((await spawnCli(['search', '--platform', 'twitch', '--limit', '3'], e)).stdout) as {
      profile: { username: string };
    }[];
    const handles = first.map((a) => a.profile.username);
    const add = await spawnCli(['exclusions', 'add', 'default:twitch', '--file', '-'], e, handles.join('\n'));
    expect(add.code).toBe(0);
    const res = await spawnCli(['search', '--platform', 'twitch', '--limit', '3', '--exclude-default-list'], e);
    const got = (JSON.parse(res.stdout) as { profile: { username: string } }[]).map((a) => a.profile.username);
    for (const h of handles) expect(got).not.toContain(h);
  });

  it('a refused check is exit 2 with one line on stderr', async () => {
    const res = await spawnCli(['search', '--platform', 'twitch', '--sort', 'growth_rate'], env());
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.split('\n')[0]).toBe('error: Sorting by growth_rate is not available on twitch.');
  });
});
