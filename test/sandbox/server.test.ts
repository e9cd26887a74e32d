import { afterEach, describe, expect, it } from 'vitest';
import { CHARGED_MILLI } from '../../src/contract/prices.js';
import { charge } from '../../src/sandbox/ledger.js';
import { json } from '../../src/sandbox/respond.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { addApiKey, configure } from '../../src/sandbox/state.js';
import { call, start } from './helpers.js';

const CREDITS = '/public/v1/accounts/credits/';
const LANGUAGES = '/public/v1/discovery/classifier/languages/';

let open: Sandbox[] = [];
async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await start(options);
  open.push(sb);
  return sb;
}
afterEach(async () => {
  await Promise.all(open.map((sb) => sb.close()));
  open = [];
});

describe('startSandbox', () => {
  it('listens on a random local port and hands out a sandbox key', async () => {
    const sb = await sandbox();
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.apiKey).toMatch(/^sbx_live_[0-9a-f]{32}$/);
    expect(sb.state.apiKeys.get(sb.apiKey)?.active).toBe(true);
  });

  it('uses the key it is given and closes promptly with keep-alive sockets open', async () => {
    const sb = await start({ apiKey: 'sbx_live_fixed' });
    expect((await call(sb, CREDITS, { auth: 'Bearer sbx_live_fixed' })).status).toBe(200);
    const t = Date.now();
    await sb.close();
    // Not waiting out the idle keep-alive socket (Node's keepAliveTimeout, 5 s): a bound well under it,
    // with room for a loaded machine (1 s was close to what a starved event loop can take).
    expect(Date.now() - t).toBeLessThan(4000);
    await sb.close(); // idempotent
  });
});

