/**
 * Another client spends the same account's limit: the sandbox answers a few 429s in a row (a fault).
 * Every worker waits the server's time together, the pace is lowered, the run completes with every row
 * paid once, and stderr says so once, not once per worker.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { csvObjects, tempFile } from './helpers.js';

const sb = useSandbox({ seed: 3, credits: 1000, faults: '429:3 POST /public/v1/creators/enrich/** after=10 count=6' });

it('a burst of 429s from elsewhere: one notice, every worker waits, the pace drops; all rows answered and paid once', async () => {
  const handles = sb
    .get()
    .state.creators.list('instagram')
    .slice(0, 40)
    .map((c) => c.profile.username);
  const { dir, path } = tempFile('in.csv', `handle\n${handles.join('\n')}\n`);
  const sleeps: number[] = [];
  const res = await runCli(
    [
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      path,
      '-o',
      `${dir}/out.csv`,
      '--concurrency',
      '8',
    ],
    {
      env: sandboxEnv(sb.get()),
      sleeps,
    },
  );
  expect(res.code).toBe(0);
  const notices = res.stderr.split('\n').filter((l) => l !== '');
  expect(notices).toEqual([
    'Rate limited (HTTP 429): Request was throttled. Expected available in 3 seconds; retrying in 3 s (attempt 2 of 4).',
    "Another client may be using this account's rate limit: every request waits, then the pace drops to 240 a minute and recovers while no 429 comes.",
  ]);
  // Every 429 was waited out (3 s each, the server's time).
  expect(sleeps.filter((ms) => ms === 3000).length).toBe(6);
  const rows = csvObjects(readFileSync(`${dir}/out.csv`, 'utf8'));
  expect(rows.map((r) => r.handle)).toEqual(handles);
  expect(rows.every((r) => r.status === 'ok')).toBe(true);
  expect(sb.get().state.ledger.charges).toHaveLength(handles.length);
});
