/**
 * `GET /public/v1/oauth/authorize/` and the consent form it shows. Problems with `client_id` or
 * `redirect_uri` are answered here (400 JSON) and never redirected, as RFC 6749 §4.1.2.1 requires;
 * every other problem goes back to the client's redirect URI as `error=...&state=...`.
 */
import { randomBytes } from 'node:crypto';
import { ApiError, type Reply } from '../respond.js';
import type { RouteContext } from '../router.js';
import { isLoopbackRedirect } from '../loopback.js';
import { issueCode, oauthState, type AuthorizeRequest } from './store.js';

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function oauthError(status: number, error: string, description: string): ApiError {
  return new ApiError({ status, body: { error, error_description: description } });
}

function redirect(location: string): Reply {
  const escaped = escapeHtml(location);
  return {
    status: 302,
    headers: { Location: location, 'Cache-Control': 'no-store' },
    raw: `<!doctype html><p>Redirecting to <a href="${escaped}">${escaped}</a></p>\n`,
    contentType: 'text/html; charset=utf-8',
  };
}

/** The client's redirect URI with `params` added to its query. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): Reply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return redirect(url.href);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Validates an authorize query; the reply is a redirect with an error, or undefined when valid. */
function parseAuthorize(ctx: RouteContext): { request: AuthorizeRequest } | { reply: Reply } {
  const q = ctx.query;
  const o = oauthState(ctx.state);
  const clientId = q.get('client_id') ?? '';
  const client = o.clients.get(clientId);
  if (!client) throw oauthError(400, 'invalid_client', 'Unknown client_id.');
  const redirectUri = q.get('redirect_uri') ?? '';
  if (!client.redirect_uris.includes(redirectUri)) {
    throw oauthError(400, 'invalid_request', 'redirect_uri does not match a registered redirect URI.');
  }
  const state = q.get('state') ?? undefined;
  const fail = (error: string, description: string): { reply: Reply } => ({
    reply: redirectWith(redirectUri, { error, error_description: description, state }),
  });
  if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code.');
  const method = q.get('code_challenge_method') ?? 'S256';
  if (method !== 'S256') return fail('invalid_request', 'Only the S256 code_challenge_method is supported.');
  const challenge = q.get('code_challenge') ?? '';
  if (!CHALLENGE.test(challenge))
    return fail('invalid_request', 'code_challenge is required (base64url SHA-256, 43 characters).');
  // Unknown scopes are dropped, and a client never gets more than it registered with.
  const registered = client.scope.split(' ');
  const asked = (q.get('scope') ?? client.scope).split(' ').filter((s) => registered.includes(s));
  return {
    request: {
      clientId,
      redirectUri,
      challenge,
      scope: asked.join(' '),
      state,
      resource: q.get('resource') ?? undefined,
    },
  };
}

/** GET: auto-approve/deny when configured, else the consent page. */
export function authorizeGet(ctx: RouteContext): Reply {
  const parsed = parseAuthorize(ctx);
  if ('reply' in parsed) return parsed.reply;
  const { request } = parsed;
  const o = oauthState(ctx.state);
  // Auto-approval sends codes to loopback only; an allowed remote redirect still needs a person's click.
  if (o.settings.autoApprove === 'approve' && isLoopbackRedirect(request.redirectUri)) {
    return redirectWith(request.redirectUri, { code: issueCode(ctx.state, request), state: request.state });
  }
  if (o.settings.autoApprove === 'deny') {
    return redirectWith(request.redirectUri, {
      error: 'access_denied',
      error_description: 'The user denied access.',
      state: request.state,
    });
  }
  const id = randomBytes(16).toString('hex');
  o.pending.set(id, request);
  const client = o.clients.get(request.clientId);
  return {
    status: 200,
    raw: consentPage(id, client?.client_name ?? request.clientId, request),
    contentType: 'text/html; charset=utf-8',
    headers: consentHeaders(request.redirectUri),
  };
}

/** POST (the consent form): `request_id` and `decision=approve|deny`. */
export function authorizePost(ctx: RouteContext): Reply {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const o = oauthState(ctx.state);
  const id = typeof body.request_id === 'string' ? body.request_id : '';
  const request = o.pending.get(id);
  if (!request) throw oauthError(400, 'invalid_request', 'Unknown or already answered consent request.');
  o.pending.delete(id);
  if (body.decision === 'approve') {
    return redirectWith(request.redirectUri, { code: issueCode(ctx.state, request), state: request.state });
  }
  return redirectWith(request.redirectUri, {
    error: 'access_denied',
    error_description: 'The user denied access.',
    state: request.state,
  });
}

/**
 * The consent page may not be framed (a page that frames it could trick a click on Approve) and
 * loads nothing. Its form posts here, and the answer redirects to the client: both are allowed
 * form targets, since browsers check `form-action` along the redirect too.
 */
export function consentHeaders(redirectUri: string): Record<string, string> {
  return {
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self' ${new URL(redirectUri).origin}`,
    'Cache-Control': 'no-store',
  };
}

function consentPage(id: string, clientName: string, request: AuthorizeRequest): string {
  const name = escapeHtml(clientName);
  const form = (decision: string, label: string): string =>
    `<form method="post" action="/public/v1/oauth/authorize/" style="display:inline">` +
    `<input type="hidden" name="request_id" value="${id}"><input type="hidden" name="decision" value="${decision}">` +
    `<button type="submit" name="${decision}">${label}</button></form>`;
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>Authorize ${name}</title></head>` +
    `<body style="font-family:sans-serif;max-width:32em;margin:4em auto">` +
    `<h1>Sandbox: authorize ${name}?</h1>` +
    `<p><strong>${name}</strong> asks for access to your sandbox account (scope: <code>${escapeHtml(request.scope || 'none')}</code>).</p>` +
    `<p>It will be redirected to <code>${escapeHtml(request.redirectUri)}</code>.</p>` +
    `${form('approve', 'Approve')} ${form('deny', 'Deny')}</body></html>\n`
  );
}
