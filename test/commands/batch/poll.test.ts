import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchWorld } from '../../../src/sandbox/batch/jobs.js';
import { runCli, type RunOptions } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { testClock, uploadHandles } from './helpers.js';

const clock = testClock();
const sb = useSandbox({ now: clock.now, credits: 10_000, batchRowsPerSecond: 1 });
const opts = (extra: RunOptions = {}): RunOptions => ({
  env: sandboxEnv(sb.get()),
  now: clock.now,
  onSleep: clock.advance,
  ...extra,
});

const upload = (values: string[], flags?: string[]): Promise<string> => uploadHandles(opts(), values, flags);

describe('creators batch poll / resume', () => {
  it('poll waits every 30 s by default and exits 0 when finished, printing the final record', async () => {
    const id = await upload(['p1', 'p2', 'p3']);
    const sleeps: number[] = [];
    const res = await runCli(['batch', 'poll', id, '--json'], opts({ sleeps }));
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ batch_id: id, status: 'finished', processed_rows: 3 });
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.every((ms) => ms === 30_000)).toBe(true);
    expect(res.stderr).toContain(`Batch ${id}: finished, 3/3 rows (100%)`);
  });

  it('--interval sets the wait between checks', async () => {
    const id = await upload(['i1', 'i2', 'i3', 'i4', 'i5']);
    const sleeps: number[] = [];
    const res = await runCli(['batch', 'poll', id, '--interval', '2', '--quiet', '--json'], opts({ sleeps }));
    expect(res.code).toBe(0);
    expect(sleeps.length).toBeGreaterThan(2);
    expect(sleeps.every((ms) => ms === 2000)).toBe(true);
    expect(res.stderr).toBe('');
  });

  it('exit 7 when the job fails, naming resume', async () => {
    const id = await upload(['f1', '__fail__', 'f2']);
    const res = await runCli(['batch', 'poll', id, '--interval', '5', '--json'], opts());
    expect(res.code).toBe(7);
    expect(res.errorJson().error).toMatchObject({ code: 'job_failed' });
    expect(res.errorJson().error.message).toContain(`Batch ${id} failed: Row 2 could not be processed.`);
    const resumed = await runCli(['batch', 'resume', id, '--json'], opts());
    expect(resumed.code).toBe(0);
    expect(resumed.json()).toMatchObject({ batch_id: id, status: 'processing' });
    const again = await runCli(['batch', 'poll', id, '--interval', '5'], opts());
    expect(again.code).toBe(0);
  });

  it('exit 5 when paused for credits; resume (free) then finishes', async () => {
    const state = sb.get().state;
    state.ledger.balanceMilli = 1000;
    const id = await upload(creatorHandles(sb.get(), 6, 1400, 'youtube'), ['--mode', 'full', '--platform', 'youtube']);
    const res = await runCli(['batch', 'poll', id, '--interval', '5'], opts());
    expect(res.code).toBe(5);
    expect(res.stderr).toContain(`Batch ${id} is paused for insufficient credits after 1 credit (`);
    expect(res.stderr).toContain(`creators batch resume ${id}`);
    state.ledger.balanceMilli = 100_000;
    const used = state.ledger.usedMilli;
    const resumed = await runCli(['batch', 'resume', id], opts({ tty: true }));
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe(`Batch ${id} resumed (status processing).\n`);
    expect(state.ledger.usedMilli).toBe(used);
    expect((await runCli(['batch', 'poll', id, '--interval', '5'], opts())).code).toBe(0);
  });

  it('resume of a finished job is an error from the server (exit 1)', async () => {
    const id = await upload(['r1']);
    expect((await runCli(['batch', 'poll', id, '--interval', '5'], opts())).code).toBe(0);
    const res = await runCli(['batch', 'resume', id], opts());
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Only a paused or failed batch can be resumed (status: finished)');
  });

  it('exit 8 at --max-wait, saying the job keeps running and how to wait again', async () => {
    const id = await upload(creatorHandles(sb.get(), 50, 1000));
    const sleeps: number[] = [];
    const res = await runCli(['batch', 'poll', id, '--interval', '4', '--max-wait', '10'], opts({ sleeps }));
    expect(res.code).toBe(8);
    expect(sleeps).toEqual([4000, 4000, 2000]);
    expect(res.stderr).toMatch(
      new RegExp(`error: Batch ${id} is still processing after 10 s: processing, \\d+/50 rows`),
    );
    expect(res.stderr).toContain(`Wait again with: creators batch poll ${id}`);
    expect(res.stderr).not.toContain('deprecated');
  });

  // commander gives a known option of the root to the root wherever it is typed: `--timeout` after
  // `batch poll` is the global per-request timeout too, and never the whole wait (cli.md: one meaning).
  it.each([
    ['after the verb', (id: string) => ['batch', 'poll', id, '--interval', '4', '--timeout', '10']],
    [
      'before the group (the global position)',
      (id: string) => ['--timeout', '10', 'batch', 'poll', id, '--interval', '4'],
    ],
  ])('--timeout %s is only the per-request timeout: the wait goes on until the job ends', async (_, argv) => {
    const id = await upload(creatorHandles(sb.get(), 50, 1100));
    const sleeps: number[] = [];
    const res = await runCli(argv(id), opts({ sleeps }));
    expect(res.code, res.stderr).toBe(0);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThan(10_000);
    expect(res.stderr).not.toContain('deprecated');
  });

  it('with --max-wait, --timeout is only the per-request timeout: no warning, the wait is --max-wait', async () => {
    const id = await upload(creatorHandles(sb.get(), 50, 1200));
    const sleeps: number[] = [];
    const res = await runCli(
      ['batch', 'poll', id, '--interval', '4', '--max-wait', '10', '--timeout', '5'],
      opts({ sleeps }),
    );
    expect(res.code).toBe(8);
    expect(sleeps).toEqual([4000, 4000, 2000]);
    expect(res.stderr).not.toContain('deprecated');
    expect(res.stderr).toMatch(new RegExp(`error: Batch ${id} is still processing after 10 s`));
  });

  it('refuses a bad --max-wait with exit 2', async () => {
    const { agent, env } = mockApi();
    const bad = await runCli(['batch', 'poll', 'bch_1', '--max-wait', '-3'], { env, dispatcher: agent });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Invalid --max-wait '-3'");
  });

  it('Ctrl-C stops waiting with exit 130; the job keeps running', async () => {
    const id = await upload(creatorHandles(sb.get(), 20, 1300));
    const controller = new AbortController();
    let n = 0;
    const res = await runCli(
      ['batch', 'poll', id, '--interval', '3'],
      opts({ signal: controller.signal, onSleep: (ms) => (clock.advance(ms), ++n === 2 && controller.abort()) }),
    );
    expect(res.code).toBe(130);
    expect(res.stderr).toContain(`Stopped waiting; batch ${id} keeps running on the server.`);
    expect(res.stderr).toContain(`creators batch poll ${id}`);
    const status = batchWorld(sb.get().state).jobs.get(id);
    expect(status?.status).toBe('processing');
  });

  it('refuses a bad id or interval with exit 2', async () => {
    const { agent, env } = mockApi();
    expect((await runCli(['batch', 'poll', '../x'], { env, dispatcher: agent })).code).toBe(2);
    const bad = await runCli(['batch', 'poll', 'bch_1', '--interval', '0'], { env, dispatcher: agent });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Invalid --interval '0'");
  });

  it('understands every status word: running, completed, queued, paused_insufficient_credits', async () => {
    const { agent, pool, env } = mockApi();
    const path = '/public/v1/enrichment/batch/bch_1/status/';
    for (const status of ['queued', 'validating', 'running'])
      pool
        .intercept({ path })
        .reply(
          200,
          { batch_id: 'bch_1', status, total_rows: 4, processed_rows: 1, credits_used: '0.03' },
          JSON_HEADERS,
        );
    pool
      .intercept({ path })
      .reply(
        200,
        { batch_id: 'bch_1', status: 'completed', total_rows: 4, processed_rows: 4, credits_used: '0.12' },
        JSON_HEADERS,
      );
    const res = await runCli(['batch', 'poll', 'bch_1', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ status: 'completed', credits_used: 0.12 });
    pool
      .intercept({ path })
      .reply(
        200,
        { batch_id: 'bch_1', status: 'paused_insufficient_credits', status_message: 'Out of credits.' },
        JSON_HEADERS,
      );
    const paused = await runCli(['batch', 'poll', 'bch_1'], { env, dispatcher: agent });
    expect(paused.code).toBe(5);
    expect(paused.stderr).toContain('Out of credits');
  });
});

