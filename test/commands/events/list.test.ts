import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { refusedBeforeSending } from '../../helpers/mock-api.js';
import { subscribe, useClockedSandbox } from '../listening/helpers.js';

const sb = useClockedSandbox({ seed: 13 });
const env = (): Record<string, string> => sandboxEnv(sb.get());

describe('creators events list', () => {
  it('one page by default, --page/--page-size, --all follows next, filters go to the query', async () => {
    const sub = await subscribe(sb.get(), 'list', ['l1', 'l2', 'l3']);
    sb.advance(2 * 3_600_000);
    const first = await runCli(['events', 'list', '--subscription', String(sub), '--page-size', '5', '--json'], {
      env: env(),
    });
    expect(first.code).toBe(0);
    expect(first.json<unknown[]>()).toHaveLength(5);
    expect(first.stderr).toMatch(/^\d+ events in all; this was page 1\. Use --page 2 or --all/);
    const all = await runCli(
      ['events', 'list', '--subscription', String(sub), '--page-size', '7', '--all', '--format', 'jsonl'],
      { env: env() },
    );
    const ids = all.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(7);
    const second = await runCli(
      ['events', 'list', '--subscription', String(sub), '--page-size', '5', '--page', '2', '--json'],
      { env: env() },
    );
    expect(second.json<{ id: number }[]>().map((e) => e.id)).toEqual(ids.slice(5, 10));
    const typed = await runCli(['events', 'list', '--type', 'bio_change', '--page-size', '100', '--json'], {
      env: env(),
    });
    expect(typed.json<{ event_type: string }[]>().every((e) => e.event_type === 'bio_change')).toBe(true);
    const table = await runCli(['events', 'list', '--subscription', String(sub)], { env: env(), tty: true });
    expect(table.stdout).toContain('Occurred');
    expect(table.stdout).toContain('Delivery');
  });

  it('an unknown --type is refused before sending (exit 2, nearest type named); --unchecked-filters sends it', async () => {
    for (const verb of [
      ['events', 'list'],
      ['events', 'tail', '--once'],
    ]) {
      const refused = await runCli([...verb, '--type', 'bio_chnage'], { env: env() });
      expect(refused.code, verb.join(' ')).toBe(2);
      expect(refused.stderr).toContain("error: Unknown event type 'bio_chnage'. Did you mean 'bio_change'?");
      expect(refused.stderr).toContain('--unchecked-filters');
    }
    expect(await refusedBeforeSending(['events', 'list', '--type', 'bogus'])).toContain("Unknown event type 'bogus'.");
    const sent = await runCli(['events', 'list', '--type', 'nope', '--unchecked-filters'], { env: env() });
    expect(sent.stderr).toContain("warning: --unchecked-filters: sending --type 'nope'");
    expect(sent.code).toBe(1);
    expect(sent.stderr).toContain('nope is not one of the available choices');
  });

  it('server errors are reported: 404 past the last page; bad flags exit 2', async () => {
    const past = await runCli(['events', 'list', '--page', '9999'], { env: env() });
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('Invalid page.');
    for (const argv of [
      ['events', 'list', '--page', '0'],
      ['events', 'list', '--subscription', 'abc'],
      ['events', 'list', '--page-size', 'x'],
    ]) {
      expect((await runCli(argv, { env: env() })).code).toBe(2);
    }
  });
});

describe('creators events list --all with slow pages', () => {
  // Each reply: [arrival, reply] in wall time, from the sandbox's log line (`GET ... 200 401ms`).
  const spans: [number, number][] = [];
  const slow = useClockedSandbox({
    seed: 13,
    latency: 'listening=400ms',
    log: (line) => {
      const m = /^GET \/public\/v1\/social\/listening\/events\/\S* 200 (\d+)ms$/.exec(line);
      if (m) spans.push([Date.now() - Number(m[1]), Date.now()]);
    },
  });

  it('the pages left (known from the count) go out several at once; the output is the page-by-page one, in order', async () => {
    const sub = await subscribe(slow.get(), 'slow', ['s1', 's2', 's3']);
    slow.advance(2 * 3_600_000);
    const argv = ['events', 'list', '--subscription', String(sub), '--page-size', '3', '--all', '--format', 'jsonl'];
    const env = sandboxEnv(slow.get(), { CREATORS_RATE_LIMIT: '600' });
    // The test clock stands still: no latency is seen, so pages go one at a time.
    const sequential = await runCli(argv, { env });
    spans.length = 0;
    // The real clock: 400 ms a page at 600/min is a window of about 5.
    const concurrent = await runCli(argv, { env, now: Date.now });
    expect(sequential.code).toBe(0);
    expect(concurrent.code).toBe(0);
    const ids = (out: string): number[] =>
      out
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids(sequential.stdout).length, String(ids(sequential.stdout).length)).toBeGreaterThan(9);
    expect(ids(concurrent.stdout)).toEqual(ids(sequential.stdout));
    let peak = 0;
    for (const [at] of spans) peak = Math.max(peak, spans.filter(([a, b]) => a <= at && at < b).length);
    expect(peak).toBeGreaterThan(1);
  });
});
