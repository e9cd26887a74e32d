import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { subscribe, useClockedSandbox } from '../listening/helpers.js';

const sb = useClockedSandbox({ seed: 13 });
const env = (): Record<string, string> => sandboxEnv(sb.get());

describe('creators events get', () => {
  beforeAll(async () => {
    await subscribe(sb.get(), 'get', ['g1', 'g2']);
    sb.advance(2 * 3_600_000);
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

  it('on a 60-column terminal the attempts show their time whole, in the local zone', async () => {
    const list = await runCli(['events', 'list', '--json'], { env: env() });
    const id = String(list.json<{ id: number }[]>()[0]?.id);
    const res = await runCli(['events', 'get', id, '--no-color'], { env: env(), tty: true, columns: 60 });
    expect(res.code).toBe(0);
    const history = res.stdout.slice(res.stdout.indexOf('delivery_history:'));
    for (const line of history.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(60);
    expect(history).toMatch(/│ +1 │ \d{4}-\d{2}-\d{2} \d{2}:\d{2} [A-Z+\-0-9]+ +│/);
    expect(history).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });
});
