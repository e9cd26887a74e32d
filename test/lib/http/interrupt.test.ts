import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { realSleep } from '../../../src/app/deps.js';
import { InterruptedError } from '../../../src/lib/errors.js';
import { HttpClient } from '../../../src/lib/http/client.js';
import { API, JSON_HEADERS } from '../../helpers/mock-api.js';

/**
 * Ctrl-C and requests on the wire: a GET stops at once, but a request already sent that may spend
 * (a POST) is answered and handed back, so what it is charged for is kept; nothing new starts.
 */
function client(signal: AbortSignal, notices: string[]): { http: HttpClient; agent: MockAgent } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const http = new HttpClient({
    baseUrl: new URL(API),
    dispatcher: agent,
    timeoutMs: 10_000,
    retries: 0,
    rateLimitPerMinute: 100_000,
    now: () => Date.now(),
    sleep: realSleep,
    signal,
    notice: (line) => notices.push(line),
    credential: async () => 'key',
  });
  return { http, agent };
}

describe('Ctrl-C with requests in flight', () => {
  it('a POST already sent is finished and its answer returned; the notice says why; the next request does not start', async () => {
    const controller = new AbortController();
    const notices: string[] = [];
    const { http, agent } = client(controller.signal, notices);
    agent.get(API).intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, { accounts: [{ user_id: '1' }], credits_cost: 0.01 }, JSON_HEADERS).delay(200);
    const pending = http.request<{ accounts: unknown[] }>({ method: 'POST', path: 'discovery', body: { platform: 'instagram' } });
    setTimeout(() => controller.abort(new InterruptedError()), 40);
    const res = await pending;
    expect(res.data.accounts).toHaveLength(1);
    expect(notices).toEqual(['Waiting for the request already sent to finish, so what it is charged for is kept; press Ctrl-C again to stop at once.']);
    await expect(http.request({ method: 'POST', path: 'discovery', body: {} })).rejects.toBeInstanceOf(InterruptedError);
  });

  it('a GET is abandoned at once', async () => {
    const controller = new AbortController();
    const notices: string[] = [];
    const { http, agent } = client(controller.signal, notices);
    agent.get(API).intercept({ path: '/public/v1/accounts/credits/', method: 'GET' }).reply(200, { credits_available: 1 }, JSON_HEADERS).delay(2_000);
    const pending = http.request({ method: 'GET', path: 'accounts/credits' });
    setTimeout(() => controller.abort(new InterruptedError()), 40);
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
    expect(notices).toEqual([]);
  });
});
