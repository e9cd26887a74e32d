import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { call, L, subscribe, useClockedSandbox } from '../commands/listening/helpers.js';
import { tempDir } from '../helpers/temp.js';

/** End-to-end: the built CLI tails events from the sandbox across runs, and stops cleanly on Ctrl-C. */
const sb = useClockedSandbox({ seed: 31 });
const fast = useSandbox({ seed: 37, rateLimit: 1_000_000 });
const env = (): Record<string, string> => ({ ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: tempDir('creators-e2e-') });
const ids = (stdout: string): number[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: number }).id);

describe('bin/creators.js events tail', () => {
  it('a cron-style --once with --cursor-file gets exactly the events since its last run', async () => {
    const sub = await subscribe(sb.get(), 'cron', ['cron_a', 'cron_b', 'cron_c']);
    sb.advance(3_600_000);
    const cursor = join(tempDir('creators-cron-'), 'events.cursor');
    const args = ['events', 'tail', '--once', '--subscription', String(sub), '--cursor-file', cursor];
    const first = await spawnCli([...args, '--backlog', 'all'], env());
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    sb.advance(3_600_000);
    const second = await spawnCli(args, env());
    expect(second.code).toBe(0);
    const empty = await spawnCli(args, env());
    expect(empty.stdout).toBe('');
    const all: number[] = [];
    for (let page = 1; ; page++) {
      const res = await call(sb.get(), 'GET', `${L}/events/?subscription_id=${sub}&page_size=100&page=${page}`);
      all.push(...res.body.results.map((e: { id: number }) => e.id));
      if (!res.body.next) break;
    }
    const got = [...ids(first.stdout), ...ids(second.stdout)];
    expect(ids(second.stdout).length).toBeGreaterThan(0);
    expect(got.sort((a, b) => a - b)).toEqual(all.sort((a, b) => a - b));
  });

  it('Ctrl-C ends a running tail with exit 130 after saving the cursor', async () => {
    const sub = await subscribe(sb.get(), 'sigint', ['sig_a', 'sig_b']);
    sb.advance(3_600_000);
    const cursor = join(tempDir('creators-sig-'), 'c');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'events',
        'tail',
        '--backlog',
        'all',
        '--interval',
        '30',
        '--subscription',
        String(sub),
        '--cursor-file',
        cursor,
      ],
      {
        env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env() },
      },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    let sent = false;
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        // Once, as soon as events flow: the batch in hand is finished and saved before the exit
        // (a second Ctrl-C would force an immediate exit).
        if (!sent) child.kill('SIGINT');
        sent = true;
      });
      child.on('close', resolve);
    });
    expect(code).toBe(130);
    // The way a tail ends, not a failure: no error line.
    expect(err).not.toMatch(/error|Interrupted/);
    const saved = JSON.parse(readFileSync(cursor, 'utf8')) as { last_id: number };
    expect(saved.last_id).toBe(Math.max(...ids(out)));
  });

  it('kill -9 mid-backlog: the next run re-delivers at most the last write (1,000 events), misses none', async () => {
    const sub = await subscribe(fast.get(), 'kill', ['kill_a', 'kill_b']);
    const seeded = await call(fast.get(), 'POST', '/_sandbox/listening/seed', { events: 8_000, subscription_id: sub });
    expect(seeded.status).toBe(200);
    const cursor = join(tempDir('creators-kill-'), 'c');
    const runEnv = {
      ...sandboxEnv(fast.get()),
      CREATORS_CONFIG_DIR: tempDir('creators-e2e-'),
      CREATORS_RATE_LIMIT: '1000000',
    };
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
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...runEnv },
    });
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        // Mid-run, well before the last write (which hands over the reorder window's 2,000 at once).
        if (out.split('\n').length > 3_000) child.kill('SIGKILL');
      });
      child.on('close', () => resolve());
    });
    const first = ids(out);
    expect(first.length).toBeLessThan(8_000);
    const second = await spawnCli(args, runEnv);
    expect(second.code).toBe(0);
    const again = ids(second.stdout);
    const twice = again.filter((id) => first.includes(id));
    // Events are written 1,000 at a time, the cursor saved after each write: only the last write can come again.
    expect(twice.length).toBeLessThanOrEqual(1_000);
    expect(twice).toEqual(first.slice(first.length - twice.length));
    expect(new Set([...first, ...again]).size).toBe(8_000);
  });
});
