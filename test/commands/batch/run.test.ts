import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchWorld } from '../../../src/sandbox/batch/jobs.js';
import { resultsCsv } from '../../../src/sandbox/batch/files.js';
import { sandboxFinds } from '../../../src/sandbox/batch/results.js';
import { runCli, tempConfigDir, type RunOptions } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir, testClock, writeCsv } from './helpers.js';

const clock = testClock();
const sb = useSandbox({ now: clock.now, credits: 100_000, batchRowsPerSecond: 1 });
const world = () => batchWorld(sb.get().state);
const ledger = () => sb.get().state.ledger;

function setup(values: string[]): { dir: string; file: string; out: string; opts: (extra?: RunOptions) => RunOptions } {
  const dir = tempDir();
  const configDir = tempConfigDir();
  const file = writeCsv(dir, 'handles.csv', ['handle', ...values]);
  return {
    dir,
    file,
    out: join(dir, 'results.csv'),
    opts: (extra = {}) => ({ env: sandboxEnv(sb.get()), now: clock.now, onSleep: clock.advance, configDir, ...extra }),
  };
}
const RAW = ['--mode', 'raw', '--platform', 'instagram'];

describe('creators batch run', () => {
  it('uploads, waits and downloads into -o, recording the job in the journal', async () => {
    const values = Array.from({ length: 12 }, (_, i) => `run_a_${i}`);
    const t = setup(values);
    const before = world().jobs.size;
    const res = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(res.code).toBe(0);
    expect(world().jobs.size).toBe(before + 1);
    const id = [...world().jobs.keys()].at(-1) as string;
    expect(readFileSync(t.out, 'utf8')).toBe(resultsCsv(world().jobs.get(id)!).toString());
    expect(res.stderr).toContain(`Batch ${id} created (12 rows).`);
    const journal = JSON.parse(readFileSync(join(t.opts().configDir!, 'batch-journal.json'), 'utf8'));
    const entries = Object.values(journal.entries) as Array<{ batch_ids: string[]; completed_at?: string }>;
    expect(entries).toHaveLength(1);
    expect(entries[0]!.batch_ids).toEqual([id]);
    expect(entries[0]!.completed_at).toBeDefined();
  });

  it('interrupted (Ctrl-C) and re-run: one job, one charge', async () => {
    const values = Array.from({ length: 30 }, (_, i) => `run_b_${i}`);
    const t = setup(values);
    const jobsBefore = world().jobs.size;
    const usedBefore = ledger().usedMilli;
    const controller = new AbortController();
    let n = 0;
    const first = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts({ signal: controller.signal, onSleep: (ms) => (clock.advance(ms), ++n === 2 && controller.abort()) }));
    expect(first.code).toBe(130);
    expect(first.stderr).toContain('the same `creators batch run` command');
    expect(readdirSync(t.dir)).toEqual(['handles.csv']);
    const id = [...world().jobs.keys()].at(-1) as string;

    const second = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`Reattaching to ${id}`);
    expect(world().jobs.size).toBe(jobsBefore + 1);
    const found = values.filter(sandboxFinds).length;
    expect(ledger().usedMilli - usedBefore).toBe(found * 30);
    expect(readFileSync(t.out, 'utf8').trimEnd().split('\n')).toHaveLength(31);

    // Even after success a re-run reattaches (downloads again) instead of paying again.
    const third = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(third.code).toBe(0);
    expect(world().jobs.size).toBe(jobsBefore + 1);
    expect(ledger().usedMilli - usedBefore).toBe(found * 30);
  });

  it('--max-wait exits 8; the re-run reattaches; --force starts a new job', async () => {
    const t = setup(Array.from({ length: 40 }, (_, i) => `run_c_${i}`));
    const before = world().jobs.size;
    const first = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--max-wait', '8'], t.opts());
    expect(first.code).toBe(8);
    expect(first.stderr).toContain('Wait again with: the same `creators batch run` command');
    expect(first.stderr).not.toContain('deprecated');
    const again = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(again.code).toBe(0);
    expect(world().jobs.size).toBe(before + 1);
    const forced = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--force'], t.opts());
    expect(forced.code).toBe(0);
    expect(world().jobs.size).toBe(before + 2);
  });

  it('--timeout alone is still the whole wait for one release, with a one-line deprecation warning', async () => {
    const t = setup(Array.from({ length: 40 }, (_, i) => `run_g_${i}`));
    const sleeps: number[] = [];
    const first = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--timeout', '8'], t.opts({ sleeps }));
    expect(first.code).toBe(8);
    expect(sleeps).toEqual([5000, 3000]);
    expect(first.stderr.split('\n').filter((line) => line.includes('deprecated'))).toEqual([
      'warning: --timeout as the whole wait of `creators batch run` is deprecated: use --max-wait 8 ' +
        '(--timeout is the per-request timeout, and will mean only that in the next release).',
    ]);
    expect(first.stderr).toContain('Wait again with: the same `creators batch run` command');
    // With --max-wait, --timeout is only the per-request timeout: no warning, and the wait is --max-wait.
    const again = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--max-wait', '4', '--timeout', '8'], t.opts({ sleeps: [] }));
    expect(again.code).toBe(8);
    expect(again.stderr).not.toContain('deprecated');
    expect(again.stderr).toContain('still processing after 4 s');
  });

  it('different options are a different job', async () => {
    const t = setup(['run_d_1', 'run_d_2']);
    const before = world().jobs.size;
    expect((await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts())).code).toBe(0);
    expect((await runCli(['batch', 'run', t.file, '--mode', 'raw', '--platform', 'tiktok', '-o', t.out, '--interval', '5'], t.opts())).code).toBe(0);
    expect(world().jobs.size).toBe(before + 2);
  });

  it('paused for credits exits 5; after a top-up the re-run resumes the same job', async () => {
    const t = setup(Array.from({ length: 8 }, (_, i) => `run_e_${i}`));
    ledger().balanceMilli = 1000;
    const before = world().jobs.size;
    const first = await runCli(['batch', 'run', t.file, '--mode', 'full', '--platform', 'instagram', '-o', t.out, '--interval', '5'], t.opts());
    expect(first.code).toBe(5);
    expect(first.stderr).toContain('paused for insufficient credits');
    ledger().balanceMilli = 100_000;
    const second = await runCli(['batch', 'run', t.file, '--mode', 'full', '--platform', 'instagram', '-o', t.out, '--interval', '5'], t.opts());
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('resuming it (free)');
    expect(world().jobs.size).toBe(before + 1);
  });

  it('JSON results from a .json output; --dry-run sends nothing', async () => {
    const t = setup(['run_f_1', 'notfound_f']);
    const before = world().jobs.size;
    const dry = await runCli(['batch', 'run', t.file, ...RAW, '-o', join(t.dir, 'r.json'), '--dry-run'], t.opts());
    expect(dry.code).toBe(0);
    // `-o` receives the plan, like any data.
    expect(dry.stdout).toBe('');
    expect(JSON.parse(readFileSync(join(t.dir, 'r.json'), 'utf8'))).toMatchObject({ dry_run: true, method: 'POST', worst_case_credits: 0.06 });
    expect(world().jobs.size).toBe(before);
    const res = await runCli(['batch', 'run', t.file, ...RAW, '-o', join(t.dir, 'r.json'), '--interval', '5'], t.opts());
    expect(res.code).toBe(0);
    const rows = JSON.parse(readFileSync(join(t.dir, 'r.json'), 'utf8'));
    expect(rows.map((r: { status: string }) => r.status)).toEqual([sandboxFinds('run_f_1') ? 'success' : 'not_found', 'not_found']);
  });

  it('refuses standard input (exit 2): a re-run could not find its job', async () => {
    const t = setup(['x']);
    const res = await runCli(['batch', 'run', '-', ...RAW], t.opts({ stdin: 'handle\nx\n' }));
    expect(res.code).toBe(2);
  });
});