describe('--timeout keeps its one meaning: the per-request timeout', () => {
  let server: Server;
  let env: Record<string, string>;
  /** Each request received: its path, and when the client gave it up (closed it). */
  const received: { url: string | undefined; closed: Promise<void> }[] = [];
  beforeAll(async () => {
    // Accepts every request and never answers.
    server = createServer((req, res) => {
      received.push({ url: req.url, closed: new Promise((resolve) => res.on('close', () => resolve())) });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    env = {
      CREATORS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      CREATORS_API_KEY: 'sk_test_timeout',
    };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ['before the group', ['--timeout', '0.2', '--retries', '0', 'batch', 'status', 'bch_1']],
    ['after the verb', ['batch', 'status', 'bch_1', '--timeout', '0.2', '--retries', '0']],
  ])('batch status: --timeout %s bounds the request', async (_, argv) => {
    const res = await runCli(argv, { env });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Request timed out after 0.2 s (GET /public/v1/enrichment/batch/bch_1/status/)');
  });

  it('batch poll --max-wait: each status read is bounded by --timeout, the whole wait by --max-wait', async () => {
    const sleeps: number[] = [];
    const before = received.length;
    const res = await runCli(['batch', 'poll', 'bch_1', '--max-wait', '1', '--timeout', '0.2', '--retries', '0'], {
      env,
      sleeps,
    });
    expect(res.code).toBe(1);
    // The timer that cut the read is the one the message names: 0.2 s, not the 30 s default.
    expect(res.stderr).toContain('Request timed out after 0.2 s (GET /public/v1/enrichment/batch/bch_1/status/)');
    expect(res.stderr).not.toContain('deprecated');
    // Two reads (the second once the 1 s wait is used up, on the run's clock), each given up by the CLI,
    // since the server never answers: the first read's timeout is what let the second one start.
    expect(sleeps).toEqual([1000]);
    const reads = received.slice(before);
    expect(reads.map((r) => r.url)).toEqual([
      '/public/v1/enrichment/batch/bch_1/status/',
      '/public/v1/enrichment/batch/bch_1/status/',
    ]);
    await Promise.all(reads.map((r) => r.closed));
  });
});
