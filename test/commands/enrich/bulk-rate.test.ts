/**
 * A few hundred handles from a CSV against the sandbox with a lowered rate limit, paced for real.
 *
 * The sandbox throttles on a sliding 60 s window, so a test that wants pacing to matter must send
 * more requests than the window allows, which takes minutes of real time. Both sides therefore run
 * on one clock that goes SPEED times faster than the wall clock: the sandbox reads it, and the CLI
 * reads it and sleeps for real, scaled down by SPEED. 240 rows at 115/min (the sandbox allows 120)
 * is two full windows of scaled time in about 5 s; without pacing the run would get 429s after the
 * 120th request. The client runs a little under the server's limit because, scaled 25 times, the
 * pacer's own 2 % margin is only ~50 real ms, which a stalled event loop on a busy CI machine could
 * eat; at the real 300/min that margin is 1.2 s.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { realSleep, type Deps } from '../../../src/app/deps.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import { tempConfigDir } from '../../helpers/run-cli.js';
import { csvObjects } from './helpers.js';
import { tempDir } from '../../helpers/temp.js';

const SPEED = 25;
const ROWS = 240;
const origin = Date.now();
const clock = (): number => origin + (Date.now() - origin) * SPEED;

let sb: Sandbox;
let throttled = 0;
let requests = 0;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 8,
    credits: 1000,
    rateLimit: 120,
    now: clock,
    log: (line) => {
      if (!line.startsWith('POST /public/v1/creators/enrich/')) return;
      requests++;
      if (/ 429 /.test(line)) throttled++;
    },
  });
});
afterAll(() => sb.close());

it(`enriches ${ROWS} handles from a CSV paced under the limit: all rows once, in order, no 429, charges = successful rows`, async () => {
  const creators = sb.state.creators.list('instagram');
  // Every tenth row is a handle the sandbox does not know: not_found, free.
  const handles = Array.from({ length: ROWS }, (_, i) =>
    i % 10 === 9 ? `missing_${i}` : creators[i]!.profile.username,
  );
  const dir = tempDir('creators-rate-');
  writeFileSync(join(dir, 'in.csv'), `row,handle\n${handles.map((h, i) => `${i},${h}`).join('\n')}\n`);

  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const deps: Deps = {
    io: {
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      stderr,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
    },
    env: {
      HOME: '/nonexistent-home',
      CREATORS_BASE_URL: sb.url,
      CREATORS_API_KEY: sb.apiKey,
      CREATORS_RATE_LIMIT: '115',
    },
    cwd: dir,
    now: clock,
    sleep: (ms, signal) => realSleep(ms / SPEED, signal),
    configDir: tempConfigDir(),
  };
  const code = await main(
    [
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      'in.csv',
      '-o',
      'out.csv',
      '--concurrency',
      '6',
    ],
    deps,
  );
  expect(err).toBe('');
  expect(code).toBe(0);

  const rows = csvObjects(readFileSync(join(dir, 'out.csv'), 'utf8'));
  expect(rows.map((r) => r.row)).toEqual(handles.map((_, i) => String(i)));
  expect(rows.map((r) => r.handle)).toEqual(handles);
  expect(rows.filter((r) => r.status === 'not_found')).toHaveLength(ROWS / 10);
  expect(rows.filter((r) => r.status === 'ok')).toHaveLength(ROWS - ROWS / 10);

  expect(throttled).toBe(0);
  expect(requests).toBe(ROWS);
  const paid = rows.reduce((sum, r) => sum + Math.round(Number(r.credits_cost) * 1000), 0);
  expect(sb.state.ledger.usedMilli).toBe(paid);
  expect(sb.state.ledger.charges).toHaveLength(ROWS - ROWS / 10);
  // More requests than one window allows were sent: pacing, not a generous limit, kept 429s away.
  expect(requests).toBeGreaterThan(sb.state.config.rateLimit);
});
