import { describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { HttpClient } from '../../../src/lib/http/client.js';
import { AuthError } from '../../../src/lib/errors.js';

const ORIGIN = 'https://api.test';

function client(agent: MockAgent, onUnauthorized?: (rejected: string) => Promise<string | undefined>) {
  let token = 'old_token_123';
  const lines: string[] = [];
  const http = new HttpClient({
    baseUrl: new URL(ORIGIN),
    credential: async () => token,
    dispatcher: agent,
    timeoutMs: 1000,
    retries: 2,
    rateLimitPerMinute: 100_000,
    now: () => 0,
    sleep: async () => {},
    debug: (l) => lines.push(l),
    onUnauthorized: onUnauthorized
      ? async (rejected) => {
          const fresh = await onUnauthorized(rejected);
          if (fresh) token = fresh;
          return fresh;
        }
      : undefined,
  });
  return { http, lines };
}

describe('HttpClient onUnauthorized', () => {
  it('refreshes once and replays a POST with the new token', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: '/public/v1/x/', method: 'POST', headers: { authorization: 'Bearer old_token_123' } })
      .reply(401, { detail: 'Invalid token.' });
    pool
      .intercept({
        path: '/public/v1/x/',
        method: 'POST',
        headers: { authorization: 'Bearer new_token_456' },
        body: '{"a":1}',
      })
      .reply(201, { ok: true });
    const seen: string[] = [];
    const { http, lines } = client(agent, async (rejected) => (seen.push(rejected), 'new_token_456'));
    const res = await http.request({ method: 'POST', path: 'x', body: { a: 1 } });
    expect(res.status).toBe(201);
    expect(seen).toEqual(['old_token_123']);
    expect(lines.join('\n')).not.toContain('new_token_456');
    agent.assertNoPendingInterceptors();
  });

  it('reports the second 401 instead of looping', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get(ORIGIN)
      .intercept({ path: '/public/v1/x/', method: 'GET' })
      .reply(401, { detail: 'Invalid token.' })
      .times(2);
    let calls = 0;
    const { http } = client(agent, async () => (calls++, `fresh_${calls}_token`));
    await expect(http.request({ method: 'GET', path: 'x' })).rejects.toBeInstanceOf(AuthError);
    expect(calls).toBe(1);
    agent.assertNoPendingInterceptors();
  });

  it('reports the 401 when the hook has nothing better', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(ORIGIN).intercept({ path: '/public/v1/x/', method: 'GET' }).reply(401, { detail: 'Invalid token.' });
    const { http } = client(agent, async () => undefined);
    await expect(http.request({ method: 'GET', path: 'x' })).rejects.toThrow(/HTTP 401/);
  });
});
