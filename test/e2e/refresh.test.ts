/**
 * The stored login across processes: a refresh interrupted by Ctrl-C, and two processes refreshing
 * at once. The sandbox rotates the pair on every refresh (the old access and refresh tokens die),
 * so a refresh whose answer is dropped, or two refreshes with the same refresh token, lose the login.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { configureOAuth, oauthState } from '../../src/sandbox/oauth/store.js';
import { faults } from '../reliability/helpers.js';
import { browserDouble } from '../lib/auth/browser-double.js';

const sb = useSandbox({ seed: 11 });

interface StoredPair {
  access_token: string;
  refresh_token: string;
}

function storedPair(configDir: string): StoredPair {
  const file = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
  return file.profiles.default.oauth as StoredPair;
}

/**
 * A profile logged in to the sandbox whose access token lives 30 s: within the CLI's refresh
 * margin (60 s), so every command that needs the credential refreshes it first.
 */
async function shortLivedLogin(): Promise<{ configDir: string; env: Record<string, string> }> {
  configureOAuth(sb.get().state, { autoApprove: 'approve', accessTokenTtl: 30 });
  const configDir = tempConfigDir();
  const res = await runCli(['login'], {
    env: { CREATORS_BASE_URL: sb.get().url },
    configDir,
    openBrowser: browserDouble().opener,
    now: () => Date.now(),
  });
  expect(res.code, res.stderr).toBe(0);
  return { configDir, env: { CREATORS_BASE_URL: sb.get().url, CREATORS_CONFIG_DIR: configDir } };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Runs `credits --json` on a short-lived login whose refresh answer trickles in 8 pieces `pieceMs` apart,
 * presses Ctrl-C once the server has rotated the pair (the old refresh token is dead), then once more
 * after `secondCtrlCAfterMs` if given; returns the exit code, stderr and the pairs before and after.
 */
async function ctrlCDuringRefresh(pieceMs: number, secondCtrlCAfterMs?: number) {
  const { configDir, env } = await shortLivedLogin();
  const before = storedPair(configDir);
  faults(sb.get(), `trickle:${pieceMs} POST /public/v1/oauth/token/ count=1`);
  const child = spawn(process.execPath, [BIN, 'credits', '--json'], {
    env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env },
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let code: number | null;
  try {
    await until(() => !oauthState(sb.get().state).refreshTokens.has(before.refresh_token));
    child.kill('SIGINT');
    if (secondCtrlCAfterMs !== undefined) {
      await new Promise((r) => setTimeout(r, secondCtrlCAfterMs));
      child.kill('SIGINT');
    }
    code = await exit;
  } finally {
    faults(sb.get(), '');
    child.kill('SIGKILL');
  }
  return { code, stderr, env, before, after: storedPair(configDir) };
}

describe('e2e: refreshing the stored login', () => {
  it('Ctrl-C while a refresh is in flight: the rotated pair is stored, the command exits 130, the next one works', async () => {
    const { code, stderr, env, before, after } = await ctrlCDuringRefresh(400);
    expect(code).toBe(130);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(oauthState(sb.get().state).refreshTokens.has(after.refresh_token)).toBe(true);
    expect(stderr).toMatch(/Interrupted/);

    const next = await spawnCli(['credits', '--json'], env);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toHaveProperty('credits_available');
  });

  it('a second Ctrl-C while the refreshed pair is on its way waits for it to be stored (saying so), then exits 130; the login survives', async () => {
    // The second Ctrl-C counts only after a second (a repeat within it is the echo of the first); the
    // answer takes 8 pieces 600 ms apart, so it is still on its way then.
    const { code, stderr, env, before, after } = await ctrlCDuringRefresh(600, 1200);
    expect(code).toBe(130);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(oauthState(sb.get().state).refreshTokens.has(after.refresh_token)).toBe(true);
    expect(stderr).toContain('Saving the refreshed login before exiting (Ctrl-C again to exit now and lose it).');
    const next = await spawnCli(['credits', '--json'], env);
    expect(next.code, next.stderr).toBe(0);
  });

  it('two processes refreshing at once both succeed and the login survives', async () => {
    const { configDir, env } = await shortLivedLogin();
    const before = storedPair(configDir);
    // The first refresh is acted on at once but answered slowly (8 pieces 400 ms apart): a second
    // process starting meanwhile still finds the old pair stored, which the server has already killed.
    faults(sb.get(), 'trickle:400 POST /public/v1/oauth/token/ count=1');
    let results;
    try {
      const first = spawnCli(['credits', '--json'], env);
      await until(() => !oauthState(sb.get().state).refreshTokens.has(before.refresh_token));
      const second = spawnCli(['credits', '--json'], env);
      results = await Promise.all([first, second]);
    } finally {
      faults(sb.get(), '');
    }
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const after = storedPair(configDir);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // The stored pair is the live one: the next command works.
    expect(oauthState(sb.get().state).refreshTokens.has(after.refresh_token)).toBe(true);
    const next = await spawnCli(['credits', '--json'], env);
    expect(next.code, next.stderr).toBe(0);
  });
});
