import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { configureOAuth } from '../../src/sandbox/oauth/store.js';
import { browserDouble } from '../lib/auth/browser-double.js';

const sb = useSandbox({ seed: 8 });

function profileOf(configDir: string): Record<string, any> {
  return JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default;
}

function oauthOf(configDir: string): Record<string, any> {
  return profileOf(configDir).oauth;
}

async function loggedIn(): Promise<{ configDir: string; env: Record<string, string> }> {
  configureOAuth(sb.get().state, { autoApprove: 'approve', accessTokenTtl: 3600 });
  const configDir = tempConfigDir();
  const env = { CREATORS_BASE_URL: sb.get().url };
  const res = await runCli(['login'], { env, configDir, openBrowser: browserDouble().opener });
  expect(res.code).toBe(0);
  return { configDir, env };
}

describe('creators logout', () => {
  it('logout forgets the tokens; auth token then exits 4', async () => {
    const { configDir, env } = await loggedIn();
    const res = await runCli(['logout'], { env, configDir });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/Logged out: forgot the login of profile 'default'/);
    expect(oauthOf(configDir)).toBeUndefined();
    const token = await runCli(['auth', 'token'], { env, configDir });
    expect(token.code).toBe(4);
    expect(token.stdout).toBe('');
    const again = await runCli(['logout'], { env, configDir });
    expect(again.stderr).toMatch(/had no stored credentials/);
  });

  it('--dry-run prints what would be forgotten and removes nothing', async () => {
    const { configDir, env } = await loggedIn();
    expect((await runCli(['config', 'set', 'api-key', 'sk_live_abcdefghijklmnop'], { configDir })).code).toBe(0);
    const before = readFileSync(join(configDir, 'config.json'), 'utf8');
    const res = await runCli(['logout', '--dry-run', '--json'], { env, configDir });
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({
      dry_run: true,
      profile: 'default',
      file: join(configDir, 'config.json'),
      changes: [
        { action: 'unset', key: 'login', value: null, previous: 'stored' },
        { action: 'unset', key: 'api-key', value: null, previous: 'sk_…nop' },
      ],
    });
    expect(res.stdout).not.toContain('abcdefghijklmnop');
    expect(res.stdout).not.toContain(oauthOf(configDir).access_token);
    expect(res.stderr).not.toMatch(/Logged out/);
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);

    const text = await runCli(['logout', '--dry-run'], { env, configDir, stdoutTTY: true });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      `Dry run: nothing was changed.\nProfile 'default' in ${join(configDir, 'config.json')}:\n  unset login (now 'stored')\n  unset api-key (now 'sk_…nop')\n`,
    );
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
  });

  it('--dry-run on a profile without credentials says nothing would change and writes no file', async () => {
    const configDir = tempConfigDir();
    const res = await runCli(['logout', '--dry-run'], { configDir, stdoutTTY: true });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `Dry run: nothing was changed.\nProfile 'default' in ${join(configDir, 'config.json')}:\n  nothing to change\n`,
    );
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
  });
});
