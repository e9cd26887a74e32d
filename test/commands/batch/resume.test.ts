import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchWorld } from '../../../src/sandbox/batch/jobs.js';
import { runCli, type RunOptions } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir, testClock, uploadHandles } from './helpers.js';

const clock = testClock();
const sb = useSandbox({ now: clock.now, credits: 10_000, batchRowsPerSecond: 1 });
const opts = (extra: RunOptions = {}): RunOptions => ({
  env: sandboxEnv(sb.get()),
  now: clock.now,
  onSleep: clock.advance,
  ...extra,
});

/** A job paused for credits after its first row. */
async function pausedJob(prefix: string): Promise<string> {
  // Each test its own creators (so its own input file), found by the sandbox like single enrichment.
  const from = 100 + ([...prefix].reduce((n, ch) => n * 31 + ch.charCodeAt(0), 0) % 5000);
  const state = sb.get().state;
  state.ledger.balanceMilli = 1000;
  const id = await uploadHandles(opts(), creatorHandles(sb.get(), 6, from, 'youtube'), [
    '--mode',
    'full',
    '--platform',
    'youtube',
  ]);
  expect((await runCli(['batch', 'poll', id, '--interval', '5'], opts())).code).toBe(5);
  state.ledger.balanceMilli = 100_000;
  return id;
}

describe('creators batch resume', () => {
  it('--dry-run prints the plan and sends nothing: the job stays paused and spends nothing', async () => {
    const id = await pausedJob('dr');
    const used = sb.get().state.ledger.usedMilli;
    const res = await runCli(['batch', 'resume', id, '--dry-run', '--json'], opts());
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({
      dry_run: true,
      method: 'POST',
      url: `${sandboxEnv(sb.get()).CREATORS_BASE_URL}/public/v1/enrichment/batch/${id}/resume/`,
      body: {},
      worst_case_credits: 0,
    });
    // Time passes: a resumed job would be processing (and charging) by now.
    clock.advance(60_000);
    expect(batchWorld(sb.get().state).jobs.get(id)?.status).toBe('paused_insufficient_credits');
    expect(sb.get().state.ledger.usedMilli).toBe(used);
    const status = await runCli(['batch', 'status', id, '--json'], opts());
    expect(status.json()).toMatchObject({ status: 'paused_insufficient_credits' });
  });

  it('--dry-run -o writes the plan to the file, in its format, and nothing to stdout', async () => {
    const id = await pausedJob('do');
    const out = join(tempDir(), 'plan.json');
    const res = await runCli(['batch', 'resume', id, '--dry-run', '-o', out], opts());
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      dry_run: true,
      method: 'POST',
      worst_case_credits: 0,
    });
    expect(batchWorld(sb.get().state).jobs.get(id)?.status).toBe('paused_insufficient_credits');
  });

  it('without --dry-run it resumes: a sentence on a terminal, the record to -o', async () => {
    const id = await pausedJob('ok');
    const out = join(tempDir(), 'resumed.json');
    const res = await runCli(['batch', 'resume', id, '-o', out], opts({ tty: true }));
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ batch_id: id, status: 'processing' });
    expect(batchWorld(sb.get().state).jobs.get(id)?.status).toBe('processing');
  });
});
