/**
 * `POST /public/v1/oauth/token/` (form or JSON): the authorization_code grant with the PKCE S256
 * check, and the refresh_token grant with rotation. Codes are single-use and bound to their
 * client, redirect URI and challenge; a replayed code revokes what it issued. A refresh
 * deactivates the previous access token at once and replaces the refresh token.
 */
import { createHash } from 'node:crypto';
import { json, type Reply } from '../respond.js';
import type { RouteContext } from '../router.js';
import { oauthError } from './authorize.js';
import { deactivate, issueTokens, oauthState, type TokenPair } from './store.js';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw oauthError(400, 'invalid_request', `${name} is required.`);
  return value;
}

function tokenReply(pair: TokenPair): Reply {
  return json(
    {
      access_token: pair.access.token,
      refresh_token: pair.refresh.token,
      token_type: 'Bearer',
      expires_in: pair.ttl,
      scope: pair.refresh.scope,
    },
    200,
    { 'Cache-Control': 'no-store' },
  );
}

export function tokenPost(ctx: RouteContext): Reply {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw oauthError(400, 'invalid_request', 'Expected a form or JSON body.');
  }
  const fields = body as Record<string, unknown>;
  const grant = field(fields, 'grant_type');
  if (grant === 'authorization_code') return codeGrant(ctx, fields);
  if (grant === 'refresh_token') return refreshGrant(ctx, fields);
  throw oauthError(400, 'unsupported_grant_type', `Unsupported grant_type '${grant}'.`);
}

function codeGrant(ctx: RouteContext, body: Record<string, unknown>): Reply {
  const { state } = ctx;
  const o = oauthState(state);
  const clientId = field(body, 'client_id');
  const code = field(body, 'code');
  const verifier = field(body, 'code_verifier');
  const redirectUri = field(body, 'redirect_uri');
  if (!o.clients.has(clientId)) throw oauthError(400, 'invalid_client', 'Unknown client_id.');
  if (!VERIFIER.test(verifier)) {
    throw oauthError(400, 'invalid_request', 'code_verifier must be 43-128 characters of [A-Za-z0-9-._~].');
  }
  const record = o.codes.get(code);
  if (!record) throw oauthError(400, 'invalid_grant', 'The authorization code is invalid.');
  if (record.used) {
    // A replayed code may mean it leaked: take back whatever it bought.
    for (const access of record.issued) deactivate(state, access);
    for (const [token, refresh] of o.refreshTokens)
      if (record.issued.includes(refresh.accessToken)) o.refreshTokens.delete(token);
    throw oauthError(400, 'invalid_grant', 'The authorization code was already used.');
  }
  record.used = true;
  if (record.expiresAt <= state.now()) throw oauthError(400, 'invalid_grant', 'The authorization code has expired.');
  if (record.clientId !== clientId)
    throw oauthError(400, 'invalid_grant', 'The authorization code was issued to another client.');
  if (record.redirectUri !== redirectUri)
    throw oauthError(400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  if (challenge !== record.challenge)
    throw oauthError(400, 'invalid_grant', 'PKCE verification failed: code_verifier does not match code_challenge.');
  const resource = typeof body.resource === 'string' ? body.resource : undefined;
  if (resource !== undefined && resource !== record.resource)
    throw oauthError(400, 'invalid_grant', 'resource does not match the authorization request.');
  const pair = issueTokens(state, clientId, record.scope, record.resource);
  record.issued.push(pair.access.token);
  return tokenReply(pair);
}

function refreshGrant(ctx: RouteContext, body: Record<string, unknown>): Reply {
  const { state } = ctx;
  const o = oauthState(state);
  const clientId = field(body, 'client_id');
  const token = field(body, 'refresh_token');
  const record = o.refreshTokens.get(token);
  if (!record || record.clientId !== clientId)
    throw oauthError(400, 'invalid_grant', 'The refresh token is invalid, expired or revoked.');
  // Rotation: the old pair is dead the moment the new one exists.
  o.refreshTokens.delete(token);
  deactivate(state, record.accessToken);
  return tokenReply(issueTokens(state, clientId, record.scope, record.resource));
}
