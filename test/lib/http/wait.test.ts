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
    // A clock that moves only with sleep: the retry back-off and the pacer's hold after the 429 are measured
    // against it, so the machine's speed cannot change the sleeps (with the real clock, which a fake sleep
    // does not move, the pacer slept again for what was left of the hold: 3000, or 2983 under load).
    let clock = Date.parse('2026-11-22T10:00:00Z');
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
      now: () => clock,
      sleep: async (ms) => {
        events.push(`sleep ${ms}`);
        clock += ms;
      },
      credential: async () => 'key',
      waits,
    });
    await http.request({ method: 'POST', path: 'discovery', body: { platform: 'instagram' } });
    // The pacer holds every request for the 429's 3 s too; the retry's own sleep has already served that
    // hold, so the retry leaves at once (no second sleep).
    expect(events).toEqual(['begin Searching…', 'update Rate limited; retrying in 3 s', 'sleep 3000', 'update Searching…', 'end']);

    // A request that fails for good ends its wait too.
    pool.intercept({ path: '/public/v1/accounts/credits/', method: 'GET' }).reply(404, { detail: 'no' }, JSON_HEADERS);
    events.length = 0;
    await expect(http.request({ method: 'GET', path: 'accounts/credits' })).rejects.toThrow();
    expect(events.filter((e) => !e.startsWith('sleep'))).toEqual(['begin Checking credits…', 'end']);
  });
});
