import { describe, expect, it } from 'vitest';
import { mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';

describe('exclusions create|rename: the list name', () => {
  it.each([
    [['exclusions', 'create', '   ', '--platform', 'instagram']],
    [['exclusions', 'create', 'x'.repeat(301), '--platform', 'instagram']],
    [['exclusions', 'rename', '3', '']],
    [['exclusions', 'rename', '3', 'y'.repeat(301)]],
  ])('%j is refused with exit 2, sending nothing', async (argv) => {
    const { agent, env } = mockApi();
    const res = await runCli(argv, { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('error: The list name must be 1 to 300 characters.\n');
  });
});
