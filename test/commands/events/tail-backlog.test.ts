import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { call, subscribe } from '../listening/helpers.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * A backlog above the size that broke the old batch (about 62,000 events: every id spread into one
 * Math.max call): streamed oldest first, the cursor moving as lines are delivered, so a run stopped in
 * the middle resumes exactly where it was. The bench (`npm run bench -- --only events`) runs the same
 * with a million events and reports the peak RSS.
 */
const BACKLOG = 70_000;
const sb = useSandbox({ seed: 41, rateLimit: 1_000_000 });
const env = (): Record<string, string> => sandboxEnv(sb.get(), { CREATORS_RATE_LIMIT: '1000000' });

type Ev = { id: number; date_occurance: string };
const lines = (stdout: string): Ev[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Ev);

describe(`events tail over a backlog of ${BACKLOG.toLocaleString('en-US')} events`, () => {
  it('delivers every event once, in order of occurrence, and a run stopped midway resumes where it was', async () => {
    const sub = await subscribe(sb.get(), 'backlog', ['backlog_a', 'backlog_b', 'backlog_c']);
    const seeded = await call(sb.get(), 'POST', '/_sandbox/listening/seed', { events: BACKLOG, subscription_id: sub });
    expect(seeded.status).toBe(200);
    const cursor = join(tempDir('creators-backlog-'), 'events.cursor');
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
      '--retries',
      '0',
    ];
    const configDir = tempConfigDir();

    // The 301st page fails: what was read before it is delivered, and the cursor says so.
    await call(sb.get(), 'POST', '/_sandbox/faults', {
      spec: '500 GET /public/v1/social/listening/events/ after=300 count=1',
    });
    const stopped = await runCli(args, { env: env(), configDir });
    expect(stopped.code, stopped.stderr).toBe(1);
    const first = lines(stopped.stdout);
    expect(first.length).toBeGreaterThan(20_000);
    expect(first.length).toBeLessThan(BACKLOG);
    const saved = JSON.parse(readFileSync(cursor, 'utf8')) as { last_id: number; done_ids: number[] };
    expect(saved.last_id).toBe(Math.max(...first.slice(-1000).map((e) => e.id)));
    expect(saved.done_ids).toEqual([]);

    const resumed = await runCli(args, { env: env(), configDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    const rest = lines(resumed.stdout);
    const ids = [...first, ...rest].map((e) => e.id);
    expect(ids).toHaveLength(BACKLOG);
    expect(new Set(ids).size).toBe(BACKLOG);
    // In order of occurrence within each run.
    for (const run of [first, rest]) {
      const times = run.map((e) => Date.parse(e.date_occurance));
      expect(times.every((t, i) => i === 0 || t >= (times[i - 1] as number))).toBe(true);
    }
    expect(JSON.parse(readFileSync(cursor, 'utf8'))).toMatchObject({
      last_id: Math.max(...ids.slice(-1000)),
      done_ids: [],
    });

    const again = await runCli(args, { env: env(), configDir });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
  }, 180_000);
});

describe.each(['asc', 'desc'] as const)('events tail over pages listed %s', (order) => {
  it('a cursor finds its place across pages (a binary search), a first run takes the latest --backlog', async () => {
    await call(sb.get(), 'POST', '/_sandbox/listening/config', { order });
    const sub = await subscribe(sb.get(), `pages-${order}`, [`pages_${order}`]);
    await call(sb.get(), 'POST', '/_sandbox/listening/seed', { events: 1_000, subscription_id: sub });
    const cursor = join(tempDir('creators-pages-'), 'events.cursor');
    const configDir = tempConfigDir();
    const args = ['events', 'tail', '--once', '--subscription', String(sub), '--cursor-file', cursor];
    const firstRun = await runCli([...args, '--backlog', '150'], { env: env(), configDir });
    expect(firstRun.code, firstRun.stderr).toBe(0);
    const first = lines(firstRun.stdout).map((e) => e.id);
    expect(first).toHaveLength(150);
    const newest = Math.max(...first);
    expect([...first].sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => newest - 149 + i));

    await call(sb.get(), 'POST', '/_sandbox/listening/seed', { events: 450, subscription_id: sub });
    const secondRun = await runCli(args, { env: env(), configDir });
    expect(secondRun.code, secondRun.stderr).toBe(0);
    const second = lines(secondRun.stdout).map((e) => e.id);
    expect([...second].sort((a, b) => a - b)).toEqual(Array.from({ length: 450 }, (_, i) => newest + 1 + i));
    await call(sb.get(), 'POST', '/_sandbox/listening/config', { order: 'desc' });
  });
});

