import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';

import { HttpClient } from '../../../src/lib/http/client.js';
import type { RequestWaits } from '../../../src/lib/http/wait.js';
import { creditsPlan } from '../../../src/lib/api/account.js';
import { createBatchPlan, resumeBatchPlan } from '../../../src/lib/api/batch.js';
import { postDetailsPlan } from '../../../src/lib/api/content.js';
import { audienceOverlapPlan, connectedSocialsPlan, creatorPostsPlan } from '../../../src/lib/api/creators.js';
import { dictionaryPlan } from '../../../src/lib/api/dictionary.js';
import { discoveryPlan } from '../../../src/lib/api/discovery.js';
import { enrichEmailPlan, enrichHandlePlan } from '../../../src/lib/api/enrichment.js';
import type { Plan } from '../../../src/lib/api/plan.js';
import { API, JSON_HEADERS } from '../../helpers/mock-api.js';

describe('each plan names what its request waits for', () => {
  it.each<[string, Plan | undefined]>([
    ['Searching…', discoveryPlan({ kind: 'search', body: {} })],
    ['Finding similar creators…', discoveryPlan({ kind: 'similar', body: {} })],
    ['Looking up the dictionary…', dictionaryPlan({ kind: 'languages' })],
    ['Enriching…', enrichHandlePlan('nasa', { mode: 'full', platform: 'instagram' })],
    ['Enriching…', enrichEmailPlan('ann@example.com', { mode: 'advanced' })],
    ['Finding connected socials…', connectedSocialsPlan('nasa', 'instagram')],
    ['Fetching posts…', creatorPostsPlan({ platform: 'tiktok', handle: 'nasa' }, { maxPages: 1 }).plan],
    ['Fetching the post…', postDetailsPlan({ platform: 'tiktok', postId: 'x1', kind: 'data' })],
    ['Comparing audiences…', audienceOverlapPlan('instagram', ['a', 'b'])],
    ['Sending the batch…', createBatchPlan({ mode: 'raw', fields: [], column: 'handle', rows: 1 })],
    ['Sending the batch…', resumeBatchPlan('b1')],
    ['Checking credits…', creditsPlan()],
  ])('%s', (label, plan) => {
    expect(plan?.label).toBe(label);
  });

  it('a request without one names the host only: no ids, queries or other path parts', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://files.example.com')
      .intercept({ path: '/batch/1.csv?X-Amz-Signature=zzz', method: 'GET' })
      .reply(200, {}, JSON_HEADERS);
    agent
      .get(API)
      .intercept({ path: '/public/v1/social/listening/subscription/123/?token=abc', method: 'GET' })
      .reply(200, { id: 123 }, JSON_HEADERS);
    const texts: string[] = [];
    const http = new HttpClient({
      baseUrl: new URL(API),
      dispatcher: agent,
      timeoutMs: 10_000,
      retries: 0,
      rateLimitPerMinute: 100_000,
      now: () => 0,
      sleep: async () => {},
      waits: { beginWait: (text) => (texts.push(text), { update: () => {}, end: () => {} }) },
    });
    await http.request({ method: 'GET', path: 'social/listening/subscription/123', query: { token: 'abc' } });
    await http.request({
      method: 'GET',
      path: '',
      absoluteUrl: 'https://files.example.com/batch/1.csv?X-Amz-Signature=zzz',
      noAuth: true,
    });
    expect(texts).toEqual(['Waiting for api.test…', 'Waiting for files.example.com…']);
  });
});

describe('the HTTP client reports each request wait', () => {
  it('begins one wait per request, says so during a retry back-off, and ends it once', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get(API);
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(429, { detail: 'slow down' }, { headers: { 'content-type': 'application/json', 'retry-after': '3' } });
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
    await http.request(discoveryPlan({ kind: 'search', body: { platform: 'instagram' } }));
    // The pacer holds every request for the 429's 3 s too; the retry's own sleep has already served that
    // hold, so the retry leaves at once (no second sleep).
    expect(events).toEqual([
      'begin Searching…',
      'update Rate limited; retrying in 3 s',
      'sleep 3000',
      'update Searching…',
      'end',
    ]);

    // A request that fails for good ends its wait too.
    pool.intercept({ path: '/public/v1/accounts/credits/', method: 'GET' }).reply(404, { detail: 'no' }, JSON_HEADERS);
    events.length = 0;
    await expect(http.request(creditsPlan())).rejects.toThrow();
    expect(events.filter((e) => !e.startsWith('sleep'))).toEqual(['begin Checking credits…', 'end']);
  });
});
