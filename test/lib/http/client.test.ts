import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { API, JSON_HEADERS, KEY, mockApi } from '../../helpers/mock-api.js';

const CREDITS = '/public/v1/accounts/credits/';

describe('HTTP core through `creators credits`', () => {
  it('sends the bearer key to /public/v1/ paths with a trailing slash and reads credits_left strings', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: CREDITS, method: 'GET', headers: { authorization: `Bearer ${KEY}` } })
      .reply(200, { credits_left: '11849.48' }, JSON_HEADERS);
    const res = await runCli(['credits', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    const body = res.json<Record<string, unknown>>();
    expect(body.credits_available).toBe(11849.48);
    expect(body.credits_left).toBe('11849.48');
    agent.assertNoPendingInterceptors();
  });

  it('strips a leading "Bearer " from the key', async () => {
    const { agent, pool } = mockApi();
    pool
      .intercept({ path: CREDITS, method: 'GET', headers: { authorization: `Bearer ${KEY}` } })
      .reply(200, { credits_available: 5, credits_used: 1 }, JSON_HEADERS);
    const res = await runCli(['credits', '--json'], {
      env: { CREATORS_BASE_URL: API, CREATORS_API_KEY: `Bearer ${KEY}` },
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({ credits_available: 5, credits_used: 1 });
  });

  it('maps 401 to exit 4 with a one-line message and no stack', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: CREDITS, method: 'GET' }).reply(401, { detail: 'Invalid token.' }, JSON_HEADERS);
    const res = await runCli(['credits'], { env, dispatcher: agent });
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^error: Authentication failed \(HTTP 401\): Invalid token\.\n/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints the error as one JSON object on stderr in json mode', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: CREDITS, method: 'GET' }).reply(401, { detail: 'Invalid token.' }, JSON_HEADERS);
    const res = await runCli(['credits', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(4);
    const { error } = res.errorJson();
    expect(error.status).toBe(401);
    expect(error.code).toBe('unauthenticated');
    expect(error.message).toContain('Invalid token.');
  });

  it('retries a 429 after the retry_after of the body, then succeeds', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: CREDITS, method: 'GET' })
      .reply(429, { detail: 'Request was throttled.', retry_after: 7 }, JSON_HEADERS);
    pool.intercept({ path: CREDITS, method: 'GET' }).reply(200, { credits_available: 3 }, JSON_HEADERS);
    const sleeps: number[] = [];
    const res = await runCli(['credits', '--json'], { env, dispatcher: agent, sleeps });
    expect(res.code).toBe(0);
    expect(sleeps).toContain(7000);
    expect(res.stderr).toContain('retrying in 7 s');
  });

  it('honours a Retry-After header when the body has no retry_after', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: CREDITS, method: 'GET' })
      .reply(429, { detail: 'slow down' }, { headers: { 'content-type': 'application/json', 'retry-after': '3' } });
    pool.intercept({ path: CREDITS, method: 'GET' }).reply(200, { credits_available: 3 }, JSON_HEADERS);
    const sleeps: number[] = [];
    const res = await runCli(['credits', '--json', '--quiet'], { env, dispatcher: agent, sleeps });
    expect(res.code).toBe(0);
    expect(sleeps).toContain(3000);
    expect(res.stderr).toBe('');
  });

  it('backs off exponentially with jitter on a 429 without retry_after and gives up with exit 6', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: CREDITS, method: 'GET' })
      .reply(429, { detail: 'Request was throttled.' }, JSON_HEADERS)
      .times(4);
    const sleeps: number[] = [];
    const res = await runCli(['credits'], { env, dispatcher: agent, sleeps });
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(
      /^error: Rate limited \(HTTP 429\): Request was throttled\. \(gave up after 4 attempts\)/,
    );
    const backoffs = sleeps.filter((ms) => ms >= 250);
    expect(backoffs).toHaveLength(3);
    expect(backoffs[0]).toBeGreaterThanOrEqual(250);
    expect(backoffs[0]).toBeLessThanOrEqual(500);
    expect(backoffs[2]).toBeGreaterThanOrEqual(1000);
    expect(backoffs[2]).toBeLessThanOrEqual(2000);
  });

  it('does not wait silently longer than 60 s: exit 6 with the wait in the message', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: CREDITS, method: 'GET' })
      .reply(429, { detail: 'throttled', retry_after: 600 }, JSON_HEADERS);
    const sleeps: number[] = [];
    const res = await runCli(['credits', '--json'], { env, dispatcher: agent, sleeps });
    expect(res.code).toBe(6);
    expect(sleeps.filter((ms) => ms > 1000)).toEqual([]);
    const { error } = res.errorJson();
    expect(error.retry_after).toBe(600);
    expect(error.message).toContain('600 s');
  });

  it('does not retry the daily Discovery limit and reports it as credits (exit 5) with the time', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(
        429,
        { error_code: 'daily_limit_exceeded', retry_after: 3600, detail: 'Daily limit exceeded.' },
        JSON_HEADERS,
      );
    const res = await runCli(['api', 'discovery', '-f', 'platform=instagram', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(5);
    const { error } = res.errorJson();
    expect(error.code).toBe('daily_limit_exceeded');
    expect(error.retry_after).toBe(3600);
    agent.assertNoPendingInterceptors();
  });

  it('reports the fair-use cap as exit 6 without retrying', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(429, { error_code: 'fair_use_cap_reached', detail: 'Fair-use cap reached.' }, JSON_HEADERS);
    const res = await runCli(['api', 'discovery', '-f', 'platform=instagram'], { env, dispatcher: agent });
    expect(res.code).toBe(6);
    // The server's message says what happened; the hint adds that it lasts until renewal, once.
    expect(res.stderr).toBe(
      'error: Fair-use cap reached.\nDiscovery search and similar stay unavailable until the subscription renews.\n',
    );
  });

  it('retries a 500 on a GET, then reports exit 1', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: CREDITS, method: 'GET' }).reply(500, 'Internal Server Error').times(4);
    const res = await runCli(['credits'], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: Server error \(HTTP 500\): Internal Server Error\n$/);
    agent.assertNoPendingInterceptors();
  });

  it('never replays a billable POST after a 500: one request, and the message says why', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/creators/enrich/handle/full/', method: 'POST' })
      .reply(500, { detail: 'boom' }, JSON_HEADERS);
    // A second interceptor that must stay unused.
    pool
      .intercept({ path: '/public/v1/creators/enrich/handle/full/', method: 'POST' })
      .reply(200, { result: {} }, JSON_HEADERS);
    const res = await runCli(['api', 'creators/enrich/handle/full', '-f', 'handle=x', '-f', 'platform=instagram'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('not retried automatically');
    expect(agent.pendingInterceptors()).toHaveLength(1);
    // The unused one was the point of this test: closing the agent drops it before the after-test check.
    await agent.close();
  });

  it('does replay a POST the server refused with 503', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
      .reply(503, { detail: 'busy' }, JSON_HEADERS);
    pool
      .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
      .reply(200, { result: { ok: true } }, JSON_HEADERS);
    const res = await runCli(
      ['api', 'creators/enrich/handle/raw', '-f', 'handle=x', '-f', 'platform=instagram', '--json'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({ result: { ok: true } });
  });

  it('reports malformed JSON from the server clearly (exit 1)', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: CREDITS, method: 'GET' }).reply(200, '{"credits_available": 1', JSON_HEADERS).times(4);
    const res = await runCli(['credits'], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: The server sent a response that is not valid JSON \(HTTP 200, 23 bytes\)\.\n$/);
  });

  it('reports connection refused with the origin and a hint (exit 1)', async () => {
    const res = await runCli(['credits', '--retries', '0'], {
      env: { CREATORS_BASE_URL: 'http://127.0.0.1:1', CREATORS_API_KEY: KEY },
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: Cannot connect to http:\/\/127\.0\.0\.1:1: connection refused\./);
    expect(res.stderr).toContain('--base-url');
  });

  it('rejects an invalid base URL before sending anything (exit 2)', async () => {
    const { agent } = mockApi();
    const res = await runCli(['credits'], {
      env: { CREATORS_BASE_URL: 'not a url', CREATORS_API_KEY: KEY },
      dispatcher: agent,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      "error: Invalid base URL 'not a url'.\nGive an absolute http(s) URL such as https://api-dashboard.influencers.club (--base-url or CREATORS_BASE_URL).\n",
    );
    const ftp = await runCli(['credits', '--base-url', 'ftp://example.com'], {
      env: { CREATORS_API_KEY: KEY },
      dispatcher: agent,
    });
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toBe("error: Invalid base URL 'ftp://example.com': the scheme must be http or https.\n");
  });

  it('times out a request that gets no answer', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: CREDITS, method: 'GET' }).reply(200, { credits_available: 1 }, JSON_HEADERS).delay(3000);
    const res = await runCli(['credits', '--timeout', '0.2', '--retries', '0'], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/timed out/);
  });
});

