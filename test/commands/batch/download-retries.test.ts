import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';

describe('creators batch download: one retry policy', () => {
  it('a file request that fails before any byte is retried by the HTTP core only (--retries 1: 2 attempts, not more), then exit 1', async () => {
    const { agent, pool, env } = mockApi({ recorder: true });
    pool
      .intercept({ path: '/public/v1/enrichment/batch/bch_1/download/', method: 'GET' })
      .reply(200, { download_url: 'https://api.test/files/r.csv' }, JSON_HEADERS);
    pool.intercept({ path: '/files/r.csv', method: 'GET' }).replyWithError(new Error('socket hang up')).times(10);
    const res = await runCli(['batch', 'download', 'bch_1', '--retries', '1'], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/socket hang up|Network error/);
    const files = agent.pendingInterceptors().find((i) => i.path === '/files/r.csv');
    // undici counts the uses of an interceptor at run time (`timesInvoked`); its type does not declare it.
    expect(Reflect.get(files ?? {}, 'timesInvoked')).toBe(2);
    await agent.close();
  });
});
