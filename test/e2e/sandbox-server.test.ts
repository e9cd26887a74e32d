/**
 * `creators sandbox` as a running server (the built CLI): long control work yields to the event
 * loop, so other requests are answered while it runs and SIGTERM still stops the process; the
 * --allow-redirect list reaches OAuth registration.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const DAY_MS = 86_400_000;

describe('creators sandbox (the built CLI) as a server', () => {
  it('answers other requests during a year-long listening advance, and exits 0 on SIGTERM mid-advance', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'sandbox', '--credits', '1000000000', '--allow-redirect', 'https://app.example/callback'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: tempDir('creators-sbx-home-') },
      },
    );
    const kill = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const line = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout }).once('line', resolve),
      );
      const { base_url: url, api_key: key } = JSON.parse(line) as { base_url: string; api_key: string };
      const post = (path: string, body: unknown, auth = true): Promise<Response> =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${key}` } : {}) },
          body: JSON.stringify(body),
        });

      // The flag reaches registration; anything else off the machine is still refused.
      expect(
        (
          await post(
            '/public/v1/oauth/register/',
            { client_name: 'app', redirect_uris: ['https://app.example/callback'] },
            false,
          )
        ).status,
      ).toBe(201);
      expect(
        (
          await post(
            '/public/v1/oauth/register/',
            { client_name: 'evil', redirect_uris: ['https://evil.example/cb'] },
            false,
          )
        ).status,
      ).toBe(400);

      // Enough watched creators that a year of listening time is minutes of generation.
      const creators = Array.from({ length: 1000 }, (_, i) => `instagram:watched_${i}`);
      expect((await post('/public/v1/social/listening/subscription/', { name: 'load', creators })).status).toBe(201);

      let advanceAnswered = false;
      const advance = post('/_sandbox/listening/advance', { days: 366 }, false)
        .then(async (res) => {
          advanceAnswered = true;
          await res.arrayBuffer();
        })
        .catch(() => undefined);

      // Served while the advance is under way: the clock is seen part-way, and the advance has not answered.
      let offset = 0;
      while (offset === 0) {
        const state = (await (await fetch(`${url}/_sandbox/listening`)).json()) as { offset_ms: number };
        offset = state.offset_ms;
      }
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(366 * DAY_MS);
      expect((await fetch(`${url}/_sandbox/ledger`)).status).toBe(200);
      expect(advanceAnswered).toBe(false);

      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(stderr).toContain('Sandbox stopped.');
      await advance;
      expect(advanceAnswered).toBe(false);
    } finally {
      clearTimeout(kill);
      child.kill('SIGKILL');
    }
  }, 60_000);
});
