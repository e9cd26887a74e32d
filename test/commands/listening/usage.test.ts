import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { useClockedSandbox } from './helpers.js';

const sb = useClockedSandbox({ seed: 9, credits: 500 });
const env = (): Record<string, string> => sandboxEnv(sb.get());

describe('creators listening usage', () => {
  it('usage prints the counts (free)', async () => {
    const res = await runCli(['listening', 'usage', '--json'], { env: env() });
    expect(res.code).toBe(0);
    expect(res.json<Record<string, unknown>>()).toMatchObject({
      credits_per_creator_day: 0.3,
      monitored_creators: expect.any(Number),
    });
  });
});
