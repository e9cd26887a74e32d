import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { subscribe, useClockedSandbox } from '../listening/helpers.js';

const sb = useClockedSandbox({ seed: 13 });
const env = (): Record<string, string> => sandboxEnv(sb.get());

describe('creators events list', () => {
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
});