describe('events tail --cursor-file names its server, profile and filters', () => {
  it('a cursor used against another server, profile or filters is refused (exit 2, both named) unless --cursor-reset', async () => {
    const sub = await subscribe(sb.get(), 'identity', ['id_a']);
    await call(sb.get(), 'POST', '/_sandbox/listening/seed', { events: 60, subscription_id: sub });
    const dir = tempDir('creators-cursor-id-');
    const cursor = join(dir, 'events.cursor');
    const configDir = tempConfigDir();
    const base = ['events', 'tail', '--once', '--subscription', String(sub), '--cursor-file', cursor];
    const made = await runCli([...base, '--backlog', '0'], { env: env(), configDir });
    expect(made.code, made.stderr).toBe(0);
    const written = JSON.parse(readFileSync(cursor, 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({
      version: 2,
      base_url: `${sb.get().url}/`,
      profile: 'default',
      filters: { subscription_id: String(sub) },
    });

    // Another server at the same cursor: its 60 events would all be at or below the watermark.
    const other = { ...env(), CREATORS_BASE_URL: 'http://127.0.0.1:9/' };
    const elsewhere = await runCli(base, { env: other, configDir });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stdout).toBe('');
    expect(elsewhere.stderr).toContain(
      `was written for ${sb.get().url}/ (profile default, filters subscription_id=${sub}), not http://127.0.0.1:9/ (profile default, filters subscription_id=${sub})`,
    );
    expect(elsewhere.stderr).toContain(
      'add --cursor-reset to start this one over here (from the latest events, as --backlog says).',
    );
    const profile = await runCli(['--profile', 'work', ...base], { env: env(), configDir });
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('(profile work,');
    const filters = await runCli([...base, '--type', 'new_post'], { env: env(), configDir });
    expect(filters.code).toBe(2);
    expect(filters.stderr).toContain('filters event_type=new_post subscription_id=');

    // A watermark past every event the server has (a reset server, a hand-edited file).
    writeFileSync(cursor, JSON.stringify({ ...written, last_id: 1e308 }));
    const beyond = await runCli(base, { env: env(), configDir });
    expect(beyond.code).toBe(2);
    expect(beyond.stdout).toBe('');
    expect(beyond.stderr).toMatch(/has handled events up to id 1e\+308, but .* has none above id \d+/);
    expect(JSON.parse(readFileSync(cursor, 'utf8')).last_id).toBe(1e308);
    const reset = await runCli([...base, '--cursor-reset', '--backlog', '5'], { env: env(), configDir });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain(`--cursor-reset: the cursor file '${cursor}' starts over here.`);
    expect(lines(reset.stdout)).toHaveLength(5);
    expect(JSON.parse(readFileSync(cursor, 'utf8')).last_id).toBe(Math.max(...lines(reset.stdout).map((e) => e.id)));

    // A file from before the cursor named its server: adopted once, with a notice, and saved with it.
    writeFileSync(
      cursor,
      JSON.stringify({
        version: 1,
        last_id: 0,
        last_date: null,
        done_ids: [],
        filters: { subscription_id: String(sub) },
        saved_at: '',
      }),
    );
    const legacy = await runCli(base, { env: env(), configDir });
    expect(legacy.code, legacy.stderr).toBe(0);
    expect(legacy.stderr).toContain('names no server (written by an older version): taken as written for');
    expect(lines(legacy.stdout).length).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(cursor, 'utf8'))).toMatchObject({
      version: 2,
      base_url: `${sb.get().url}/`,
      profile: 'default',
    });
  });

  it("--profile '' is a usage error (exit 2), not the default profile", async () => {
    const res = await runCli(['--profile', '', 'events', 'list'], { env: env(), configDir: tempConfigDir() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("Invalid profile name ''.");
  });
});
