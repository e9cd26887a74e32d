import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { useSandbox } from '../../helpers/sandbox.js';
import { API, mockApi } from '../../helpers/mock-api.js';
import { configureOAuth, oauthState, revokeClient } from '../../../src/sandbox/oauth/store.js';
import { browserDouble } from './browser-double.js';

const sb = useSandbox({ seed: 8 });
const START = Date.parse('2026-11-22T10:00:00Z');

function oauthOf(configDir: string): Record<string, any> {
  return JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default.oauth;
}

async function loggedIn(): Promise<{ configDir: string; env: Record<string, string> }> {
  configureOAuth(sb.get().state, { autoApprove: 'approve', accessTokenTtl: 3600 });
  const configDir = tempConfigDir();
  const env = { CREATORS_BASE_URL: sb.get().url };
  const res = await runCli(['login'], { env, configDir, openBrowser: browserDouble().opener });
  expect(res.code).toBe(0);
  return { configDir, env };
}

function accessTokens(): number {
  return [...sb.get().state.apiKeys.values()].filter((k) => k.kind === 'oauth_access').length;
}

describe('token refresh', () => {
  it('refreshes an access token that is about to expire before sending, and the old one dies', async () => {
    const { configDir, env } = await loggedIn();
    const before = oauthOf(configDir);
    const later = START + 3600_000 - 30_000; // 30 s left: inside the refresh margin
    const res = await runCli(['credits', '--json'], { env, configDir, now: () => later });
    expect(res.code).toBe(0);
    const after = oauthOf(configDir);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.expires_at).toBe(later + 3600_000);
    expect(sb.get().state.apiKeys.get(before.access_token)?.active).toBe(false);
  });

  it('an expired token is refreshed transparently by auth token too', async () => {
    const { configDir, env } = await loggedIn();
    const before = oauthOf(configDir);
    const res = await runCli(['auth', 'token'], { env, configDir, now: () => START + 7200_000 });
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe(oauthOf(configDir).access_token);
    expect(res.stdout.trim()).not.toBe(before.access_token);
  });

  it('a dry run with an expired login refreshes it for the reads that check its input instead of failing', async () => {
    const { configDir, env } = await loggedIn();
    const made = await runCli(['exclusions', 'create', 'dry', '--platform', 'instagram', '--json'], { env, configDir });
    expect(made.code, made.stderr).toBe(0);
    const before = oauthOf(configDir);
    const later = () => START + 7200_000;
    // A plain read sends nothing in a dry run (its plan stands for it), so it needs no fresh token.
    const list = await runCli(['keys', 'list', '--dry-run', '--json'], { env, configDir, now: later });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(list.json()).toMatchObject({ dry_run: true, method: 'GET', worst_case_credits: 0 });
    expect(oauthOf(configDir).access_token).toBe(before.access_token);
    // The exclusion-list check a search makes first is sent: the expired login is refreshed for it.
    const search = await runCli(
      [
        'search',
        '--platform',
        'instagram',
        '--exclude-list',
        String(made.json<{ id: number }>().id),
        '--dry-run',
        '--json',
      ],
      { env, configDir, now: later },
    );
    expect(search.code, search.stderr).toBe(0);
    expect(search.json()).toMatchObject({
      dry_run: true,
      method: 'POST',
      input_checks: [expect.stringMatching(/^GET .*\/exclusion-lists\/$/)],
    });
    expect(oauthOf(configDir).access_token).not.toBe(before.access_token);
  });

  it('a 401 triggers one refresh and one replay, even for a POST (one key created)', async () => {
    const { configDir, env } = await loggedIn();
    const before = oauthOf(configDir);
    // The server killed the token early (e.g. another device refreshed with an old client).
    sb.get().state.apiKeys.get(before.access_token)!.active = false;
    const keysBefore = [...sb.get().state.apiKeys.values()].filter((k) => k.kind === 'api_key').length;
    const res = await runCli(['keys', 'create', '--name', 'replayed', '--json', '--debug'], { env, configDir });
    expect(res.code).toBe(0);
    expect(res.json<{ name: string }>().name).toBe('replayed');
    expect([...sb.get().state.apiKeys.values()].filter((k) => k.kind === 'api_key').length).toBe(keysBefore + 1);
    expect(res.stderr).toContain('credential refreshed, replaying once');
    expect(oauthOf(configDir).access_token).not.toBe(before.access_token);
    expect(res.stderr).not.toContain(oauthOf(configDir).access_token);
  });

  it('a revoked login ends in exit 4 telling the user to log in again', async () => {
    const { configDir, env } = await loggedIn();
    const clientId = oauthOf(configDir).client_id as string;
    revokeClient(sb.get().state, clientId);
    const res = await runCli(['credits'], { env, configDir });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/expired or was revoked.*invalid_grant/);
    expect(res.stderr).toMatch(/creators login/);
    const status = await runCli(['auth', 'status', '--json'], { env, configDir });
    expect(status.code).toBe(4);
    expect(status.json()).toMatchObject({ authenticated: false, credential_source: 'login', live_check: 'rejected' });
  });

  it('two processes refreshing at once leave one valid pair (one refresh, both succeed)', async () => {
    const { configDir, env } = await loggedIn();
    const before = oauthOf(configDir);
    const tokensBefore = accessTokens();
    const later = () => START + 3600_000 + 1000;
    const [a, b] = await Promise.all([
      runCli(['credits', '--json'], { env, configDir, now: later }),
      runCli(['credits', '--json'], { env, configDir, now: later }),
    ]);
    expect([a.code, b.code, a.stderr, b.stderr]).toEqual([0, 0, '', '']);
    expect(accessTokens()).toBe(tokensBefore + 1);
    const after = oauthOf(configDir);
    expect(after.access_token).not.toBe(before.access_token);
    expect(sb.get().state.apiKeys.get(after.access_token)?.active).toBe(true);
    expect(oauthState(sb.get().state).refreshTokens.has(after.refresh_token)).toBe(true);
    expect((await runCli(['credits'], { env, configDir, now: later })).code).toBe(0);
  });

  it('never swaps an API key from the environment for the login after a 401', async () => {
    const { configDir, env } = await loggedIn();
    const before = oauthOf(configDir);
    const res = await runCli(['credits'], { env: { ...env, CREATORS_API_KEY: 'sbx_live_wrong0000' }, configDir });
    expect(res.code).toBe(4);
    expect(oauthOf(configDir).access_token).toBe(before.access_token);
  });

  it('never sends the login to another base URL', async () => {
    const { configDir } = await loggedIn();
    const { agent } = mockApi();
    const res = await runCli(['auth', 'status', '--json'], {
      env: { CREATORS_BASE_URL: API },
      configDir,
      dispatcher: agent,
    });
    expect(res.code).toBe(4);
    expect(res.json()).toMatchObject({ authenticated: false, credential_source: null });
  });
});
