import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { tempConfigDir } from '../helpers/run-cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { configureOAuth } from '../../src/sandbox/oauth/store.js';

const sb = useSandbox({ seed: 5 });

/** Spawns `creators login --no-browser`, keeping stdin open like a terminal would. */
function spawnLogin(env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'login', '--no-browser'], {
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent-home', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = new Promise<string>((resolve) => {
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /http:\/\/\S+\/oauth\/authorize\/\S+/.exec(stderr);
      if (m) resolve(m[0]);
    });
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  void exit.then(() => clearTimeout(timer));
  return { child, url, exit, stderr: () => stderr };
}

describe('e2e: creators login against the sandbox', () => {
  it('completes through the loopback listener, exits by itself, and the login works', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const env = { CREATORS_BASE_URL: sb.get().url, CREATORS_CONFIG_DIR: tempConfigDir() };
    const run = spawnLogin(env);
    const authorize = await fetch(await run.url, { redirect: 'manual' });
    const page = await fetch(authorize.headers.get('location') as string);
    expect(await page.text()).toContain('Logged in');
    expect(await run.exit).toBe(0);
    expect(run.stderr()).toContain('Logged in to');

    const status = await spawnCli(['auth', 'status', '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      authenticated: true,
      credential_source: 'login',
      live_check: 'ok',
    });
  });

  it('accepts the redirect pasted on stdin', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const env = { CREATORS_BASE_URL: sb.get().url, CREATORS_CONFIG_DIR: tempConfigDir() };
    const run = spawnLogin(env);
    const authorize = await fetch(await run.url, { redirect: 'manual' });
    run.child.stdin.write(`${authorize.headers.get('location')}\n`);
    expect(await run.exit).toBe(0);
    const token = await spawnCli(['auth', 'token'], env);
    expect(token.stdout).toMatch(/^sbx_oat_\S+\n$/);
  });
});
