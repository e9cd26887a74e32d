import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { configureOAuth } from '../../src/sandbox/oauth/store.js';
import { call } from './helpers.js';

// The sandbox's clock runs with the wall clock unless a test holds it at an instant (`frozenAt`).
let frozenAt: number | undefined;
const box = useSandbox({ seed: 1, now: () => frozenAt ?? Date.now() });
const REDIRECT = 'http://127.0.0.1:45678/callback';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

async function register(uris = [REDIRECT]): Promise<string> {
  const res = await call(box.get(), '/public/v1/oauth/register/', {
    method: 'POST',
    auth: null,
    body: JSON.stringify({ client_name: 'test', redirect_uris: uris, scope: 'all openid' }),
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    client_name: 'test',
    redirect_uris: uris,
    scope: 'all',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  return (res.body as { client_id: string }).client_id;
}

function authorizeQuery(clientId: string, extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    state: 'st',
    ...extra,
  }).toString();
}

async function authorize(clientId: string, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${box.get().url}/public/v1/oauth/authorize/?${authorizeQuery(clientId, extra)}`, {
    redirect: 'manual',
  });
}

async function code(clientId: string): Promise<string> {
  configureOAuth(box.get().state, { autoApprove: 'approve' });
  const res = await authorize(clientId);
  const location = new URL(res.headers.get('location') as string);
  expect(location.searchParams.get('state')).toBe('st');
  return location.searchParams.get('code') as string;
}

async function token(fields: Record<string, string>, json = false) {
  const res = await fetch(`${box.get().url}/public/v1/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
    body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

function codeGrant(clientId: string, c: string, extra: Record<string, string> = {}) {
  return {
    grant_type: 'authorization_code',
    client_id: clientId,
    code: c,
    code_verifier: VERIFIER,
    redirect_uri: REDIRECT,
    ...extra,
  };
}

describe('sandbox OAuth', () => {
  it('validates registrations', async () => {
    const res = await call(box.get(), '/public/v1/oauth/register/', {
      method: 'POST',
      auth: null,
      body: JSON.stringify({ redirect_uris: ['nope'] }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { client_name: ['This field is required.'], redirect_uris: ['Enter valid http(s) URLs.'] },
    });
  });

  it('shows a consent page whose forms approve or deny', async () => {
    configureOAuth(box.get().state, { autoApprove: null });
    const clientId = await register();
    const page = await authorize(clientId);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="decision" value="approve"');
    const id = /name="request_id" value="([^"]+)"/.exec(html)?.[1] as string;
    const deny = await fetch(`${box.get().url}/public/v1/oauth/authorize/`, {
      method: 'POST',
      body: new URLSearchParams({ request_id: id, decision: 'deny' }),
      redirect: 'manual',
    });
    const location = new URL(deny.headers.get('location') as string);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st');
    // A consent request is answered once.
    const again = await fetch(`${box.get().url}/public/v1/oauth/authorize/`, {
      method: 'POST',
      body: new URLSearchParams({ request_id: id, decision: 'approve' }),
      redirect: 'manual',
    });
    expect(again.status).toBe(400);
  });

  it('never redirects to an unregistered URI; other errors go back to the client', async () => {
    const clientId = await register();
    expect((await authorize('unknown')).status).toBe(400);
    const wrong = await authorize(clientId, { redirect_uri: 'http://127.0.0.1:1/callback' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_request' });
    const plain = await authorize(clientId, { code_challenge_method: 'plain' });
    expect(new URL(plain.headers.get('location') as string).searchParams.get('error')).toBe('invalid_request');
  });

  it('exchanges a code once, with the right verifier, client and redirect URI', async () => {
    const clientId = await register();
    const wrongVerifier = await token(codeGrant(clientId, await code(clientId), { code_verifier: 'a'.repeat(43) }));
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(wrongVerifier.body.error_description).toMatch(/PKCE/);

    const other = await register();
    expect((await token(codeGrant(other, await code(clientId)))).body.error).toBe('invalid_grant');
    expect(
      (await token(codeGrant(clientId, await code(clientId), { redirect_uri: 'http://127.0.0.1:2/cb' }))).body.error,
    ).toBe('invalid_grant');
    expect((await token(codeGrant(clientId, await code(clientId), { code_verifier: 'short' }))).body.error).toBe(
      'invalid_request',
    );

    const c = await code(clientId);
    const ok = await token(codeGrant(clientId, c), true);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'all' });
    expect(
      (await call(box.get(), '/public/v1/accounts/credits/', { auth: `Bearer ${ok.body.access_token}` })).status,
    ).toBe(200);
    // Replaying the code fails and takes back the tokens it bought.
    expect((await token(codeGrant(clientId, c))).body.error).toBe('invalid_grant');
    expect(
      (await call(box.get(), '/public/v1/accounts/credits/', { auth: `Bearer ${ok.body.access_token}` })).status,
    ).toBe(401);
    expect(
      (await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: ok.body.refresh_token })).body
        .error,
    ).toBe('invalid_grant');
  });

  it('rotates on refresh and kills the old access token at once', async () => {
    const clientId = await register();
    const first = (await token(codeGrant(clientId, await code(clientId)))).body;
    const second = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: first.refresh_token,
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(
      (await call(box.get(), '/public/v1/accounts/credits/', { auth: `Bearer ${first.access_token}` })).status,
    ).toBe(401);
    expect(
      (await call(box.get(), '/public/v1/accounts/credits/', { auth: `Bearer ${second.body.access_token}` })).status,
    ).toBe(200);
    expect(
      (await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token })).body
        .error,
    ).toBe('invalid_grant');
  });

  it('answers malformed token requests with OAuth errors', async () => {
    expect((await token({ grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
    expect((await token({ grant_type: 'refresh_token' })).body).toMatchObject({
      error: 'invalid_request',
      error_description: 'client_id is required.',
    });
  });

  it('expires access tokens after the configured TTL', async () => {
    configureOAuth(box.get().state, { accessTokenTtl: 1 });
    const clientId = await register();
    const issued = Date.parse('2026-11-22T10:00:00.000Z');
    frozenAt = issued;
    try {
      const t = (await token(codeGrant(clientId, await code(clientId)))).body;
      expect(t.expires_in).toBe(1);
      const record = box.get().state.apiKeys.get(t.access_token);
      expect(record?.kind).toBe('oauth_access');
      expect(record?.expires_at).toBe('2026-11-22T10:00:01.000Z');
      const credits = () => call(box.get(), '/public/v1/accounts/credits/', { auth: `Bearer ${t.access_token}` });
      frozenAt = issued + 999;
      expect((await credits()).status).toBe(200);
      frozenAt = issued + 1000;
      expect((await credits()).status).toBe(401);
    } finally {
      frozenAt = undefined;
      configureOAuth(box.get().state, { accessTokenTtl: 3600 });
    }
  });

  it('has a control route for the knobs', async () => {
    const res = await call(box.get(), '/_sandbox/oauth', {
      method: 'POST',
      auth: null,
      body: JSON.stringify({ autoApprove: 'deny' }),
    });
    expect(res.body).toEqual({ autoApprove: 'deny', accessTokenTtl: 3600 });
    const bad = await call(box.get(), '/_sandbox/oauth', {
      method: 'POST',
      auth: null,
      body: JSON.stringify({ autoApprove: 'yes' }),
    });
    expect(bad.status).toBe(400);
    configureOAuth(box.get().state, { autoApprove: null });
  });
});

describe('sandbox API keys', () => {
  it('validates writes and 404s unknown ids', async () => {
    const bad = await call(box.get(), '/public/v1/accounts/tokens/', {
      method: 'POST',
      body: JSON.stringify({ active: 'yes', expires_at: 'soon', scopes: ['read'] }),
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { error: object }).error).sort()).toEqual(['active', 'expires_at', 'scopes']);
    expect((await call(box.get(), '/public/v1/accounts/tokens/999/', { method: 'PATCH', body: '{}' })).status).toBe(
      404,
    );
    const list = await call(box.get(), '/public/v1/accounts/tokens/');
    expect(
      (list.body as Array<Record<string, unknown>>).every((k) => !('kind' in k) && typeof k.token === 'string'),
    ).toBe(true);
  });
});
