import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';

import { HttpClient } from '../../../src/lib/http/client.js';
import { waitLabel, type RequestWaits } from '../../../src/lib/http/wait.js';
import { API, JSON_HEADERS } from '../../helpers/mock-api.js';

describe('waitLabel', () => {
  it.each([
    ['POST', `${API}/public/v1/discovery/`, 'Searching…'],
    ['POST', `${API}/public/v1/discovery/creators/similar/`, 'Finding similar creators…'],
    ['GET', `${API}/public/v1/discovery/classifier/languages/`, 'Looking up the dictionary…'],
    ['POST', `${API}/public/v1/creators/enrich/handle/full/`, 'Enriching…'],
    ['GET', `${API}/public/v1/accounts/credits/`, 'Checking credits…'],
    // Anything else names the host only: no ids, queries or other path parts.
    ['GET', `${API}/public/v1/social/listening/subscriptions/123/?token=abc`, 'Waiting for api.test…'],
    ['GET', 'https://files.example.com/batch/1.csv?X-Amz-Signature=zzz', 'Waiting for files.example.com…'],
  ])('%s %s -> %s', (method, url, label) => {
    expect(waitLabel(method, new URL(url), new URL(API).origin)).toBe(label);
  });
});

describe('the HTTP client reports each request wait', () => {
  it('begins one wait per request, says so during a retry back-off, and ends it once', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get(API);
    pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(429, { detail: 'slow down' }, { headers: { 'content-type': 'application/json', 'retry-after': '3' } });
    pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, { accounts: [] }, JSON_HEADERS);
    const events: string[] = [];
    const waits: RequestWaits = {
      beginWait(text) {
        events.push(`begin ${text}`);
        return { update: (t) => events.push(`update ${t}`), end: () => events.push('end') };
      },
    };
    const http = new HttpClient({
      baseUrl: new URL(API),
      dispatcher: agent,
      timeoutMs: 10_000,
      retries: 2,
      rateLimitPerMinute: 100_000,
      now: () => Date.now(),
      sleep: async (ms) => {
        events.push(`sleep ${ms}`);
      },
      credential: async () => 'key',
      waits,
    });
    await http.request({ method: 'POST', path: 'discovery', body: { platform: 'instagram' } });
    // (The second sleep is the pacer holding every request after the 429.)
    expect(events).toEqual(['begin Searching…', 'update Rate limited; retrying in 3 s', 'sleep 3000', 'update Searching…', 'sleep 3000', 'end']);

    // A request that fails for good ends its wait too.
    pool.intercept({ path: '/public/v1/accounts/credits/', method: 'GET' }).reply(404, { detail: 'no' }, JSON_HEADERS);
    events.length = 0;
    await expect(http.request({ method: 'GET', path: 'accounts/credits' })).rejects.toThrow();
    expect(events.filter((e) => !e.startsWith('sleep'))).toEqual(['begin Checking credits…', 'end']);
  });
});
