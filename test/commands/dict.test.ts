import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { mockApi } from '../helpers/mock-api.js';

const sb = useSandbox({ seed: 3 });

const KINDS = [
  'languages',
  'brands',
  'yt-topics',
  'games',
  'audience-brand-categories',
  'audience-brand-names',
  'audience-interests',
  'audience-locations',
  'niches',
  'sub-niches',
];

describe('creators dict', () => {
  for (const kind of KINDS) {
    it(`lists ${kind} as a JSON array of records`, async () => {
      const res = await runCli(['dict', kind, '--json'], { env: sandboxEnv(sb.get()) });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      const entries = res.json<Record<string, unknown>[]>();
      expect(Array.isArray(entries)).toBe(true);
      expect(entries.length).toBeGreaterThan(0);
      expect(typeof entries[0]).toBe('object');
    });
  }

  it('lists locations for a platform, searched and limited', async () => {
    const res = await runCli(['dict', 'locations', '--platform', 'Instagram', '--search', 'united', '--limit', '3', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    const entries = res.json<Record<string, unknown>[]>();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(3);
    for (const e of entries) expect(JSON.stringify(e).toLowerCase()).toContain('united');
  });

  it('pages with --offset', async () => {
    const env = sandboxEnv(sb.get());
    const all = (await runCli(['dict', 'brands', '--limit', '10', '--json'], { env })).json<unknown[]>();
    const second = (await runCli(['dict', 'brands', '--limit', '5', '--offset', '5', '--json'], { env })).json<unknown[]>();
    expect(second).toEqual(all.slice(5, 10));
  });

  it('prints csv with a header row', async () => {
    const res = await runCli(['dict', 'languages', '--limit', '3', '--format', 'csv'], { env: sandboxEnv(sb.get()) });
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
  });

  it('refuses an unknown kind (exit 2), naming the kinds, sending nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'colours'], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Unknown dictionary kind 'colours'\.\n.*languages, locations, brands/);
  });

  it('needs a platform for locations (exit 2)', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'locations'], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: 'locations' needs a platform\./);
  });

  it('refuses an unknown platform (exit 2)', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'locations', '--platform', 'myspace', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.errorJson().error.message).toBe("Unknown platform 'myspace'.");
  });

  it.each([['0'], ['101'], ['-5'], ['ten'], ['99999999999999999999']])('refuses --limit %s (exit 2)', async (limit) => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'brands', '--limit', limit], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--limit/);
  });
});
