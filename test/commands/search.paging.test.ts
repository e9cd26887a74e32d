import { describe, expect, it } from 'vitest';
import type { DiscoveryPage } from '../../src/lib/api/discovery.js';
import { runCli } from '../helpers/run-cli.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';

const page = (ids: string[], total?: number): DiscoveryPage => ({
  total, limit: 2, credits_left: '9.98', accounts: ids.map((id) => ({ user_id: id, profile: { username: `u${id}` } })),
});

describe('creators search: the page base', () => {
  it('the CLI warns about the page base when pages repeat', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, page(['a', 'b']), JSON_HEADERS).times(2);
    const res = await runCli(['search', '--platform', 'instagram', '--all', '--limit', '2', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.json<unknown[]>()).toHaveLength(2);
    expect(res.stderr).toMatch(/^warning: The server sent a page of creators already seen; .*page-base/);
    agent.assertNoPendingInterceptors();
  });

  it('CREATORS_PAGE_BASE must be 0 or 1', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['search', '--platform', 'instagram'], { env: { ...env, CREATORS_PAGE_BASE: '2' }, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Invalid page base '2'/);
  });
});
