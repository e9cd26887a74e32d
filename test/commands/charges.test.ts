/**
 * Every charge logged, every charge checked (issue 35, item 4): a `credits_cost` the route cannot charge is not
 * believed (the price table's charge is logged, with one warning naming the route and the value); batch jobs
 * enter the spend log from their own figures, once per job whatever reads them; `creators api` and `--no-store`
 * purchases are in `creators spend`; a budget refuses a batch whose worst case would pass it, before the upload.
 */
import { describe, expect, it } from 'vitest';
import { batchWorld } from '../../src/sandbox/batch/jobs.js';
import { API, JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { runCli, tempConfigDir, type RunOptions } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { useTimeZone } from '../helpers/time-zone.js';
import { tempDir, testClock, writeCsv } from './batch/helpers.js';

// Budgets count local calendar days: read in UTC here.
useTimeZone('UTC');

const clock = testClock();
const sb = useSandbox({ now: clock.now, credits: 100_000, batchRowsPerSecond: 10 });
const ledger = () => sb.get().state.ledger;

interface SpendTotal {
  day: string;
  requests: number;
  credits: number;
}

/** The spend log's total for one API, read without a credential (the log alone). */
async function loggedMilli(
  configDir: string,
  baseUrl: string,
): Promise<{ milli: number; requests: number; stderr: string }> {
  const res = await runCli(['spend', '--json'], { env: { CREATORS_BASE_URL: baseUrl }, configDir, now: clock.now });
  expect(res.code, res.stderr).toBe(0);
  const total = res.json<SpendTotal[]>().at(-1) as SpendTotal;
  return { milli: Math.round(total.credits * 1000), requests: total.requests, stderr: res.stderr };
}

const FULL_PATH = '/public/v1/creators/enrich/handle/full/';

describe('a credits_cost the route cannot charge is not believed', () => {
  // Raw JSON text: `"5e15"` is a string, 1e300 a number no route charges.
  const lies: Array<[label: string, text: string]> = [
    ['-5', '-5'],
    ['1e300', '1e300'],
    ['"5e15"', '"5e15"'],
    ['"-0.5"', '"-0.5"'],
  ];
  for (const [label, text] of lies) {
    it(`credits_cost ${label}: the price table's 1 credit is logged, and one warning names the route and the value`, async () => {
      const { agent, pool, env } = mockApi();
      const configDir = tempConfigDir();
      for (const handle of ['first_one', 'second_one']) {
        pool
          .intercept({ path: FULL_PATH, method: 'POST', body: (b) => JSON.parse(b).handle === handle })
          .reply(
            200,
            `{"result": {"instagram": {"username": "${handle}", "follower_count": 10}}, "credits_cost": ${text}}`,
            JSON_HEADERS,
          );
      }
      let stderr = '';
      for (const handle of ['first_one', 'second_one']) {
        // The first on a terminal: its summary says the charge the spend log holds, not the figure sent.
        const tty = handle === 'first_one';
        const res = await runCli(
          ['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'full', ...(tty ? [] : ['--json'])],
          { env, dispatcher: agent, configDir, now: clock.now, tty },
        );
        expect(res.code, res.stderr).toBe(0);
        if (tty) expect(res.stderr).toContain(`Enriched ${handle}: 1 credit spent.`);
        // A warning on the terminal is broken at spaces: each read as one line.
        stderr += tty ? res.stderr.replace(/\n(?!\x1b\[33mwarning:|warning:|Enriched |$)/g, ' ') : res.stderr;
      }
      // One warning a run per route: two runs, two lines, each naming the route and the value as sent.
      const warnings = stderr.split('\n').filter((l) => l.includes('credits_cost'));
      expect(warnings).toHaveLength(2);
      for (const w of warnings) {
        expect(w).toContain(`credits_cost ${label} for creators/enrich/handle/full`);
        expect(w).toContain("the price table's 1 is logged instead");
      }
      const logged = await loggedMilli(configDir, API);
      expect(logged).toMatchObject({ milli: 2000, requests: 2 });
      // The sums stay exact integers: the store's own stats read them.
      const stats = await runCli(['store', 'stats', '--json'], { env: { CREATORS_BASE_URL: API }, configDir });
      expect(stats.code, stats.stderr).toBe(0);
      expect(stats.json()).toMatchObject({
        answers: { creator: { count: 2, credits: 2 } },
        spend: { entries: 2, credits: 2 },
      });
    });
  }

  it('a discount (0, or under the price) is believed, with no warning', async () => {
    const { agent, pool, env } = mockApi();
    const configDir = tempConfigDir();
    pool
      .intercept({ path: FULL_PATH, method: 'POST' })
      .reply(200, '{"result": {"instagram": {"username": "cheap_one"}}, "credits_cost": "0.25"}', JSON_HEADERS);
    pool
      .intercept({ path: FULL_PATH, method: 'POST' })
      .reply(200, '{"result": {"instagram": {"username": "free_one"}}, "credits_cost": 0}', JSON_HEADERS);
    for (const handle of ['cheap_one', 'free_one']) {
      const res = await runCli(['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'full', '--json'], {
        env,
        dispatcher: agent,
        configDir,
        now: clock.now,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).not.toContain('credits_cost');
    }
    expect((await loggedMilli(configDir, API)).milli).toBe(250);
  });
});

describe('every charge in the spend log', () => {
  it('creators api: a paid POST without a budget is in creators spend, as the ledger charged it', async () => {
    const configDir = tempConfigDir();
    const env = sandboxEnv(sb.get());
    const before = ledger().usedMilli;
    const [handle] = creatorHandles(sb.get(), 1, 3);
    const res = await runCli(
      ['api', 'creators/enrich/handle/raw', '-X', 'POST', '-f', `handle=${handle}`, '-f', 'platform=instagram'],
      { env, configDir, now: clock.now },
    );
    expect(res.code, res.stderr).toBe(0);
    const charged = ledger().usedMilli - before;
    expect(charged).toBe(30);
    expect(await loggedMilli(configDir, sb.get().url)).toMatchObject({ milli: charged, requests: 1 });
  });

  it('--no-store: the purchase is in creators spend (the answer is not kept)', async () => {
    const configDir = tempConfigDir();
    const env = sandboxEnv(sb.get());
    const before = ledger().usedMilli;
    const [handle] = creatorHandles(sb.get(), 1, 5);
    const res = await runCli(
      ['enrich', 'handle', handle!, '--platform', 'instagram', '--mode', 'raw', '--no-store', '--json'],
      { env, configDir, now: clock.now },
    );
    expect(res.code, res.stderr).toBe(0);
    const charged = ledger().usedMilli - before;
    expect(charged).toBe(30);
    expect(await loggedMilli(configDir, sb.get().url)).toMatchObject({ milli: charged, requests: 1 });
    const stats = await runCli(['store', 'stats', '--json'], { env: { CREATORS_BASE_URL: sb.get().url }, configDir });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.json()).toMatchObject({
      answers: { creator: { count: 0 }, page: { count: 0 } },
      spend: { entries: 1, credits: 0.03 },
    });
  });
});

describe('batch jobs: logged from their own figures, once; budgets refuse before the upload', () => {
  const RAW = ['--mode', 'raw', '--platform', 'instagram'];

  it('a job read by status, poll and run again is logged once, as the ledger charged it', async () => {
    const configDir = tempConfigDir();
    const opts: RunOptions = { env: sandboxEnv(sb.get()), now: clock.now, onSleep: clock.advance, configDir };
    const before = ledger().usedMilli;
    const file = writeCsv(tempDir(), 'in.csv', ['handle', ...creatorHandles(sb.get(), 10, 20), 'nobody_here_at_all']);
    const up = await runCli(['batch', 'upload', file, ...RAW], opts);
    expect(up.code, up.stderr).toBe(0);
    const id = up.stdout.trim();
    // Still processing: nothing logged yet (the job is charging).
    const early = await runCli(['batch', 'status', id, '--json'], opts);
    expect(early.code, early.stderr).toBe(0);
    expect((await loggedMilli(configDir, sb.get().url)).milli).toBe(0);
    const poll = await runCli(['batch', 'poll', id, '--interval', '5'], opts);
    expect(poll.code, poll.stderr).toBe(0);
    const status = await runCli(['batch', 'status', id, '--json'], opts);
    expect(status.code, status.stderr).toBe(0);
    expect((status.json() as { status: string }).status).toBe('finished');
    const charged = ledger().usedMilli - before;
    expect(charged).toBe(300);
    expect(await loggedMilli(configDir, sb.get().url)).toMatchObject({ milli: charged, requests: 1 });
  });

  it('daily-budget 2 and 1.2-credit batches: the second is refused before its upload (exit 5), the ledger and the spend log agree', async () => {
    const configDir = tempConfigDir();
    const opts: RunOptions = { env: sandboxEnv(sb.get()), now: clock.now, onSleep: clock.advance, configDir };
    const set = await runCli(['config', 'set', 'daily-budget', '2'], opts);
    expect(set.code, set.stderr).toBe(0);
    const jobsBefore = batchWorld(sb.get().state).jobs.size;
    const before = ledger().usedMilli;
    const codes: number[] = [];
    const stderr: string[] = [];
    for (let i = 0; i < 3; i++) {
      // 40 creators the sandbox finds, raw at 0.03: 1.2 credits each, worst case and charge alike.
      const dir = tempDir();
      const file = writeCsv(dir, 'in.csv', ['handle', ...creatorHandles(sb.get(), 40, 100 + 40 * i)]);
      const res = await runCli(['batch', 'run', file, ...RAW, '-o', `${dir}/out.csv`, '--interval', '5'], opts);
      codes.push(res.code);
      stderr.push(res.stderr);
    }
    expect(codes).toEqual([0, 5, 5]);
    expect(stderr[1]).toContain('over the daily-budget of 2');
    expect(stderr[1]).toContain('nothing was sent');
    // Nothing uploaded after the first: one job, and the ledger charged it alone.
    expect(batchWorld(sb.get().state).jobs.size).toBe(jobsBefore + 1);
    const charged = ledger().usedMilli - before;
    expect(charged).toBe(1200);
    expect(await loggedMilli(configDir, sb.get().url)).toMatchObject({ milli: charged, requests: 1 });
  });

  it('daily-budget 2 and batch upload: a job not yet seen finished holds its worst case, so the second 1.2-credit upload is refused until it is', async () => {
    const configDir = tempConfigDir();
    const opts: RunOptions = { env: sandboxEnv(sb.get()), now: clock.now, onSleep: clock.advance, configDir };
    expect((await runCli(['config', 'set', 'daily-budget', '2'], opts)).code).toBe(0);
    const jobs = () => batchWorld(sb.get().state).jobs.size;
    const before = ledger().usedMilli;
    const upload = async (n: number, from: number) =>
      runCli(
        ['batch', 'upload', writeCsv(tempDir(), 'in.csv', ['handle', ...creatorHandles(sb.get(), n, from)]), ...RAW],
        opts,
      );

    const first = await upload(40, 300);
    expect(first.code, first.stderr).toBe(0);
    const id = first.stdout.trim();
    const jobsAfterFirst = jobs();
    // Nothing logged yet (the job has charged nothing it has reported), but its 1.2 is held.
    const second = await upload(40, 340);
    expect(second.code).toBe(5);
    expect(second.stderr).toContain(`up to 1.2 more for batch job ${id} not yet seen finished`);
    expect(jobs()).toBe(jobsAfterFirst);

    const poll = await runCli(['batch', 'poll', id, '--interval', '5'], opts);
    expect(poll.code, poll.stderr).toBe(0);
    expect(ledger().usedMilli - before).toBe(1200);
    // Seen finished: its charge is logged once (the markers are no requests), and nothing more is held for it.
    expect(await loggedMilli(configDir, sb.get().url)).toMatchObject({ milli: 1200, requests: 1 });
    const third = await upload(40, 380);
    expect(third.code).toBe(5);
    expect(third.stderr).not.toContain('not yet seen finished');
    const small = await upload(20, 420);
    expect(small.code, small.stderr).toBe(0);
    expect(jobs()).toBe(jobsAfterFirst + 1);
  });
});
