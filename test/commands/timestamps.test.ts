import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';

// Times on a terminal are shown in the process's time zone with the zone named; each test sets TZ
// (this file runs in its own process: the vitest pool is `forks`).
let savedTz: string | undefined;
beforeEach(() => {
  savedTz = process.env.TZ;
});
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const KEYS = [
  {
    id: 3,
    name: 'ci',
    token: 'sbx_live_abcdefghijklmnop',
    active: true,
    expires_at: null,
    last_used_at: '2026-07-01T12:05:00Z',
    created_at: '2026-01-15T23:30:00Z',
  },
];

async function keysTable(tz: string, options: { tty: boolean; json?: boolean }): Promise<string> {
  process.env.TZ = tz;
  const { agent, pool, env } = mockApi();
  pool.intercept({ path: '/public/v1/accounts/tokens/', method: 'GET' }).reply(200, KEYS, JSON_HEADERS);
  const res = await runCli(['keys', 'list', '--no-color', ...(options.json ? ['--json'] : [])], {
    env,
    dispatcher: agent,
    tty: options.tty,
    columns: 200,
  });
  expect(res.code).toBe(0);
  return res.stdout;
}

describe('timestamps on a terminal', () => {
  it('a table shows times in the local zone, the zone named', async () => {
    const ny = await keysTable('America/New_York', { tty: true });
    expect(ny).toContain('2026-07-01 08:05 EDT');
    expect(ny).toContain('2026-01-15 18:30 EST');
    const utc = await keysTable('UTC', { tty: true });
    expect(utc).toContain('2026-07-01 12:05 UTC');
    const kolkata = await keysTable('Asia/Kolkata', { tty: true });
    expect(kolkata).toContain('2026-07-01 17:35 GMT+5:30');
    expect(kolkata).toContain('2026-01-16 05:00 GMT+5:30');
  });

  it('machine output keeps the API value whatever the zone', async () => {
    const json = JSON.parse(await keysTable('America/New_York', { tty: true, json: true })) as typeof KEYS;
    expect(json[0]?.last_used_at).toBe('2026-07-01T12:05:00Z');
    const piped = JSON.parse(await keysTable('America/New_York', { tty: false })) as typeof KEYS;
    expect(piped[0]?.created_at).toBe('2026-01-15T23:30:00Z');
  });
});
