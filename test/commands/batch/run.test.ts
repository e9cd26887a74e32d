import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchWorld } from '../../../src/sandbox/batch/jobs.js';
import { resultsCsv } from '../../../src/sandbox/batch/files.js';
import { sandboxFinds } from '../../../src/sandbox/batch/results.js';
import { runCli, tempConfigDir, type RunOptions } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { faults } from '../../reliability/helpers.js';
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
/** The create route, slowed so a reply is still on its way while the test acts (the job exists already). */
const SLOW_CREATE_REPLY = 'trickle:300 POST /public/v1/enrichment/batch/ count=1';

/** Resolves once `check` holds (polled; the thing awaited is driven by the sandbox, not by time). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

interface Entry {
  batch_ids: Array<string | null>;
  input: string;
  completed_at?: string;
  in_flight?: { part: number; sent_at: string };
}
/** The journal's entries (one file per input) in a config directory. */
function journalEntries(configDir: string): Entry[] {
  const dir = join(configDir, 'batch-journal');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as Entry);
}

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
    const entries = journalEntries(t.opts().configDir!);
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
    const first = await runCli(
      ['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'],
      t.opts({ signal: controller.signal, onSleep: (ms) => (clock.advance(ms), ++n === 2 && controller.abort()) }),
    );
    expect(first.code).toBe(130);
    expect(first.stderr).toContain('the same `creators batch run` command');
    expect(readdirSync(t.dir)).toEqual(['handles.csv']);
    const id = [...world().jobs.keys()].at(-1) as string;

    const second = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`Reattaching to ${id}`);
    expect(second.stderr).toContain('; use --force to start a new job.');
    expect(world().jobs.size).toBe(jobsBefore + 1);
    const found = values.filter((v) =>
      sandboxFinds(sb.get().state, { seed: 0, kind: 'handle', mode: 'raw', platform: 'instagram' }, v),
    ).length;
    expect(ledger().usedMilli - usedBefore).toBe(found * 30);
    expect(readFileSync(t.out, 'utf8').trimEnd().split('\n')).toHaveLength(31);

    // Even after success a re-run reattaches (downloads again) instead of paying again.
    const third = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(third.code).toBe(0);
    expect(world().jobs.size).toBe(jobsBefore + 1);
    expect(ledger().usedMilli - usedBefore).toBe(found * 30);
  });

  it('--max-wait exits 8; the re-run reattaches; --force starts a new job', async () => {
    const t = setup(creatorHandles(sb.get(), 40, 2000));
    const before = world().jobs.size;
    const first = await runCli(
      ['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--max-wait', '8'],
      t.opts(),
    );
    expect(first.code).toBe(8);
    expect(first.stderr).toContain('Wait again with: the same `creators batch run` command');
    expect(first.stderr).not.toContain('deprecated');
    // The stop line: what the job has used so far (the ledger agrees) and where the results are.
    const id = [...world().jobs.keys()].at(-1) as string;
    const used =
      /Spent ([\d.]+) credits in this run; the results stay on the server in batch (\S+); re-run the same command to pick it up \(nothing is paid again\)\./.exec(
        first.stderr,
      );
    expect(used, first.stderr).not.toBeNull();
    expect(used?.[2]).toBe(id);
    expect(Number(used?.[1])).toBeGreaterThan(0);
    expect(Math.round(Number(used?.[1]) * 1000)).toBe(
      ledger()
        .charges.filter((c) => c.note.includes(id))
        .reduce((a, c) => a + c.milli, 0),
    );
    const again = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(again.code).toBe(0);
    expect(world().jobs.size).toBe(before + 1);
    const forced = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--force'], t.opts());
    expect(forced.code).toBe(0);
    expect(world().jobs.size).toBe(before + 2);
  });

  it('a damaged journal entry is never taken as absent: exit 2 (maybe_created) naming the file, nothing created; --force creates another', async () => {
    const t = setup(creatorHandles(sb.get(), 10, 2050));
    const before = world().jobs.size;
    const first = await runCli(
      ['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--max-wait', '1'],
      t.opts(),
    );
    expect(first.code).toBe(8);
    expect(world().jobs.size).toBe(before + 1);
    const dir = join(t.opts().configDir!, 'batch-journal');
    const [name] = readdirSync(dir).filter((n) => n.endsWith('.json'));
    const file = join(dir, name!);
    // Cut short, as a disk error or a hand edit might leave it.
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 20));
    const again = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--json'], t.opts());
    expect(again.code).toBe(2);
    const err = JSON.parse(again.stderr.trim().split('\n').at(-1)!) as {
      error: { code: string; message: string; hint: string };
    };
    expect(err.error.code).toBe('maybe_created');
    expect(err.error.message).toContain(`its journal entry ${file} cannot be read (it is not valid JSON)`);
    expect(err.error.hint).toContain('--force');
    expect(world().jobs.size).toBe(before + 1);
    const forced = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--force'], t.opts());
    expect(forced.code).toBe(0);
    expect(world().jobs.size).toBe(before + 2);
    expect(journalEntries(t.opts().configDir!)[0]?.completed_at).toBeDefined();
  });

  it('--timeout is only the per-request timeout, never the whole wait: that is --max-wait', async () => {
    const t = setup(creatorHandles(sb.get(), 40, 2100));
    const sleeps: number[] = [];
    const first = await runCli(
      ['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--timeout', '8'],
      t.opts({ sleeps }),
    );
    expect(first.code, first.stderr).toBe(0);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThan(8000);
    expect(first.stderr).not.toContain('deprecated');
    const t2 = setup(creatorHandles(sb.get(), 40, 2200));
    const again = await runCli(
      ['batch', 'run', t2.file, ...RAW, '-o', t2.out, '--interval', '5', '--max-wait', '4', '--timeout', '8'],
      t2.opts({ sleeps: [] }),
    );
    expect(again.code).toBe(8);
    expect(again.stderr).not.toContain('deprecated');
    expect(again.stderr).toContain('still processing after 4 s');
  });

  it('different options are a different job', async () => {
    const t = setup(['run_d_1', 'run_d_2']);
    const before = world().jobs.size;
    expect((await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts())).code).toBe(0);
    expect(
      (
        await runCli(
          ['batch', 'run', t.file, '--mode', 'raw', '--platform', 'tiktok', '-o', t.out, '--interval', '5'],
          t.opts(),
        )
      ).code,
    ).toBe(0);
    expect(world().jobs.size).toBe(before + 2);
  });

  it('paused for credits exits 5; after a top-up the re-run resumes the same job', async () => {
    const t = setup(creatorHandles(sb.get(), 8, 2500));
    ledger().balanceMilli = 1000;
    const before = world().jobs.size;
    const first = await runCli(
      ['batch', 'run', t.file, '--mode', 'full', '--platform', 'instagram', '-o', t.out, '--interval', '5'],
      t.opts(),
    );
    expect(first.code).toBe(5);
    expect(first.stderr).toContain('paused for insufficient credits');
    // The way out resumes the job (batch poll only waits: it cannot resume a paused job).
    const id = /batch (bch_\w+)/.exec(first.stderr)?.[1] ?? '';
    expect(first.stderr).toContain(
      `Top up, then continue it with: creators batch resume ${id} (resuming is free), or re-run the same`,
    );
    expect(first.stderr).not.toContain('batch poll');
    expect(first.stderr).toMatch(
      /Spent 1 credit in this run; the results stay on the server in batch \S+; re-run the same command/,
    );
    ledger().balanceMilli = 100_000;
    const second = await runCli(
      ['batch', 'run', t.file, '--mode', 'full', '--platform', 'instagram', '-o', t.out, '--interval', '5'],
      t.opts(),
    );
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
    expect(JSON.parse(readFileSync(join(t.dir, 'r.json'), 'utf8'))).toMatchObject({
      dry_run: true,
      method: 'POST',
      worst_case_credits: 0.06,
    });
    expect(world().jobs.size).toBe(before);
    // A dry run changes nothing: no lock, no journal.
    expect(readdirSync(t.opts().configDir!)).toEqual([]);
    const res = await runCli(
      ['batch', 'run', t.file, ...RAW, '-o', join(t.dir, 'r.json'), '--interval', '5'],
      t.opts(),
    );
    expect(res.code).toBe(0);
    const rows = JSON.parse(readFileSync(join(t.dir, 'r.json'), 'utf8'));
    expect(rows.map((r: { status: string }) => r.status)).toEqual([
      sandboxFinds(sb.get().state, { seed: 0, kind: 'handle', mode: 'raw', platform: 'instagram' }, 'run_f_1')
        ? 'success'
        : 'not_found',
      'not_found',
    ]);
  });

  it('a run of another input at the same time keeps the entry of a run that stopped on its wait limit', async () => {
    const t = setup(creatorHandles(sb.get(), 40, 2200));
    const other = writeCsv(t.dir, 'other.csv', ['handle', ...creatorHandles(sb.get(), 40, 2300)]);
    const before = world().jobs.size;
    faults(sb.get(), SLOW_CREATE_REPLY);
    // The other input's run starts first and is waiting for its create reply...
    const slow = runCli(
      ['batch', 'run', other, ...RAW, '-o', join(t.dir, 'other.csv.out'), '--interval', '5', '--max-wait', '8'],
      t.opts(),
    );
    await until(() => world().jobs.size === before + 1);
    // ...while this input's run creates its job and stops on --max-wait (exit 8), its entry written.
    const first = await runCli(
      ['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5', '--max-wait', '8'],
      t.opts(),
    );
    expect(first.code).toBe(8);
    const id = [...world().jobs.keys()].at(-1) as string;
    expect((await slow).code).toBe(8);
    faults(sb.get(), '');
    const again = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Reattaching to ${id}`);
    expect(world().jobs.size).toBe(before + 2);
    expect(
      journalEntries(t.opts().configDir!)
        .map((e) => e.input)
        .sort(),
    ).toEqual([other, t.file].sort());
  });

  it('Ctrl-C while the create reply is on its way: the create is finished and journaled, exit 130, the re-run picks the job up', async () => {
    const t = setup(creatorHandles(sb.get(), 6, 2400));
    const before = world().jobs.size;
    faults(sb.get(), SLOW_CREATE_REPLY);
    const controller = new AbortController();
    const interrupted = runCli(
      ['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'],
      t.opts({ signal: controller.signal }),
    );
    await until(() => world().jobs.size === before + 1);
    controller.abort();
    const stopped = await interrupted;
    expect(stopped.code).toBe(130);
    // The request already sent is answered (the server made the job either way), so its id is kept.
    expect(stopped.stderr).toContain('Waiting for the request already sent to finish');
    faults(sb.get(), '');
    const created = [...world().jobs.keys()].at(-1);
    const [entry] = journalEntries(t.opts().configDir!);
    expect(entry).toMatchObject({ batch_ids: [created], input: t.file });
    expect(entry!.in_flight).toBeUndefined();

    // The lock was released by Ctrl-C (not exit 9), and the re-run pays nothing new.
    const again = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    expect(again.code).toBe(0);
    expect(world().jobs.size).toBe(before + 1);
  });

  it('a create the server refused leaves no in-flight mark: the re-run simply tries again', async () => {
    const t = setup(['run_k_1', 'run_k_2']);
    const before = world().jobs.size;
    // 503: the server did not start the work (retried, then given up).
    faults(sb.get(), '503 POST /public/v1/enrichment/batch/');
    const refused = await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts());
    faults(sb.get(), '');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('503');
    expect(world().jobs.size).toBe(before);
    expect(journalEntries(t.opts().configDir!)[0]?.in_flight).toBeUndefined();
    expect((await runCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--interval', '5'], t.opts())).code).toBe(0);
    expect(world().jobs.size).toBe(before + 1);
  });

  it('refuses standard input (exit 2): a re-run could not find its job', async () => {
    const t = setup(['x']);
    const res = await runCli(['batch', 'run', '-', ...RAW], t.opts({ stdin: 'handle\nx\n' }));
    expect(res.code).toBe(2);
  });
});
