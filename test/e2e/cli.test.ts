import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

/** End-to-end: the built bin/creators.js in a child process against the sandbox on a random port. */
const sb = useSandbox({
  seed: 11,
  routes: (router) => {
    // A route that answers with broken JSON, to check what the CLI says about it.
    router.get('/public/v1/broken/', () => ({
      status: 200,
      raw: '{"credits_available": ',
      contentType: 'application/json',
    }));
  },
});

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  ...sandboxEnv(sb.get()),
  CREATORS_CONFIG_DIR: tempDir('creators-e2e-'),
  ...extra,
});

describe('bin/creators.js against the sandbox', () => {
  it('credits --json prints the balance', async () => {
    const res = await spawnCli(['credits', '--json'], env());
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(typeof body.credits_available).toBe('number');
    expect(body.credits_available).toBeGreaterThan(0);
  });

  it('defaults to JSON when stdout is a pipe', async () => {
    const res = await spawnCli(['dict', 'languages', '--limit', '2'], env());
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toHaveLength(2);
  });

  it('writes -o files atomically, format from the extension, leaving no temp file', async () => {
    const dir = tempDir('creators-out-');
    const res = await spawnCli(['dict', 'languages', '--limit', '3', '-o', join(dir, 'langs.csv')], env());
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    const lines = readFileSync(join(dir, 'langs.csv'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(readdirSync(dir)).toEqual(['langs.csv']);
  });

  it('a wrong key is exit 4 with one clear line and the key nowhere in the output', async () => {
    const res = await spawnCli(['credits'], env({ CREATORS_API_KEY: 'sbx_live_wrong_key_123456' }));
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    expect(res.stderr.split('\n')[0]).toBe('error: Authentication failed (HTTP 401): Invalid token.');
    expect(res.stderr).not.toContain('wrong_key');
  });

  it('no credential at all: auth status says so on stdout and exits 4', async () => {
    const e = env();
    delete e.CREATORS_API_KEY;
    const res = await spawnCli(['auth', 'status', '--json'], e);
    expect(res.code).toBe(4);
    const status = JSON.parse(res.stdout);
    expect(status).toMatchObject({ authenticated: false, credential_source: null, profile: 'default' });
    expect(JSON.parse(res.stderr.trim()).error.code).toBe('unauthenticated');
  });

  it('auth status with a key reports its source, masked, and the live check', async () => {
    const res = await spawnCli(['auth', 'status', '--json'], env());
    expect(res.code).toBe(0);
    const status = JSON.parse(res.stdout);
    expect(status).toMatchObject({ authenticated: true, credential_source: 'env', live_check: 'ok' });
    expect(status.credential).not.toContain(sb.get().apiKey);
    expect(res.stdout).not.toContain(sb.get().apiKey);
  });

  it('a server answering malformed JSON is exit 1 with a clear line', async () => {
    const res = await spawnCli(['api', 'broken', '--retries', '0'], env());
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: The server sent a response that is not valid JSON \(HTTP 200, 22 bytes\)\.\n$/);
  });

  it('connection refused is exit 1', async () => {
    const res = await spawnCli(['credits', '--retries', '0'], env({ CREATORS_BASE_URL: 'http://127.0.0.1:1' }));
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')[0]).toBe('error: Cannot connect to http://127.0.0.1:1: connection refused.');
  });

  it('--debug logs traffic to stderr without the key', async () => {
    const res = await spawnCli(['credits', '--json', '--debug'], env());
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/\[debug\] > GET http:\/\/127\.0\.0\.1:\d+\/public\/v1\/accounts\/credits\//);
    expect(res.stderr).toMatch(/\[debug\] < 200 GET/);
    expect(res.stderr).not.toContain(sb.get().apiKey);
    JSON.parse(res.stdout);
  });

  it('--help and --version work without a server', async () => {
    const help = await spawnCli(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: creators');
    const version = await spawnCli(['--version'], {});
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('rate limit end to end', () => {
  const limited = useSandbox({ rateLimit: 2 });
  it('a 429 with retry_after that cannot be waited out is exit 6, naming the wait', async () => {
    const e = { ...sandboxEnv(limited.get()), CREATORS_CONFIG_DIR: tempDir('creators-e2e-') };
    expect((await spawnCli(['credits'], e)).code).toBe(0);
    expect((await spawnCli(['credits'], e)).code).toBe(0);
    const res = await spawnCli(['credits', '--retries', '0', '--json'], e);
    expect(res.code).toBe(6);
    const { error } = JSON.parse(res.stderr.trim());
    expect(error.status).toBe(429);
    expect(error.retry_after).toBeGreaterThan(0);
    expect(error.message).toContain('Rate limited (HTTP 429)');
  });
});

describe('creators sandbox', () => {
  it('prints its URL and key as JSON when piped, serves requests, and stops on SIGTERM with exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--credits', '7'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const { base_url: baseUrl, api_key: apiKey } = JSON.parse(line);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await spawnCli(['credits', '--json'], {
      CREATORS_BASE_URL: baseUrl,
      CREATORS_API_KEY: apiKey,
      CREATORS_CONFIG_DIR: tempDir('c-'),
    });
    expect(JSON.parse(res.stdout).credits_available).toBe(7);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
