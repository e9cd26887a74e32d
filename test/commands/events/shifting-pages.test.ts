import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv, type StartedSandbox } from '../../helpers/sandbox.js';
import { call, L, START, subscribe } from '../listening/helpers.js';

/**
 * Events arriving while `events list --all` (or `events tail`) pages through a newest-first list shift
 * every page down: the last event of one page comes back at the top of the next. Each event id is
 * printed once however the pages shift, and the pages asked for are the largest (100), not the
 * server's default of 10.
 */
let clock = START;
/** While set, each events page the sandbox answers is followed by 2 minutes of new events. */
let shifting = false;
const requests: string[] = [];
let sb: StartedSandbox;

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 21,
    now: () => clock,
    log: (line) => {
      if (!line.includes(`${L}/events/`)) return;
      requests.push(line);
      if (shifting) clock += 2 * 60_000;
    },
  });
  const handles = sb.state.creators
    .list('instagram')
    .slice(0, 25)
    .map((c) => c.profile.username);
  await subscribe(sb, 'shift', handles);
  clock += 4 * 86_400_000;
  expect((await call(sb, 'POST', '/_sandbox/listening/config', { order: 'desc' })).status).toBe(200);
});
afterAll(async () => {
  await sb?.close();
});

async function eventCount(): Promise<number> {
  const res = await call(sb, 'GET', `${L}/events/?page_size=1`);
  return Number(res.body.count);
}

function ids(stdout: string): number[] {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => Number((JSON.parse(l) as { id: number }).id));
}

describe('events paged while new ones arrive', () => {
  it('events list --all: 100 a page, every event once, none of those there at the start missed', async () => {
    const before = await eventCount();
    expect(before).toBeGreaterThan(300);
    requests.length = 0;
    shifting = true;
    const res = await runCli(['events', 'list', '--all', '--format', 'jsonl'], {
      env: sandboxEnv(sb),
      configDir: tempConfigDir(),
    });
    shifting = false;
    const sent = [...requests];
    expect(res.code, res.stderr).toBe(0);
    const printed = ids(res.stdout);
    expect(new Set(printed).size).toBe(printed.length);
    // New events arrived while paging (the pages shifted), and every event there at the start is printed.
    const after = await eventCount();
    expect(after).toBeGreaterThan(before);
    const all = new Set(printed);
    for (let id = 1; id <= before; id++) expect(all.has(id), `event ${id}`).toBe(true);
    expect(sent.every((r) => r.includes('page_size=100'))).toBe(true);
    // A page per 100 events (the pages the new events pushed down included), not one per 10.
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(after / 100) + 1);
  });

  it('events list --all on a terminal shows a progress line: pages and events of the count, no credits', async () => {
    const total = await eventCount();
    const res = await runCli(['events', 'list', '--all', '--format', 'jsonl', '-o', 'events.jsonl'], {
      env: sandboxEnv(sb),
      configDir: tempConfigDir(),
      stderrTTY: true,
      cwd: tempConfigDir(),
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(new RegExp(`\\r\\x1b\\[2Kevents: 1 page, 100/${total.toLocaleString('en-US')} events`));
    expect(res.stderr).not.toMatch(/credit/);
    const piped = await runCli(['events', 'list', '--all', '--format', 'jsonl'], {
      env: sandboxEnv(sb),
      configDir: tempConfigDir(),
    });
    expect(piped.stderr).not.toMatch(/events: 1 page/);
  });

  it('events tail --once --backlog all: 100 a page, every event once, none of those there at the start missed', async () => {
    const before = await eventCount();
    requests.length = 0;
    shifting = true;
    const res = await runCli(['events', 'tail', '--once', '--backlog', 'all'], {
      env: sandboxEnv(sb),
      configDir: tempConfigDir(),
    });
    shifting = false;
    expect(res.code, res.stderr).toBe(0);
    const printed = ids(res.stdout);
    expect(printed.length).toBeGreaterThan(300);
    expect(new Set(printed).size).toBe(printed.length);
    const all = new Set(printed);
    for (let id = 1; id <= before; id++) expect(all.has(id), `event ${id}`).toBe(true);
    // Oldest first, page after page: at most three requests a page while every page shifts under the read.
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThanOrEqual(3 * Math.ceil(printed.length / 100) + 4);
    expect(requests.every((r) => r.includes('page_size=100'))).toBe(true);
  });
});
