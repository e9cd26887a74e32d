import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { mockApi } from '../../helpers/mock-api.js';
import { configureOAuth } from '../../../src/sandbox/oauth/store.js';
import { browserDouble } from '../../lib/auth/browser-double.js';

const sb = useSandbox({ seed: 9 });

describe('creators apps', () => {
  it('lists the CLI after a login and revokes it, which kills its tokens', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const env = { CREATORS_BASE_URL: sb.get().url };
    const configDir = tempConfigDir();
    expect((await runCli(['login'], { env, configDir, openBrowser: browserDouble().opener })).code).toBe(0);
    const list = await runCli(['apps', 'list', '--json'], { env, configDir });
    expect(list.code).toBe(0);
    const apps = list.json<Array<{ id: number; client_name: string }>>();
    expect(apps).toHaveLength(1);
    expect(apps[0]?.client_name).toBe('creators CLI');
    const revoked = await runCli(['apps', 'revoke', String(apps[0]?.id), '--yes'], { env, configDir });
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toContain('Revoked app');
    // The token used for the revoke is dead now, and so is the refresh token.
    const after = await runCli(['apps', 'list'], { env, configDir });
    expect(after.code).toBe(4);
    const empty = await runCli(['apps', 'list', '--json'], { env: sandboxEnv(sb.get()) });
    expect(empty.json()).toEqual([]);
  });

  it('revoke --dry-run prints the plan, asks nothing and sends nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['apps', 'revoke', '2', '--dry-run'], { env, dispatcher: agent, stdoutTTY: true });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      'Dry run: nothing was sent.\nDELETE https://api.test/public/v1/oauth/apps/2/\nWorst-case cost: 0 credits (free)\n',
    );
    expect(res.stderr).toBe('');
  });

  it('refuses apps revoke abc --yes with exit 2, sending nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['apps', 'revoke', 'abc', '--yes'], { env, dispatcher: agent });
    expect(res.stderr).toMatch(/Invalid app id 'abc'/);
    expect(res.code).toBe(2);
  });
});
