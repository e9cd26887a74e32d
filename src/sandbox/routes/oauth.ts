/**
 * Sandbox routes: OAuth 2.0 with PKCE (api-contract §13) and connected apps.
 *   POST /public/v1/oauth/register/    {client_name, redirect_uris, scope?} -> 201 client (no auth); loopback
 *                                      redirect URIs only, plus those allowed at start-up (`--allow-redirect`)
 *   GET  /public/v1/oauth/authorize/   consent page, or a redirect when auto-approve is set (no auth)
 *   POST /public/v1/oauth/authorize/   the consent form: request_id, decision=approve|deny (no auth)
 *   POST /public/v1/oauth/token/       authorization_code / refresh_token grants, form or JSON (no auth)
 *   GET  /public/v1/oauth/apps/        [{id, client_id, client_name, scope, created_at, last_used_at}]
 *   DELETE /public/v1/oauth/apps/{id}/ revokes the app's tokens -> 204
 *   GET|POST /_sandbox/oauth           {autoApprove: "approve"|"deny"|null, accessTokenTtl: seconds}
 * OAuth errors are 400 `{"error": "invalid_grant", "error_description": "..."}`.
 */
import { parseJson } from '../body.js';
import { ApiError, created, fieldErrors, json, noContent, notFound, type FieldErrors } from '../respond.js';
import type { Router } from '../router.js';
import { isLoopbackRedirect } from '../loopback.js';
import { authorizeGet, authorizePost } from '../oauth/authorize.js';
import { tokenPost } from '../oauth/token.js';
import {
  configureOAuth,
  oauthState,
  randomToken,
  revokeClient,
  type OAuthClient,
  type OAuthSettings,
} from '../oauth/store.js';

function parseRegistration(
  body: unknown,
  allowed: ReadonlySet<string>,
): { name: string; uris: string[]; scope: string } {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const name = typeof b.client_name === 'string' ? b.client_name.trim() : '';
  if (!name) errors.client_name = ['This field is required.'];
  const uris = Array.isArray(b.redirect_uris) ? b.redirect_uris : [];
  if (uris.length === 0) errors.redirect_uris = ['At least one redirect URI is required.'];
  else if (!uris.every((u) => typeof u === 'string' && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol))) {
    errors.redirect_uris = ['Enter valid http(s) URLs.'];
  } else {
    // Loopback only (RFC 8252 §7.3), or what the operator allowed: codes must not leave the machine.
    const refused = (uris as string[]).filter((u) => !isLoopbackRedirect(u) && !allowed.has(u));
    if (refused.length > 0) {
      errors.redirect_uris = [
        `Not allowed: ${refused.join(', ')}. The sandbox accepts loopback redirect URIs only (http://127.0.0.1:<port>/..., http://localhost:<port>/..., http://[::1]:<port>/...); start it with --allow-redirect <url> to allow another.`,
      ];
    }
  }
  if (b.scope !== undefined && typeof b.scope !== 'string') errors.scope = ['Must be a space-separated string.'];
  if (Object.keys(errors).length > 0) throw new ApiError(fieldErrors(400, errors));
  // Unknown scopes are dropped (only `all` exists), as the dashboard does.
  const scope = (typeof b.scope === 'string' ? b.scope : 'all')
    .split(' ')
    .filter((s) => s === 'all')
    .join(' ');
  return { name, uris: uris as string[], scope };
}

/** Longest access-token lifetime `/_sandbox/oauth` accepts: a year. */
const MAX_TOKEN_TTL = 31_536_000;

function parseSettings(raw: Buffer): Partial<OAuthSettings> {
  const parsed = parseJson(raw.length > 0 ? raw : Buffer.from('{}'));
  if (!parsed.ok) throw new ApiError(parsed.reply);
  const body = (parsed.body ?? {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const patch: Partial<OAuthSettings> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'autoApprove' && (value === 'approve' || value === 'deny' || value === null)) patch.autoApprove = value;
    else if (
      key === 'accessTokenTtl' &&
      typeof value === 'number' &&
      Number.isInteger(value) &&
      value > 0 &&
      value <= MAX_TOKEN_TTL
    )
      patch.accessTokenTtl = value;
    else
      errors[key] = [
        `Unknown setting or bad value. Known: autoApprove (approve|deny|null), accessTokenTtl (seconds, 1 to ${MAX_TOKEN_TTL}).`,
      ];
  }
  if (Object.keys(errors).length > 0) throw new ApiError(fieldErrors(400, errors));
  return patch;
}

export function register(router: Router): void {
  router.post(
    '/public/v1/oauth/register/',
    ({ state, body }) => {
      const { name, uris, scope } = parseRegistration(body, oauthState(state).allowedRedirects);
      const client: OAuthClient = {
        client_id: randomToken('sbx_client_').slice(0, 40),
        client_name: name,
        redirect_uris: uris,
        scope,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        client_id_issued_at: Math.floor(state.now() / 1000),
      };
      oauthState(state).clients.set(client.client_id, client);
      return created(client);
    },
    { auth: false },
  );
  router.get('/public/v1/oauth/authorize/', authorizeGet, { auth: false });
  router.post('/public/v1/oauth/authorize/', authorizePost, { auth: false });
  router.post('/public/v1/oauth/token/', tokenPost, { auth: false });

  router.get('/public/v1/oauth/apps/', ({ state }) => json([...oauthState(state).apps.values()]));
  router.delete('/public/v1/oauth/apps/:id/', ({ state, params }) => {
    const app = [...oauthState(state).apps.values()].find((a) => String(a.id) === params.id);
    if (!app) return notFound();
    revokeClient(state, app.client_id);
    return noContent();
  });

  router.get('/_sandbox/oauth', ({ state }) => json(configureOAuth(state, {})));
  router.post('/_sandbox/oauth', ({ state, rawBody }) => json(configureOAuth(state, parseSettings(rawBody))), {
    body: 'raw',
  });
}
