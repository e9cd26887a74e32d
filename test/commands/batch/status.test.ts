import { describe, expect, it } from 'vitest';
import { runCli, type RunOptions } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { testClock, uploadHandles } from './helpers.js';

const clock = testClock();
const sb = useSandbox({ now: clock.now, credits: 10_000, batchRowsPerSecond: 1 });
const opts = (extra: RunOptions = {}): RunOptions => ({
  env: sandboxEnv(sb.get()),
  now: clock.now,
  onSleep: clock.advance,
  ...extra,
});

const upload = (values: string[], flags?: string[]): Promise<string> => uploadHandles(opts(), values, flags);

describe('creators batch status', () => {
  it('status prints the record (credits_used as a number) and a table on a terminal', async () => {
    const id = await upload(['s1', 's2']);
    const json = await runCli(['batch', 'status', id, '--json'], opts());
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      batch_id: id,
      status: 'validating',
      total_rows: 2,
      processed_rows: 0,
      credits_used: 0,
    });
    expect(json.json<Record<string, unknown>>().phase).toBeUndefined();
    const table = await runCli(['batch', 'status', id], opts({ tty: true }));
    expect(table.stdout).toContain('Total rows');
    expect(table.stdout).toContain(id);
  });
});
