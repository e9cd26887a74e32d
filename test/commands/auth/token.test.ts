import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

describe('creators auth token', () => {
  it('prints the key in effect, and nothing else', async () => {
    const res = await runCli(['auth', 'token'], { env: { CREATORS_API_KEY: 'Bearer sk_test_abc123' } });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('sk_test_abc123\n');
  });

  it('without any credential: exit 4 and what to do, the same words as auth status', async () => {
    const token = await runCli(['auth', 'token']);
    expect(token.code).toBe(4);
    expect(token.stdout).toBe('');
    expect(token.stderr).toBe(
      'error: Not authenticated: no API key or login for this profile.\nPass --api-key, set CREATORS_API_KEY, `creators config set api-key <key>`, or run `creators login`.\n',
    );
    const status = await runCli(['auth', 'status']);
    expect(status.code).toBe(4);
    expect(status.stderr).toBe(token.stderr);
  });
});
