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

/**
 * A reply that presses Ctrl-C the moment the request reaches the service (its answer comes `delay` ms
 * later): the request is known to be on the wire when the signal fires, however slow the machine (a
 * 40 ms timer could fire before a loaded machine had sent it).
 */
function ctrlCOnArrival<T extends object>(controller: AbortController, body: T) {
  return () => {
    controller.abort(new InterruptedError());
    return { statusCode: 200, data: body, responseOptions: JSON_HEADERS };
  };
}

describe('Ctrl-C with requests in flight', () => {
  it('a POST already sent is finished and its answer returned; the notice says why; the next request does not start', async () => {
    const controller = new AbortController();
    const notices: string[] = [];
    const { http, agent } = client(controller.signal, notices);
    agent
      .get(API)
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(ctrlCOnArrival(controller, { accounts: [{ user_id: '1' }], credits_cost: 0.01 }))
      .delay(200);
    const res = await http.request<{ accounts: unknown[] }>({
      method: 'POST',
      path: 'discovery',
      body: { platform: 'instagram' },
    });
    expect(controller.signal.aborted).toBe(true);
    expect(res.data.accounts).toHaveLength(1);
    expect(notices).toEqual([
      'Waiting for the request already sent to finish, so what it is charged for is kept; press Ctrl-C again to stop at once.',
    ]);
    await expect(http.request({ method: 'POST', path: 'discovery', body: {} })).rejects.toBeInstanceOf(
      InterruptedError,
    );
  });

  it('a GET is abandoned at once', async () => {
    const controller = new AbortController();
    const notices: string[] = [];
    const { http, agent } = client(controller.signal, notices);
    agent
      .get(API)
      .intercept({ path: '/public/v1/accounts/credits/', method: 'GET' })
      .reply(ctrlCOnArrival(controller, { credits_available: 1 }))
      .delay(2_000);
    await expect(http.request({ method: 'GET', path: 'accounts/credits' })).rejects.toBeInstanceOf(InterruptedError);
    expect(notices).toEqual([]);
  });
});
