import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { call, L, subscribe, useClockedSandbox } from '../../commands/listening/helpers.js';
import { tempDir } from '../../helpers/temp.js';

const MIN = 60_000;
const sb = useClockedSandbox({ seed: 21 });

type Ev = { id: number; date_occurance: string; event_type: string };

/** Every event of a subscription the sandbox has produced so far (set-up check, straight from the API). */
async function allEvents(subscription: number): Promise<Ev[]> {
  const out: Ev[] = [];
  for (let page = 1; ; page++) {
    const res = await call(sb.get(), 'GET', `${L}/events/?subscription_id=${subscription}&page_size=100&page=${page}`);
    out.push(...res.body.results);
    if (!res.body.next) return out;
  }
}

function lines(stdout: string): Ev[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Ev);
}

/** Runs a tail that stops (Ctrl-C) after `polls` intervals; each sleep moves the sandbox clock. */
async function tailFor(args: string[], polls: number): Promise<Awaited<ReturnType<typeof runCli>>> {
  const controller = new AbortController();
  let intervals = 0;
  return runCli(['events', 'tail', '--interval', '60', ...args], {
    env: sandboxEnv(sb.get()),
    signal: controller.signal,
    onSleep: (ms) => {
      sb.advance(ms);
      if (ms === 60_000 && ++intervals >= polls) controller.abort();
    },
  });
}

describe.each(['desc', 'asc'] as const)('events tail with the server listing %s', (order) => {
  it('stopped and restarted with --cursor-file, loses and repeats nothing, in order of occurrence per batch', async () => {
    await call(sb.get(), 'POST', '/_sandbox/listening/config', { order });
    const dir = tempDir('creators-tail-');
    const cursor = join(dir, 'events.cursor');
    const sub = await subscribe(
      sb.get(),
      `tail-${order}`,
      ['t1', 't2', 't3', 't4', 't5', 't6'].map((h) => `${order}_${h}`),
    );
    sb.advance(150 * MIN); // a backlog of more than one 50-event page
    const backlog = await allEvents(sub);
    expect(backlog.length).toBeGreaterThan(60);

    const first = await tailFor(['--subscription', String(sub), '--cursor-file', cursor, '--backlog', 'all'], 4);
    expect(first.code).toBe(130);
    const cursorData = JSON.parse(readFileSync(cursor, 'utf8'));
    expect(cursorData).toMatchObject({ version: 2, done_ids: [], filters: { subscription_id: String(sub) } });

    sb.advance(45 * MIN); // events keep coming while nobody is tailing
    const second = await tailFor(['--subscription', String(sub), '--cursor-file', cursor], 3);
    expect(second.code).toBe(130);
    const third = await runCli(['events', 'tail', '--once', '--subscription', String(sub), '--cursor-file', cursor], {
      env: sandboxEnv(sb.get()),
    });
    expect(third.code).toBe(0);

    const seen = [...lines(first.stdout), ...lines(second.stdout), ...lines(third.stdout)];
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length); // none twice
    const everything = await allEvents(sub);
    expect([...ids].sort((a, b) => a - b)).toEqual(everything.map((e) => e.id).sort((a, b) => a - b)); // none skipped
    expect(lines(second.stdout).length).toBeGreaterThan(0);
    // The first batch (the backlog) is printed in order of occurrence.
    const firstBatch = lines(first.stdout)
      .slice(0, backlog.length)
      .map((e) => Date.parse(e.date_occurance));
    expect(firstBatch).toEqual([...firstBatch].sort((a, b) => a - b));
  });
});

describe('events tail --forward-to', () => {
  let server: Server;
  let url = '';
  const received: { id: number; status: number }[] = [];
  let failFirst = 0;
  let failId: number | undefined;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const event = JSON.parse(body) as { id: number };
        const fail = failFirst > 0 || event.id === failId;
        if (failFirst > 0) failFirst--;
        received.push({ id: event.id, status: fail ? 500 : 202 });
        res.writeHead(fail ? 500 : 202).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('retries a receiver that fails a few times first, reports it, and delivers each event once', async () => {
    await call(sb.get(), 'POST', '/_sandbox/listening/config', { order: 'desc' });
    const sub = await subscribe(sb.get(), 'fwd', ['fwd_a', 'fwd_b']);
    sb.advance(40 * MIN);
    const expected = await allEvents(sub);
    expect(expected.length).toBeGreaterThan(2);
    received.length = 0;
    failFirst = 3;
    const dir = tempDir('creators-fwd-');
    const res = await runCli(
      [
        'events',
        'tail',
        '--once',
        '--backlog',
        'all',
        '--subscription',
        String(sub),
        '--forward-to',
        url,
        '--cursor-file',
        join(dir, 'c'),
      ],
      {
        env: sandboxEnv(sb.get()),
      },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/forward of event \d+ to http:\/\/127\.0\.0\.1:\d+ failed \(HTTP 500\); attempt 2 of 5/);
    expect(res.stderr).toContain('attempt 4 of 5');
    expect(res.stderr).toMatch(/forwarded event \d+: HTTP 202/);
    const delivered = received.filter((r) => r.status === 202).map((r) => r.id);
    expect(delivered.sort((a, b) => a - b)).toEqual(expected.map((e) => e.id).sort((a, b) => a - b));
    expect(
      lines(res.stdout)
        .map((e) => e.id)
        .sort((a, b) => a - b),
    ).toEqual(delivered);
  });

  it('when the retries run out: exit 1, the cursor stays before the event, the next run delivers it and nothing twice', async () => {
    const sub = await subscribe(sb.get(), 'fwd2', ['fwd_c', 'fwd_d', 'fwd_e']);
    sb.advance(40 * MIN);
    const expected = (await allEvents(sub)).sort(
      (a, b) => Date.parse(a.date_occurance) - Date.parse(b.date_occurance) || a.id - b.id,
    );
    const victim = expected[Math.floor(expected.length / 2)] as Ev;
    failId = victim.id;
    received.length = 0;
    const cursor = join(tempDir('creators-fwd-'), 'c');
    const args = [
      'events',
      'tail',
      '--once',
      '--backlog',
      'all',
      '--subscription',
      String(sub),
      '--forward-to',
      url,
      '--cursor-file',
      cursor,
    ];
    const failed = await runCli(args, { env: sandboxEnv(sb.get()) });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`Could not forward event ${victim.id}`);
    expect(failed.stderr).toContain('after 5 attempts');
    expect(received.filter((r) => r.id === victim.id)).toHaveLength(5);
    const before = lines(failed.stdout).map((e) => e.id);
    expect(before).not.toContain(victim.id);

    failId = undefined;
    const retried = await runCli(args, { env: sandboxEnv(sb.get()) });
    expect(retried.code).toBe(0);
    const after = lines(retried.stdout).map((e) => e.id);
    expect(after[0]).toBe(victim.id);
    expect([...before, ...after].sort((a, b) => a - b)).toEqual(expected.map((e) => e.id).sort((a, b) => a - b));
    const ok = received.filter((r) => r.status === 202).map((r) => r.id);
    expect(new Set(ok).size).toBe(ok.length);
  });
});
