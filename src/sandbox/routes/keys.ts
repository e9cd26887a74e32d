/**
 * Sandbox routes: API keys (api-contract §12). Only `api_key` credentials are listed here; OAuth
 * access tokens share the credential table but are not keys.
 *   GET    /public/v1/accounts/tokens/       [token object], inactive ones included
 *   POST   /public/v1/accounts/tokens/       {name?, expires_at?, scopes?} -> 201 token object
 *   PATCH  /public/v1/accounts/tokens/{id}/  any of name, active, expires_at (ISO or null), scopes
 *   DELETE /public/v1/accounts/tokens/{id}/  -> 204
 * Token object: {id, name, scopes, active, expires_at, token, created_at, last_used_at}; the token
 * value comes back in full on every read, as the real service does.
 */
import { ApiError, created, fieldErrors, json, noContent, notFound, type FieldErrors } from '../respond.js';
import type { RouteContext, Router } from '../router.js';
import { addApiKey, type ApiKeyRecord } from '../state.js';

const BASE = '/public/v1/accounts/tokens/';

function view(record: ApiKeyRecord): Record<string, unknown> {
  const { kind: _kind, account: _account, ...rest } = record;
  return rest;
}

function keys(ctx: RouteContext): ApiKeyRecord[] {
  return [...ctx.state.apiKeys.values()].filter((k) => k.kind === 'api_key');
}

function find(ctx: RouteContext): ApiKeyRecord | undefined {
  return keys(ctx).find((k) => String(k.id) === ctx.params.id);
}

type Patch = Partial<Pick<ApiKeyRecord, 'name' | 'active' | 'expires_at' | 'scopes'>>;

/** Validates the writable fields; every problem is reported at once, DRF-style. */
function parsePatch(body: unknown): Patch {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const patch: Patch = {};
  if ('name' in b) {
    if (typeof b.name !== 'string' || b.name.length > 100)
      errors.name = ['Must be a string of at most 100 characters.'];
    else patch.name = b.name;
  }
  if ('active' in b) {
    if (typeof b.active !== 'boolean') errors.active = ['Must be a valid boolean.'];
    else patch.active = b.active;
  }
  if ('expires_at' in b) {
    if (b.expires_at === null) patch.expires_at = null;
    else if (typeof b.expires_at !== 'string' || Number.isNaN(Date.parse(b.expires_at))) {
      errors.expires_at = ['Datetime has wrong format. Use ISO 8601, or null for no expiry.'];
    } else patch.expires_at = new Date(b.expires_at).toISOString();
  }
  if ('scopes' in b) {
    if (!Array.isArray(b.scopes) || !b.scopes.every((s) => s === 'all')) errors.scopes = ['The only scope is "all".'];
    else patch.scopes = b.scopes as string[];
  }
  if (Object.keys(errors).length > 0) throw new ApiError(fieldErrors(400, errors));
  return patch;
}

export function register(router: Router): void {
  router.get(BASE, (ctx) => json(keys(ctx).map(view)));
  router.post(BASE, (ctx) => {
    const patch = parsePatch(ctx.body);
    const record = addApiKey(ctx.state, { ...patch, name: patch.name || 'API key', kind: 'api_key' });
    return created(view(record));
  });
  router.patch(`${BASE}:id/`, (ctx) => {
    const record = find(ctx);
    if (!record) return notFound();
    Object.assign(record, parsePatch(ctx.body));
    return json(view(record));
  });
  router.delete(`${BASE}:id/`, (ctx) => {
    const record = find(ctx);
    if (!record) return notFound();
    ctx.state.apiKeys.delete(record.token);
    return noContent();
  });
}