describe('error bodies of every known shape', () => {
  const cases: [string, unknown, string][] = [
    ['detail', { detail: 'Not found.' }, 'Not found.'],
    ['message', { message: 'Bad thing' }, 'Bad thing'],
    ['error string', { error: 'Exclusion list not found.' }, 'Exclusion list not found.'],
    [
      'error list',
      { error: ['The default exclusion list cannot be renamed.'] },
      'The default exclusion list cannot be renamed.',
    ],
    [
      'error field dict',
      { error: { name: ['A list with this name already exists for this platform.'] } },
      'name: A list with this name already exists for this platform.',
    ],
    [
      'nested filter error',
      { error: { filters: { engagement_percent: ['A valid number is required.'] } } },
      'filters.engagement_percent: A valid number is required.',
    ],
    [
      'plain DRF dict',
      { filters: { engagement_percent: ['A valid number is required.'] } },
      'filters.engagement_percent: A valid number is required.',
    ],
    ['response_meta', { response_meta: { error_message: 'Upstream failed' } }, 'Upstream failed'],
  ];
  for (const [name, body, message] of cases) {
    it(`reads ${name}`, async () => {
      const { agent, pool, env } = mockApi();
      pool
        .intercept({ path: '/public/v1/discovery/exclusion-lists/1/', method: 'GET' })
        .reply(400, body as object, JSON_HEADERS);
      const res = await runCli(['api', 'discovery/exclusion-lists/1'], { env, dispatcher: agent });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`error: Request failed (HTTP 400): ${message}\n`);
    });
  }
});

