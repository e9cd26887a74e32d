import { describe, expect, it } from 'vitest';
import type { DiscoveryPage } from '../../src/lib/api/discovery.js';
import { runCli } from '../helpers/run-cli.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';

const page = (ids: string[], total?: number): DiscoveryPage => ({
  total,
  limit: 2,
  credits_left: '9.98',
  accounts: ids.map((id) => ({ user_id: id, profile: { username: `u${id}` } })),
});

describe('creators search: the page base', () => {
  it('the CLI warns about the page base when pages repeat', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(200, page(['a', 'b']), JSON_HEADERS)
      .times(2);
    const res = await runCli(['search', '--platform', 'instagram', '--all', '--limit', '2', '--json'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(res.json<unknown[]>()).toHaveLength(2);
    expect(res.stderr).toMatch(/^warning: The server sent a page of creators already seen; .*page-base/);
    agent.assertNoPendingInterceptors();
  });

  it('creators paid for twice on overlapping pages are counted: in the summary on a terminal, in a line of their own when piped', async () => {
    for (const tty of [true, false]) {
      const { agent, pool, env } = mockApi();
      pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, page(['a', 'b']), JSON_HEADERS);
      pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, page(['b', 'c']), JSON_HEADERS);
      pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, page(['c', 'd']), JSON_HEADERS);
      pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, page(['e']), JSON_HEADERS);
      const res = await runCli(['search', '--platform', 'instagram', '--all', '--limit', '2', '--json'], {
        env,
        dispatcher: agent,
        stderrTTY: tty,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.json<{ user_id: string }[]>().map((a) => a.user_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
      if (tty)
        expect(res.stderr).toMatch(
          /Spent [\d.]+ credits on 7 creators \(4 pages; 2 duplicates paid for, printed once\)/,
        );
      else
        expect(res.stderr).toMatch(
          /^Paid for 2 duplicate creators \([\d.]+ credits\): on an earlier page too, as the pages overlapped; printed once\.$/m,
        );
    }
  });

  it('CREATORS_PAGE_BASE must be 0 or 1', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['search', '--platform', 'instagram'], {
      env: { ...env, CREATORS_PAGE_BASE: '2' },
      dispatcher: agent,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Invalid page base '2'/);
  });
});
