import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { mockApi, JSON_HEADERS } from '../../helpers/mock-api.js';
import { subscribe, useClockedSandbox } from './helpers.js';

const sb = useClockedSandbox({ seed: 13 });
const env = (): Record<string, string> => sandboxEnv(sb.get());
const EVENTS = '/public/v1/social/listening/events/';

describe('creators events list / get', () => {
  it('one page by default, --page/--page-size, --all follows next, filters go to the query', async () => {
    const sub = await subscribe(sb.get(), 'list', ['l1', 'l2', 'l3']);
    sb.advance(2 * 3_600_000);
    const first = await runCli(['events', 'list', '--subscription', String(sub), '--page-size', '5', '--json'], { env: env() });
    expect(first.code).toBe(0);
    expect(first.json<unknown[]>()).toHaveLength(5);
    expect(first.stderr).toMatch(/event\(s\) in all; this was page 1\. Use --page 2 or --all/);
    const all = await runCli(['events', 'list', '--subscription', String(sub), '--page-size', '7', '--all', '--format', 'jsonl'], { env: env() });
    const ids = all.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(7);
    const second = await runCli(['events', 'list', '--subscription', String(sub), '--page-size', '5', '--page', '2', '--json'], { env: env() });
    expect(second.json<{ id: number }[]>().map((e) => e.id)).toEqual(ids.slice(5, 10));
    const typed = await runCli(['events', 'list', '--type', 'bio_change', '--page-size', '100', '--json'], { env: env() });
    expect(typed.json<{ event_type: string }[]>().every((e) => e.event_type === 'bio_change')).toBe(true);
    const table = await runCli(['events', 'list', '--subscription', String(sub)], { env: env(), tty: true });
    expect(table.stdout).toContain('Occurred');
    expect(table.stdout).toContain('Delivery');
  });

  it('server errors are reported: 422 unknown type, 404 past the last page; bad flags exit 2', async () => {
    const type = await runCli(['events', 'list', '--type', 'nope'], { env: env() });
    expect(type.code).toBe(1);
    expect(type.stderr).toContain('nope is not one of the available choices');
    const past = await runCli(['events', 'list', '--page', '9999'], { env: env() });
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('Invalid page.');
    for (const argv of [['events', 'list', '--page', '0'], ['events', 'list', '--subscription', 'abc'], ['events', 'list', '--page-size', 'x']]) {
      expect((await runCli(argv, { env: env() })).code).toBe(2);
    }
  });

  it('get shows the delivery history (table on a terminal, everything in json)', async () => {
    const list = await runCli(['events', 'list', '--json'], { env: env() });
    const id = String(list.json<{ id: number }[]>()[0]?.id);
    const json = await runCli(['events', 'get', id, '--json'], { env: env() });
    const event = json.json<{ delivery_history: unknown[]; creator: unknown }>();
    expect(event.delivery_history.length).toBeGreaterThan(0);
    const table = await runCli(['events', 'get', id], { env: env(), tty: true });
    expect(table.stdout).toContain('delivery_history:');
    expect(table.stdout).toContain('Attempted');
    expect((await runCli(['events', 'get', '12/3'], { env: env() })).code).toBe(2);
  });
});

describe('creators events tail (edges)', () => {
  it('human lines on a terminal, JSON lines when piped; --fields applies', async () => {
    const tty = await runCli(['events', 'tail', '--once', '--backlog', '3'], { env: env(), tty: true });
    expect(tty.code).toBe(0);
    const rows = tty.stdout.trim().split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}#\d+ {2}(new_post|bio_change|follower_threshold)\s+instagram\//);
    const piped = await runCli(['events', 'tail', '--once', '--backlog', '2', '--fields', 'id,event_type'], { env: env() });
    const lines = piped.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(Object.keys(lines[0] ?? {})).toEqual(['id', 'event_type']);
  });

  it('refuses bad flags, csv, -o and a corrupt cursor file with exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'creators-tail-bad-'));
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
    pool.intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' }).reply(500, { detail: 'boom' }, JSON_HEADERS).times(2);
    pool.intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' }).replyWithError(new Error('socket hang up'));
    const event = { id: 1, event_type: 'new_post', creator: { platform: 'instagram', platform_id: 'x' }, date_occurance: '2026-11-22T09:00:00Z', created_at: '2026-11-22T09:01:00Z' };
    pool.intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' }).reply(200, { count: 1, next: null, previous: null, results: [event] }, JSON_HEADERS).persist();
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
    expect(res.stderr).toContain('warning: could not read events: Server error (HTTP 500): boom. Trying again in 10 s.');
    expect(res.stderr).toMatch(/Trying again in 20 s\./);
    expect(res.stderr).toMatch(/Trying again in 40 s\./);
    expect(JSON.parse(res.stdout.trim())).toMatchObject({ id: 1 });
    expect(sleeps.filter((ms) => ms >= 10_000)).toEqual([10_000, 20_000, 40_000, 10_000]);
  });

  it('--once exits with the error when the server cannot be read (no silent hang)', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    pool.intercept({ path: (p) => p.startsWith(EVENTS), method: 'GET' }).reply(401, { detail: 'Invalid token.' }, JSON_HEADERS);
    const res = await runCli(['events', 'tail', '--once'], { env: mockEnv, dispatcher: agent });
    expect(res.code).toBe(4);
  });
});
