import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { mockApi, JSON_HEADERS } from '../../helpers/mock-api.js';
import { subscribe, useClockedSandbox } from '../listening/helpers.js';
import { tempDir } from '../../helpers/temp.js';
import { displayWidth } from '../../../src/lib/io/width.js';

const sb = useClockedSandbox({ seed: 13 });
const env = (): Record<string, string> => sandboxEnv(sb.get());
const EVENTS = '/public/v1/social/listening/events/';

/** Terminal event lines grouped by event: an event's further lines are indented. */
function eventsOf(stdout: string): string[][] {
  const events: string[][] = [];
  for (const line of stdout.trimEnd().split('\n')) {
    if (line.startsWith('  ')) events.at(-1)?.push(line);
    else events.push([line]);
  }
  return events;
}

describe('creators events tail (edges)', () => {
  beforeAll(async () => {
    await subscribe(sb.get(), 'tail', ['t1', 't2', 't3']);
    sb.advance(2 * 3_600_000);
  });

  it('human lines on a terminal, JSON lines when piped; --fields applies', async () => {
    const tty = await runCli(['events', 'tail', '--once', '--backlog', '3'], { env: env(), tty: true });
    expect(tty.code).toBe(0);
    const rows = tty.stdout.trim().split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z]{3,4}([+-]\d+(:\d\d)?)? {2}#\d+ {2}(new_post|bio_change|follower_threshold)\s+instagram\//,
    );
    const piped = await runCli(['events', 'tail', '--once', '--backlog', '2', '--fields', 'id,event_type'], {
      env: env(),
    });
    const lines = piped.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(Object.keys(lines[0] ?? {})).toEqual(['id', 'event_type']);
  });

  it('--fields with a path no event line has: one warning with the nearest path, at the end of --once or of a Ctrl-C', async () => {
    const once = await runCli(['events', 'tail', '--once', '--backlog', '2', '--fields', 'id,evnt_type'], {
      env: env(),
    });
    expect(once.code, once.stderr).toBe(0);
    expect(once.stdout.trim().split('\n')).toHaveLength(2);
    expect(once.stderr).toBe("warning: --fields: no record has 'evnt_type'; did you mean 'event_type'?\n");
    const controller = new AbortController();
    const stopped = await runCli(['events', 'tail', '--backlog', '2', '--fields', 'id,evnt_type'], {
      env: env(),
      signal: controller.signal,
      onSleep: () => controller.abort(),
    });
    expect(stopped.code).toBe(130);
    expect(stopped.stderr.match(/warning: --fields: no record has 'evnt_type'/g)).toHaveLength(1);
    // Ctrl-C is how a tail ends: exit 130 for scripts, and no error line.
    expect(stopped.stderr).not.toMatch(/error|Interrupted/);
    const fine = await runCli(['events', 'tail', '--once', '--backlog', '2', '--fields', 'id,event_type'], {
      env: env(),
    });
    expect(fine.stderr).toBe('');
  });

  it('a cursor lock a crash left behind never blocks the next tail: a pid reused after a reboot, a dangling symlink, an empty folder', async () => {
    const dir = tempDir('creators-tail-lock-');
    const cursor = join(dir, 'c.cursor');
    const lock = `${cursor}.lock`;
    const leftovers: Array<[string, () => void]> = [
      // pid 1 always runs, but this lock was written before the machine last booted.
      [
        'pid 1 of an earlier boot',
        () =>
          writeFileSync(
            lock,
            JSON.stringify({
              id: 'old',
              pid: 1,
              host: hostname(),
              since: '2020-01-01T00:00:00.000Z',
              boot: 'an-earlier-boot',
            }),
          ),
      ],
      ['a dangling symlink', () => symlinkSync(join(dir, 'gone'), lock)],
      ['an empty folder', () => mkdirSync(lock)],
    ];
    for (const [what, leave] of leftovers) {
      leave();
      const res = await runCli(['events', 'tail', '--once', '--backlog', '1', '--cursor-file', cursor], { env: env() });
      expect(res.code, `${what}: ${res.stderr}`).toBe(0);
      expect(readdirSync(dir).sort(), what).toEqual(['c.cursor']);
    }
  });

  it('refuses bad flags, csv, -o and a corrupt cursor file with exit 2', async () => {
    const dir = tempDir('creators-tail-bad-');
    writeFileSync(join(dir, 'bad.cursor'), 'not json');
    const cases: [string[], RegExp][] = [
      [['events', 'tail', '--interval', '0'], /Invalid --interval/],
      [['events', 'tail', '--forward-to', 'nope'], /Invalid --forward-to/],
      [['events', 'tail', '--backlog', '-1'], /--backlog/],
      [['events', 'tail', '--format', 'csv'], /not csv/],
      [['events', 'tail', '-o', join(dir, 'x.jsonl')], /stdout only/],
      [['events', 'tail', '--cursor-file', join(dir, 'missing', 'c')], /folder does not exist/],
      [['events', 'tail', '--once', '--cursor-file', join(dir, 'bad.cursor')], /not one written by/],
    ];
    for (const [argv, message] of cases) {
      const res = await runCli(argv, { env: env() });
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
    }
  });

  it('network and server errors back off with a visible message, then carry on', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    pool
      .intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' })
      .reply(500, { detail: 'boom' }, JSON_HEADERS)
      .times(2);
    pool.intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' }).replyWithError(new Error('socket hang up'));
    const event = {
      id: 1,
      event_type: 'new_post',
      creator: { platform: 'instagram', platform_id: 'x' },
      date_occurance: '2026-11-22T09:00:00Z',
      created_at: '2026-11-22T09:01:00Z',
    };
    pool
      .intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' })
      .reply(200, { count: 1, next: null, previous: null, results: [event] }, JSON_HEADERS)
      .persist();
    const controller = new AbortController();
    const sleeps: number[] = [];
    let tens = 0;
    const res = await runCli(['events', 'tail', '--interval', '10', '--retries', '0'], {
      env: mockEnv,
      dispatcher: agent,
      signal: controller.signal,
      sleeps,
      onSleep: (ms) => {
        // The first 10 s wait is the first backoff; the second is the poll interval after success.
        if (ms === 10_000 && ++tens === 2) controller.abort();
      },
    });
    expect(res.code).toBe(130);
    expect(res.stderr).toContain(
      'warning: could not read events: Server error (HTTP 500): boom. Trying again in 10 s.',
    );
    expect(res.stderr).toMatch(/Trying again in 20 s\./);
    expect(res.stderr).toMatch(/Trying again in 40 s\./);
    expect(JSON.parse(res.stdout.trim())).toMatchObject({ id: 1 });
    expect(sleeps.filter((ms) => ms >= 10_000)).toEqual([10_000, 20_000, 40_000, 10_000]);
  });

  it('an answer that is not an events page (a gateway for a while) is waited out like a 500; --once exits 1 with it', async () => {
    const event = {
      id: 1,
      event_type: 'new_post',
      creator: { platform: 'instagram', platform_id: 'x' },
      date_occurance: '2026-11-22T09:00:00Z',
      created_at: '2026-11-22T09:01:00Z',
    };
    const { agent, pool, env: mockEnv } = mockApi();
    pool
      .intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' })
      .reply(200, { message: 'Internal error' }, JSON_HEADERS);
    pool
      .intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' })
      .reply(200, { count: 1, next: null, previous: null, results: [event] }, JSON_HEADERS)
      .persist();
    const controller = new AbortController();
    let tens = 0;
    const res = await runCli(['events', 'tail', '--interval', '10', '--retries', '0'], {
      env: mockEnv,
      dispatcher: agent,
      signal: controller.signal,
      // The first 10 s wait is the backoff after the gateway's answer; the second, the poll interval after success.
      onSleep: (ms) => {
        if (ms === 10_000 && ++tens === 2) controller.abort();
      },
    });
    expect(res.code).toBe(130);
    expect(res.stderr).toContain(
      "warning: could not read events: The server's answer to GET /public/v1/social/listening/events/ does not have the endpoint's shape (HTTP 200): results is missing",
    );
    expect(JSON.parse(res.stdout.trim())).toMatchObject({ id: 1 });
    const once = mockApi();
    once.pool
      .intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' })
      .reply(200, { message: 'Internal error' }, JSON_HEADERS);
    const failed = await runCli(['events', 'tail', '--once', '--retries', '0'], {
      env: once.env,
      dispatcher: once.agent,
    });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
  });

  it('--once exits with the error when the server cannot be read (no silent hang)', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    pool
      .intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' })
      .reply(401, { detail: 'Invalid token.' }, JSON_HEADERS);
    const res = await runCli(['events', 'tail', '--once'], { env: mockEnv, dispatcher: agent });
    expect(res.code).toBe(4);
  });

  it('--forward-to: each POST names its event in X-Creators-Event-Id; status lines fit the terminal, whole when piped', async () => {
    const got: { header: string | undefined; id: number }[] = [];
    let fails = 1;
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({
          header: req.headers['x-creators-event-id'] as string | undefined,
          id: (JSON.parse(body) as { id: number }).id,
        });
        res.writeHead(fails-- > 0 ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${'very-long-path-segment/'.repeat(6)}`;
      const tty = await runCli(['events', 'tail', '--once', '--backlog', '3', '--forward-to', url, '--no-color'], {
        env: env(),
        tty: true,
        columns: 60,
      });
      expect(tty.code).toBe(0);
      // Every POST (the failed first attempt included) carries the id of the event in its body.
      expect(got.length).toBe(4);
      for (const g of got) expect(g.header).toBe(String(g.id));
      expect(got[0]?.header).toBe(got[1]?.header);
      const out = eventsOf(tty.stdout);
      expect(out).toHaveLength(3);
      for (const lines of out) {
        for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
        expect(lines[0]).toMatch(/^\S+ \S+ \S+ {2}#\d+ {2}\S+/);
        expect(lines.join('\n')).toMatch(/ instagram\/t\d( |\n|$)/);
        expect(lines.at(-1)).toMatch(/ {2}-> forwarded \(HTTP 200\)$/);
      }
      const err = tty.stderr.trimEnd().split('\n');
      for (const line of err) expect(displayWidth(line)).toBeLessThanOrEqual(60);
      expect(err[0]).toMatch(/^warning: forward of event \d+ to http:\/\/127\.0\.0\.1:\d+ f.*…$/);

      fails = 1;
      got.length = 0;
      const piped = await runCli(['events', 'tail', '--once', '--backlog', '3', '--forward-to', url], {
        env: env(),
        columns: 60,
      });
      expect(piped.code).toBe(0);
      expect(piped.stderr).toMatch(
        /^warning: forward of event \d+ to http:\/\/127\.0\.0\.1:\d+ failed \(HTTP 500\); attempt 2 of 5 in 1 s\n/,
      );
      expect(
        piped.stdout
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { id: number }).id),
      ).toEqual(got.slice(1).map((g) => g.id));
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('human lines are whole when piped (--format table); on a narrow terminal the first line of an event says who and what happened, nothing named is cut', async () => {
    const wide = await runCli(['events', 'tail', '--once', '--backlog', '3', '--format', 'table'], {
      env: env(),
      columns: 40,
    });
    const narrow = await runCli(['events', 'tail', '--once', '--backlog', '3', '--no-color'], {
      env: env(),
      tty: true,
      columns: 40,
    });
    const w = wide.stdout.trimEnd().split('\n');
    const n = eventsOf(narrow.stdout);
    expect(w).toHaveLength(3);
    expect(n).toHaveLength(3);
    expect(w.some((l) => displayWidth(l) > 40)).toBe(true);
    expect(w.every((l) => !l.includes('…'))).toBe(true);
    for (const [i, lines] of n.entries()) {
      // The same event, its first line saying who and what happened, whole (the date and time gave way).
      const [, type, who] = /#\d+ +(\S+) +(instagram\/\S+)/.exec(w[i] ?? '') ?? [];
      expect(` ${lines[0] ?? ''} `).toContain(` ${type ?? '?'}  ${who ?? '?'} `);
      expect(lines.slice(1).every((line) => line.startsWith('  ') && displayWidth(line) <= 40)).toBe(true);
    }
  });

  it('--dry-run prints the plan of its first read: no event, no cursor file, nothing forwarded', async () => {
    const dir = tempDir('creators-tail-dry-');
    const cursor = join(dir, 'events.cursor');
    let hits = 0;
    const receiver = createServer((req, res) => {
      hits++;
      req.resume();
      res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const dry = await runCli(
        [
          'events',
          'tail',
          '--once',
          '--backlog',
          '2',
          '--cursor-file',
          cursor,
          '--forward-to',
          `http://127.0.0.1:${port}/hook`,
          '--dry-run',
        ],
        { env: env() },
      );
      expect(dry.code).toBe(0);
      const plan = JSON.parse(dry.stdout) as {
        dry_run: boolean;
        method: string;
        url: string;
        worst_case_credits: number;
      };
      expect(plan).toMatchObject({ dry_run: true, method: 'GET', worst_case_credits: 0 });
      expect(new URL(plan.url).pathname).toBe('/public/v1/social/listening/events/');
      expect(existsSync(cursor)).toBe(false);
      expect(hits).toBe(0);
      // The same run for real writes the cursor and forwards both events.
      const real = await runCli(
        [
          'events',
          'tail',
          '--once',
          '--backlog',
          '2',
          '--cursor-file',
          cursor,
          '--forward-to',
          `http://127.0.0.1:${port}/hook`,
        ],
        { env: env() },
      );
      expect(real.code).toBe(0);
      expect(existsSync(cursor)).toBe(true);
      expect(hits).toBe(2);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
