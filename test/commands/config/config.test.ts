import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { API, JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';

describe('creators config', () => {
  it('sets, gets, lists and unsets values per profile', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'format', 'csv'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'get', 'format'], { configDir })).stdout).toBe('csv\n');
    expect((await runCli(['--profile', 'staging', 'config', 'set', 'format', 'tsv'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'get', 'format', '--profile', 'staging'], { configDir })).stdout).toBe('tsv\n');
    expect((await runCli(['config', 'get', 'format'], { configDir })).stdout).toBe('csv\n');
    const list = await runCli(['config', 'list', '--json'], { configDir });
    expect(list.json()).toEqual([{ key: 'format', value: 'csv' }]);
    expect((await runCli(['config', 'unset', 'format'], { configDir })).code).toBe(0);
    const gone = await runCli(['config', 'get', 'format'], { configDir });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toBe("error: 'format' is not set in profile 'default'.\n");
  });

  it('writes the file with mode 0600 in a private directory', async () => {
    const configDir = tempConfigDir();
    await runCli(['config', 'set', 'api-key', 'sk_live_abcdefghijklmnop'], { configDir });
    const path = (await runCli(['config', 'path'], { configDir })).stdout.trim();
    expect(path.startsWith(configDir)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default['api-key']).toBe('sk_live_abcdefghijklmnop');
  });

  it('never prints a secret in list, and masks it in get', async () => {
    const configDir = tempConfigDir();
    await runCli(['config', 'set', 'api-key', 'sk_live_abcdefghijklmnop'], { configDir });
    const list = await runCli(['config', 'list', '--format', 'csv'], { configDir });
    expect(list.stdout).not.toContain('abcdefghijklmnop');
    const get = await runCli(['config', 'get', 'api-key'], { configDir });
    expect(get.stdout).toBe('sk_…nop\n');
  });

  it('reads a secret from stdin with "-"', async () => {
    const configDir = tempConfigDir();
    const res = await runCli(['config', 'set', 'api-key', '-'], { configDir, stdin: 'Bearer sk_from_stdin_123456\n' });
    expect(res.code).toBe(0);
    expect((await runCli(['config', 'get', 'api-key', '--show-secret'], { configDir })).stdout).toBe(
      'sk_from_stdin_123456\n',
    );
  });

  it('refuses unknown keys and bad values (exit 2)', async () => {
    const configDir = tempConfigDir();
    const unknown = await runCli(['config', 'set', 'colour', 'blue'], { configDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: Unknown config key 'colour'\./);
    const bad = await runCli(['config', 'set', 'format', 'xml'], { configDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Invalid value for 'format'/);
    const url = await runCli(['config', 'set', 'base-url', 'nope'], { configDir });
    expect(url.code).toBe(2);
  });

  it('uses the stored base URL and key, with the environment taking precedence', async () => {
    const configDir = tempConfigDir();
    await runCli(['config', 'set', 'base-url', API], { configDir });
    await runCli(['config', 'set', 'api-key', 'sk_stored_key_0001'], { configDir });
    const { agent, pool } = mockApi();
    pool
      .intercept({
        path: '/public/v1/accounts/credits/',
        method: 'GET',
        headers: { authorization: 'Bearer sk_stored_key_0001' },
      })
      .reply(200, { credits_available: 1 }, JSON_HEADERS);
    pool
      .intercept({
        path: '/public/v1/accounts/credits/',
        method: 'GET',
        headers: { authorization: 'Bearer sk_env_key_0002' },
      })
      .reply(200, { credits_available: 2 }, JSON_HEADERS);
    pool
      .intercept({
        path: '/public/v1/accounts/credits/',
        method: 'GET',
        headers: { authorization: 'Bearer sk_flag_key_0003' },
      })
      .reply(200, { credits_available: 3 }, JSON_HEADERS);
    const stored = await runCli(['credits', '--json'], { configDir, dispatcher: agent });
    expect(stored.json()).toMatchObject({ credits_available: 1 });
    const env = await runCli(['credits', '--json'], {
      configDir,
      dispatcher: agent,
      env: { CREATORS_API_KEY: 'sk_env_key_0002' },
    });
    expect(env.json()).toMatchObject({ credits_available: 2 });
    const flag = await runCli(['credits', '--json', '--api-key', 'sk_flag_key_0003'], {
      configDir,
      dispatcher: agent,
      env: { CREATORS_API_KEY: 'sk_env_key_0002' },
    });
    expect(flag.json()).toMatchObject({ credits_available: 3 });
  });

  it('uses the stored default format', async () => {
    const configDir = tempConfigDir();
    await runCli(['config', 'set', 'format', 'csv'], { configDir });
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/accounts/credits/', method: 'GET' })
      .reply(200, { credits_available: 4, credits_used: 6 }, JSON_HEADERS);
    const res = await runCli(['credits'], { configDir, dispatcher: agent, env });
    expect(res.stdout).toBe('credits_available,credits_used\n4,6\n');
  });
});

describe('config values and numeric options', () => {
  it('accepts max-credits 0 (free commands only) and checks the platform', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'max-credits', '0'], { configDir })).code).toBe(0);
    const bad = await runCli(['config', 'set', 'platform', 'myspace'], { configDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Invalid value for 'platform': must be one of instagram/);
  });

  it('masks short secrets completely', async () => {
    const configDir = tempConfigDir();
    await runCli(['config', 'set', 'api-key', 'secret123'], { configDir });
    expect((await runCli(['config', 'get', 'api-key'], { configDir })).stdout).toBe('****\n');
  });

  it.each([
    [['--timeout', '0'], /Invalid --timeout '0'/],
    [['--retries', '1.5'], /Invalid --retries '1.5': expected a whole number/],
  ])('refuses %j (exit 2)', async (flags, message) => {
    const { agent, env } = mockApi();
    const res = await runCli(['credits', ...flags], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it('refuses a rate limit of 0: pacing cannot be switched off', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['credits'], { env: { ...env, CREATORS_RATE_LIMIT: '0' }, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Invalid rate limit '0'/);
  });
});
