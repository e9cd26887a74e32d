import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchWorld, configureBatch } from '../../src/sandbox/batch/jobs.js';
import { BIN, spawnCli, type SpawnResult } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox, type StartedSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { call, L, subscribe, useClockedSandbox } from '../commands/listening/helpers.js';
import { writeCsv } from '../commands/batch/helpers.js';
import { faults, figures } from './helpers.js';

/**
 * Overlapping runs and kill -9 (the built CLI, separate processes): `batch run` never creates two jobs
 * for one input, nor a second one silently after a create whose reply was lost; `events tail` never
 * delivers the same events twice from one cursor file; a lock left by a killed process is taken over.
 */
const batchSb = useSandbox({ seed: 11, credits: 100_000, batchRowsPerSecond: 100_000, rateLimit: 100_000 });
const listenSb = useClockedSandbox({ seed: 41 });

/** A spawned CLI run, with its exit as a promise. */
function start(
  args: string[],
  env: Record<string, string>,
): { kill(signal: NodeJS.Signals): void; done: Promise<SpawnResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const done = new Promise<SpawnResult>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { kill: (signal) => child.kill(signal), done };
}

/** Resolves once `check` holds (polled: what is awaited is driven by the sandbox, not by time). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

const jobs = (): number => batchWorld(batchSb.get().state).jobs.size;
const injected = (sb: StartedSandbox): number => figures(sb).rules[0]?.injected ?? 0;

describe('batch run: locked journal, create recorded before it is sent', () => {
  const RAW = ['--mode', 'raw', '--platform', 'instagram', '--interval', '0.1'];
  // The create reply trickles for ~3 s: the job exists on the server while the client still waits.
  const SLOW_CREATE_REPLY = 'trickle:400 POST /public/v1/enrichment/batch/ count=1';
  const setup = (prefix: string): { file: string; out: string; env: Record<string, string>; configDir: string } => {
    configureBatch(batchSb.get().state, { queueSeconds: 0 });
    const dir = tempDir('creators-locks-');
    const configDir = tempDir('creators-cfg-');
    const names = Array.from({ length: 5 }, (_, i) => `${prefix}_${i}`);
    return {
      file: writeCsv(dir, 'in.csv', ['handle', ...names]),
      out: join(dir, 'out.csv'),
      env: { ...sandboxEnv(batchSb.get()), CREATORS_CONFIG_DIR: configDir },
      configDir,
    };
  };

  it('two runs of the same file at once: one job, one charge; the second exits 9 at once naming the first', async () => {
    const t = setup('lock_a');
    const before = jobs();
    const used = batchSb.get().state.ledger.usedMilli;
    faults(batchSb.get(), SLOW_CREATE_REPLY);
    const first = start(['batch', 'run', t.file, ...RAW, '-o', t.out], t.env);
    await until(() => jobs() === before + 1);
    const second = await spawnCli(['batch', 'run', t.file, ...RAW, '-o', `${t.out}.2`], t.env);
    const done = await first.done;
    faults(batchSb.get(), '');
    expect(second.code).toBe(9);
    expect(second.stderr).toMatch(
      /Another `creators batch run` of .*in\.csv with the same options is running \(process \d+ on this machine, since \d{4}-.*\); nothing was done\./,
    );
    expect(second.stdout).toBe('');
    expect(existsSync(`${t.out}.2`)).toBe(false);
    expect(done.code).toBe(0);
    expect(jobs()).toBe(before + 1);
    const job = [...batchWorld(batchSb.get().state).jobs.values()].at(-1)!;
    // The ledger moved by the one job's charges only.
    expect(batchSb.get().state.ledger.usedMilli - used).toBe(job.creditsMilli);
  });

  it('kill -9 while the create reply is on its way: the stale lock is taken over, the re-run refuses (exit 2) and --force creates a second job', async () => {
    const t = setup('lock_b');
    const before = jobs();
    faults(batchSb.get(), SLOW_CREATE_REPLY);
    const run = start(['batch', 'run', t.file, ...RAW, '-o', t.out], t.env);
    await until(() => jobs() === before + 1);
    run.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    faults(batchSb.get(), '');
    const left = readdirSync(join(t.configDir, 'batch-journal'));
    expect(left.filter((n) => n.endsWith('.lock'))).toHaveLength(1);

    const again = await spawnCli(['batch', 'run', t.file, ...RAW, '-o', t.out], t.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /^error: A batch job may already exist for .*in\.csv: a run sent its create request at \d{4}-\S+ and stopped before the reply arrived/m,
    );
    expect(again.stderr).toContain('re-run with --force');
    expect(jobs()).toBe(before + 1);
    expect(existsSync(t.out)).toBe(false);

    const forced = await spawnCli(['batch', 'run', t.file, ...RAW, '-o', t.out, '--force'], t.env);
    expect(forced.code).toBe(0);
    expect(jobs()).toBe(before + 2);
    expect(readdirSync(join(t.configDir, 'batch-journal')).filter((n) => n.endsWith('.lock'))).toEqual([]);
  });
});

describe('events tail --cursor-file: one tail per cursor', () => {
  // The first read of events is held for 3 s, so the first tail is mid-run when the second starts.
  const SLOW_READ = `delay:3000 GET ${L}/events/* count=1`;
  const env = (): Record<string, string> => ({
    ...sandboxEnv(listenSb.get()),
    CREATORS_CONFIG_DIR: tempDir('creators-cfg-'),
  });
  const ids = (stdout: string): number[] =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { id: number }).id);
  const allEvents = async (sub: number): Promise<number[]> => {
    const res = await call(listenSb.get(), 'GET', `${L}/events/?subscription_id=${sub}&page_size=100`);
    return (res.body.results as Array<{ id: number }>).map((e) => e.id).sort((a, b) => a - b);
  };

  it('two --once runs at once: one delivers every event, the other exits 9 and prints nothing on stdout', async () => {
    const sub = await subscribe(listenSb.get(), 'locks-a', ['lock_ev_a', 'lock_ev_b']);
    listenSb.advance(3_600_000);
    const cursor = join(tempDir('creators-cursor-'), 'events.cursor');
    const args = [
      'events',
      'tail',
      '--once',
      '--backlog',
      'all',
      '--subscription',
      String(sub),
      '--cursor-file',
      cursor,
    ];
    faults(listenSb.get(), SLOW_READ);
    const first = start(args, env());
    await until(() => injected(listenSb.get()) === 1);
    const second = await spawnCli(args, env());
    const done = await first.done;
    faults(listenSb.get(), '');
    expect(second.code).toBe(9);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(
      /^error: Another `creators events tail` is using the cursor file '.*events\.cursor' \(process \d+ on this machine, since \S+\); nothing was delivered\./m,
    );
    expect(done.code).toBe(0);
    const all = await allEvents(sub);
    expect(all.length).toBeGreaterThan(0);
    expect(ids(done.stdout).sort((a, b) => a - b)).toEqual(all);
    expect(existsSync(`${cursor}.lock`)).toBe(false);
  });

  it('a tail killed with -9 leaves its lock; the next run takes it over and delivers', async () => {
    const sub = await subscribe(listenSb.get(), 'locks-b', ['lock_ev_c']);
    listenSb.advance(3_600_000);
    const cursor = join(tempDir('creators-cursor-'), 'events.cursor');
    const args = [
      'events',
      'tail',
      '--once',
      '--backlog',
      'all',
      '--subscription',
      String(sub),
      '--cursor-file',
      cursor,
    ];
    faults(listenSb.get(), SLOW_READ);
    const killed = start(args, env());
    await until(() => injected(listenSb.get()) === 1);
    killed.kill('SIGKILL');
    await killed.done;
    faults(listenSb.get(), '');
    expect(existsSync(`${cursor}.lock`)).toBe(true);
    const next = await spawnCli(args, env());
    expect(next.code).toBe(0);
    expect(ids(next.stdout).sort((a, b) => a - b)).toEqual(await allEvents(sub));
    expect(existsSync(`${cursor}.lock`)).toBe(false);
  });
});