describe('--debug traffic log', () => {
  it('logs method, URL, status and timing with the key redacted and emails masked', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/creators/enrich/email/', method: 'POST' })
      .reply(200, { result: { email: 'jane.doe@example.com', token: 'secret-token-value' } }, JSON_HEADERS);
    const res = await runCli(
      ['api', 'creators/enrich/email', '-f', 'email=jane.doe@example.com', '--debug', '--json'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('> POST https://api.test/public/v1/creators/enrich/email/');
    expect(res.stderr).toMatch(/< 200 POST https:\/\/api\.test\/public\/v1\/creators\/enrich\/email\/ \d+ ms \d+ B/);
    expect(res.stderr).toContain('j***@example.com');
    expect(res.stderr).not.toContain('jane.doe@');
    expect(res.stderr).not.toContain(KEY);
    expect(res.stderr).not.toContain('secret-token-value');
    // stdout keeps the real data.
    expect(res.json<{ result: { email: string } }>().result.email).toBe('jane.doe@example.com');
  });
});

describe('error bodies that read poorly raw', () => {
  it('separates the messages of a list', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/discovery/exclusion-lists/1/', method: 'GET' })
      .reply(400, { error: ['first problem', 'second problem'] }, JSON_HEADERS);
    const res = await runCli(['api', 'discovery/exclusion-lists/1'], { env, dispatcher: agent });
    expect(res.stderr).toBe('error: Request failed (HTTP 400): first problem; second problem\n');
  });

  it('shows the text of an HTML error page, not its markup', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: CREDITS, method: 'GET' })
      .reply(502, '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad gateway</h1></body></html>', {
        headers: { 'content-type': 'text/html' },
      })
      .times(4);
    const res = await runCli(['credits'], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('error: Server error (HTTP 502): 502 Bad Gateway\n');
  });
});
