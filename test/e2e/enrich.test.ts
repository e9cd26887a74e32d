import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { csvObjects } from '../commands/enrich/helpers.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/until.js';

/** End-to-end: the built CLI enriching a CSV against the sandbox, and a real Ctrl-C (SIGINT). Run `npm run build` first. */
const sb = useSandbox({ seed: 13, credits: 1000 });

function workspace(rows: string[]): { dir: string; env: Record<string, string> } {
  const dir = tempDir('creators-e2e-enrich-');
  writeFileSync(join(dir, 'in.csv'), `n,handle\n${rows.map((h, i) => `${i},${h}`).join('\n')}\n`);
  return { dir, env: { ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: tempDir('creators-e2e-cfg-') } };
}

describe('enrich handle end to end', () => {
  it('CSV in, CSV file out, atomically', async () => {
    const names = sb
      .get()
      .state.creators.list('youtube')
      .slice(0, 5)
      .map((c) => c.profile.username);
    const { dir, env } = workspace([...names, 'missing_one']);
    const res = await spawnCli(
      [
        'enrich',
        'handle',
        '--platform',
        'youtube',
        '--mode',
        'profile',
        '--input',
        join(dir, 'in.csv'),
        '-o',
        join(dir, 'out.csv'),
      ],
      env,
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const rows = csvObjects(readFileSync(join(dir, 'out.csv'), 'utf8'));
    expect(rows.map((r) => r.handle)).toEqual([...names, 'missing_one']);
    expect(rows.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'not_found']);
  });

  it('many rows waiting at the pacer at once (a slow service needs up to 64 in flight) print no listener-leak warning', async () => {
    const names = sb
      .get()
      .state.creators.list('instagram')
      .slice(300, 340)
      .map((c) => c.profile.username);
    const { dir, env } = workspace(names);
    // 40 workers at 600/min: all but the pacer's burst sleep at once, each listening on the run's signal.
    const res = await spawnCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--concurrency',
        '40',
        '--input',
        join(dir, 'in.csv'),
        '-o',
        join(dir, 'out.csv'),
      ],
      { ...env, CREATORS_RATE_LIMIT: '600' },
    );
    expect(res.stderr).not.toMatch(/MaxListenersExceededWarning/);
    expect(res.code).toBe(0);
    expect(csvObjects(readFileSync(join(dir, 'out.csv'), 'utf8')).map((r) => r.status)).toEqual(names.map(() => 'ok'));
  });

  it('Ctrl-C mid-run: exit 130, the rows done so far committed in input order, no temporary file left', async () => {
    const names = sb
      .get()
      .state.creators.list('instagram')
      .slice(0, 200)
      .map((c) => c.profile.username);
    const { dir, env } = workspace(names);
    const charges = () => sb.get().state.ledger.charges.filter((c) => c.route.includes('/handle/raw/')).length;
    const before = charges();
    const child = spawn(
      process.execPath,
      [
        BIN,
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        join(dir, 'in.csv'),
        '-o',
        join(dir, 'out.csv'),
      ],
      {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, CREATORS_RATE_LIMIT: '600' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Wait (by polling the sandbox ledger) until a few rows were enriched, then interrupt.
    await until('8 rows charged', () => charges() - before >= 8);
    child.kill('SIGINT');
    const code = await exited;
    expect(code).toBe(130);
    expect(stderr).toMatch(/Interrupted: \d+ rows written/);
    const rows = csvObjects(readFileSync(join(dir, 'out.csv'), 'utf8'));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.length).toBeLessThan(200);
    expect(rows.map((r) => r.handle)).toEqual(rows.map((r) => names[Number(r.n)]));
    const order = rows.map((r) => Number(r.n));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(readdirSync(dir).sort()).toEqual(['in.csv', 'out.csv']);
  });
});