describe('authentication', () => {
  it('401 without credentials, DRF wording and challenge header', async () => {
    const sb = await sandbox();
    const res = await call(sb, CREDITS, { auth: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('401 for an unknown, inactive or expired key', async () => {
    const sb = await sandbox({ now: () => Date.parse('2026-05-01T00:00:00Z') });
    const inactive = addApiKey(sb.state, { active: false });
    const expired = addApiKey(sb.state, { expires_at: '2026-04-30T00:00:00Z' });
    for (const key of ['sbx_live_nope', inactive.token, expired.token]) {
      const res = await call(sb, CREDITS, { auth: `Bearer ${key}` });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Invalid token.' });
    }
  });

  it('accepts any key the state knows (later key CRUD and OAuth add to state.apiKeys)', async () => {
    const sb = await sandbox();
    const extra = addApiKey(sb.state, { name: 'CI' });
    expect((await call(sb, CREDITS, { auth: `Bearer ${extra.token}` })).status).toBe(200);
    expect(extra.last_used_at).not.toBeNull();
  });

  it('does not ask the control surface for a key', async () => {
    const sb = await sandbox();
    expect((await call(sb, '/_sandbox/ledger', { auth: null })).status).toBe(200);
  });
});

describe('routing errors', () => {
  it('404 for unknown routes and for a missing trailing slash', async () => {
    const sb = await sandbox();
    for (const path of ['/public/v1/nope/', '/public/v1/accounts/credits', '/']) {
      const res = await call(sb, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    }
  });

  it('405 with Allow for a known path and the wrong method, after authentication', async () => {
    const sb = await sandbox();
    const res = await call(sb, CREDITS, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(res.headers.get('allow')).toBe('GET');
    expect((await call(sb, CREDITS, { method: 'DELETE', auth: null })).status).toBe(401);
  });

  it('400 for a body that is not JSON', async () => {
    const sb = await sandbox({ routes: (r) => r.post('/public/v1/echo/', ({ body }) => json(body)) });
    const bad = await call(sb, '/public/v1/echo/', {
      method: 'POST',
      body: '{"platform": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { detail: string }).detail).toMatch(/^JSON parse error - /);
    const good = await call(sb, '/public/v1/echo/', { method: 'POST', body: '{"a":[1]}' });
    expect(good).toMatchObject({ status: 200, body: { a: [1] } });
    const form = await call(sb, '/public/v1/echo/', {
      method: 'POST',
      body: 'grant_type=refresh_token&client_id=c1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.body).toEqual({ grant_type: 'refresh_token', client_id: 'c1' });
    const text = await call(sb, '/public/v1/echo/', {
      method: 'POST',
      body: 'hi',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text).toMatchObject({ status: 415, body: { detail: 'Unsupported media type "text/plain" in request.' } });
  });
});

describe('server errors', () => {
  it('turns an unexpected exception into a DRF-style 500 and logs it', async () => {
    const lines: string[] = [];
    const sb = await sandbox({
      log: (line) => lines.push(line),
      routes: (r) =>
        r.get('/public/v1/boom/', () => {
          throw new Error('kaboom');
        }),
    });
    const res = await call(sb, '/public/v1/boom/');
    expect(res).toMatchObject({ status: 500, body: { detail: 'A server error occurred.' } });
    expect(lines.some((l) => l.includes('kaboom'))).toBe(true);
    expect(lines.some((l) => /^GET \/public\/v1\/boom\/ 500 \d+ms$/.test(l))).toBe(true);
  });
});

describe('credits and the ledger', () => {
  it('reports credits_available and credits_used, free of charge', async () => {
    const sb = await sandbox({ credits: 12.5 });
    const res = await call(sb, CREDITS);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ credits_available: 12.5, credits_used: 0 });
    expect(sb.state.ledger.charges).toEqual([]);
  });

  it('adds thousandths without float drift: 0.01 + 0.02 is exactly 0.03', async () => {
    const sb = await sandbox({ credits: 1000 });
    charge(sb.state, '/public/v1/test/', 10, 'one creator');
    charge(sb.state, '/public/v1/test/', 20);
    expect(charge(sb.state, '/public/v1/test/', 0)).toBeUndefined(); // no data, no charge
    const res = await call(sb, CREDITS);
    expect(res.body).toEqual({ credits_available: 999.97, credits_used: 0.03 });
    const ledger = (await call(sb, '/_sandbox/ledger')).body as Record<string, unknown>;
    expect(ledger).toMatchObject({ balance: 999.97, used: 0.03, balance_milli: 999_970, used_milli: 30 });
    expect(ledger.charges).toEqual([
      { at: expect.any(String), route: '/public/v1/test/', milli: 10, note: 'one creator' },
      { at: expect.any(String), route: '/public/v1/test/', milli: 20, note: '' },
    ]);
  });

  it('refuses a billable request the balance cannot cover with 402, and charges nothing', async () => {
    const sb = await sandbox({
      credits: 0.5,
      routes: (r) =>
        r.post('/public/v1/expensive/', ({ state, path }) => {
          charge(state, path, CHARGED_MILLI.enrichFull);
          return json({ ok: true });
        }),
    });
    const res = await call(sb, '/public/v1/expensive/', { method: 'POST' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: 'Insufficient credits.', error_code: 'insufficient_credits' });
    expect(sb.state.ledger).toMatchObject({ balanceMilli: 500, usedMilli: 0, charges: [] });
    configure(sb.state, { credits: 1 });
    expect((await call(sb, '/public/v1/expensive/', { method: 'POST' })).status).toBe(200);
    expect((await call(sb, CREDITS)).body).toEqual({ credits_available: 0, credits_used: 1 });
  });
});

describe('rate limit', () => {
  it('answers the 6th request in a minute with 429, retry_after and Retry-After', async () => {
    let now = 1_000_000;
    const sb = await sandbox({ rateLimit: 5, now: () => now });
    for (let i = 0; i < 5; i++) {
      expect((await call(sb, CREDITS)).status).toBe(200);
      now += 1000;
    }
    const res = await call(sb, CREDITS);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ detail: 'Request was throttled. Expected available in 55 seconds.', retry_after: 55 });
    expect(res.headers.get('retry-after')).toBe('55');
    now += 55_000; // the first request leaves the window; 429s did not extend it
    expect((await call(sb, CREDITS)).status).toBe(200);
    expect((await call(sb, CREDITS)).status).toBe(429);
  });

  it('does not count unauthenticated requests, and the limit can change at runtime', async () => {
    const sb = await sandbox({ rateLimit: 2 });
    for (let i = 0; i < 3; i++) expect((await call(sb, CREDITS, { auth: null })).status).toBe(401);
    expect((await call(sb, CREDITS)).status).toBe(200);
    expect((await call(sb, CREDITS)).status).toBe(200);
    expect((await call(sb, CREDITS)).status).toBe(429);
    sb.state.config.rateLimit = 10;
    expect((await call(sb, CREDITS)).status).toBe(200);
  });
});

describe('trial accounts', () => {
  it('allows 30 successful requests, then 403; errors do not count', async () => {
    const sb = await sandbox({ trial: true });
    for (let i = 0; i < 3; i++) {
      expect((await call(sb, `${LANGUAGES}?limit=0`)).status).toBe(400);
      expect((await call(sb, CREDITS, { method: 'POST' })).status).toBe(405);
    }
    for (let i = 0; i < 30; i++) expect((await call(sb, CREDITS)).status).toBe(200);
    const res = await call(sb, CREDITS);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      detail: 'Trial allowance of 30 requests used up. Upgrade to a Pro plan to continue.',
      error_code: 'trial_exhausted',
    });
    expect((await call(sb, CREDITS, { auth: null })).status).toBe(401);
    configure(sb.state, { trial: false });
    expect((await call(sb, CREDITS)).status).toBe(200);
  });
});

describe('control surface', () => {
  it('changes rateLimit, credits and trial over HTTP', async () => {
    const sb = await sandbox();
    const res = await call(sb, '/_sandbox/config', {
      method: 'POST',
      auth: null,
      body: JSON.stringify({ rateLimit: 1, credits: 2.345, trial: true }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rateLimit: 1, credits: 2.345, trial: true, trialUsed: 0, seed: 42 });
    expect((await call(sb, CREDITS)).body).toEqual({ credits_available: 2.345, credits_used: 0 });
    expect((await call(sb, CREDITS)).status).toBe(429);
    // A form (or text/plain) body is what a web page can post cross-site without asking: refused, nothing changed.
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', '']) {
      const crossSite = await call(sb, '/_sandbox/config', {
        method: 'POST',
        body: '{"credits": 0}',
        headers: { 'Content-Type': type },
      });
      expect(crossSite.status).toBe(415);
      expect((crossSite.body as { detail: string }).detail).toMatch(
        /control routes take Content-Type: application\/json/,
      );
    }
    expect(sb.state.ledger.balanceMilli).toBe(2_345);
  });

  it('rejects unknown or mistyped settings without applying any', async () => {
    const sb = await sandbox();
    const res = await call(sb, '/_sandbox/config', {
      method: 'POST',
      body: JSON.stringify({ rateLimit: -1, credits: 5, colour: 'red' }),
    });
    expect(res.status).toBe(400);
    const error = (res.body as { error: Record<string, string[]> }).error;
    expect(Object.keys(error).sort()).toEqual(['colour', 'rateLimit']);
    expect(sb.state.ledger.balanceMilli).toBe(1_000_000);
    const notJson = await call(sb, '/_sandbox/config', { method: 'POST', body: 'rateLimit=1' });
    expect(notJson.status).toBe(400);
    expect((notJson.body as { detail: string }).detail).toMatch(/^JSON parse error/);
  });
});
