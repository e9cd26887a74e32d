/**
 * The sandbox's OAuth world (api-contract §13): registered public clients, pending consent
 * requests, single-use authorization codes, refresh tokens and connected apps. Access tokens are
 * ordinary credentials in `state.apiKeys` (kind `oauth_access`), so the normal auth guard accepts
 * them and deactivating one is enough to refuse it.
 */
import { randomBytes } from 'node:crypto';
import { addApiKey, isoNow, nextId, slot, type ApiKeyRecord, type SandboxState } from '../state.js';

export interface OAuthClient {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  scope: string;
  token_endpoint_auth_method: 'none';
  grant_types: string[];
  response_types: string[];
  client_id_issued_at: number;
}

/** What a consent page (or auto-approval) turns into a code. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  state: string | undefined;
  resource: string | undefined;
}

export interface CodeRecord extends AuthorizeRequest {
  code: string;
  expiresAt: number;
  used: boolean;
  /** Tokens issued from this code: revoked if the code is ever replayed (RFC 6749 §4.1.2). */
  issued: string[];
}

export interface RefreshRecord {
  token: string;
  clientId: string;
  scope: string;
  accessToken: string;
  resource: string | undefined;
}

/** A connected app: one per client the user approved, until revoked. */
export interface ConnectedApp {
  id: number;
  client_id: string;
  client_name: string;
  scope: string;
  created_at: string;
  last_used_at: string | null;
}

/** Sandbox-only knobs: `approve`/`deny` skip the consent page (tests); TTL of access tokens. */
export interface OAuthSettings {
  autoApprove: 'approve' | 'deny' | null;
  accessTokenTtl: number;
}

export interface OAuthState {
  settings: OAuthSettings;
  clients: Map<string, OAuthClient>;
  pending: Map<string, AuthorizeRequest>;
  codes: Map<string, CodeRecord>;
  refreshTokens: Map<string, RefreshRecord>;
  apps: Map<string, ConnectedApp>;
  /**
   * Non-loopback redirect URIs the operator allowed at start-up (`--allow-redirect`); exact
   * strings. Not changeable through `/_sandbox/`: a control request must never widen where codes go.
   */
  allowedRedirects: Set<string>;
}

export const CODE_TTL_MS = 10 * 60_000;
export const DEFAULT_ACCESS_TTL_S = 3600;

export function oauthState(state: SandboxState): OAuthState {
  return slot(state, 'oauth', () => ({
    settings: { autoApprove: null, accessTokenTtl: DEFAULT_ACCESS_TTL_S },
    clients: new Map(),
    pending: new Map(),
    codes: new Map(),
    refreshTokens: new Map(),
    apps: new Map(),
    allowedRedirects: new Set(),
  }));
}

/** Adds redirect URIs a client may register besides loopback ones (start-up only). */
export function allowRedirects(state: SandboxState, uris: readonly string[]): void {
  const allowed = oauthState(state).allowedRedirects;
  for (const uri of uris) allowed.add(uri);
}

/** In-process tests change the knobs here; scripts use `POST /_sandbox/oauth`. */
export function configureOAuth(state: SandboxState, patch: Partial<OAuthSettings>): OAuthSettings {
  const settings = oauthState(state).settings;
  if (patch.autoApprove !== undefined) settings.autoApprove = patch.autoApprove;
  if (patch.accessTokenTtl !== undefined) settings.accessTokenTtl = patch.accessTokenTtl;
  return { ...settings };
}

export function randomToken(prefix: string): string {
  return `${prefix}${randomBytes(24).toString('base64url')}`;
}

/** Issues a code for an approved request and records the connected app. */
export function issueCode(state: SandboxState, request: AuthorizeRequest): string {
  const o = oauthState(state);
  const code = randomToken('sbx_code_');
  o.codes.set(code, { ...request, code, expiresAt: state.now() + CODE_TTL_MS, used: false, issued: [] });
  const client = o.clients.get(request.clientId);
  if (client && !o.apps.has(client.client_id)) {
    o.apps.set(client.client_id, {
      id: nextId(state, 'oauth_app'),
      client_id: client.client_id,
      client_name: client.client_name,
      scope: request.scope,
      created_at: isoNow(state),
      last_used_at: null,
    });
  }
  return code;
}

export interface TokenPair {
  access: ApiKeyRecord;
  refresh: RefreshRecord;
  ttl: number;
}

/** A new access token (a credential the guard accepts) and its refresh token. */
export function issueTokens(
  state: SandboxState,
  clientId: string,
  scope: string,
  resource: string | undefined,
): TokenPair {
  const o = oauthState(state);
  const ttl = o.settings.accessTokenTtl;
  const client = o.clients.get(clientId);
  const access = addApiKey(state, {
    token: randomToken('sbx_oat_'),
    name: `OAuth: ${client?.client_name ?? clientId}`,
    scopes: scope.split(' ').filter(Boolean),
    expires_at: new Date(state.now() + ttl * 1000).toISOString(),
    kind: 'oauth_access',
  });
  const refresh: RefreshRecord = {
    token: randomToken('sbx_ort_'),
    clientId,
    scope,
    accessToken: access.token,
    resource,
  };
  o.refreshTokens.set(refresh.token, refresh);
  const app = o.apps.get(clientId);
  if (app) app.last_used_at = isoNow(state);
  return { access, refresh, ttl };
}

/** Turns an access token off at once (the guard then answers 401 "Invalid token."). */
export function deactivate(state: SandboxState, accessToken: string): void {
  const record = state.apiKeys.get(accessToken);
  if (record) record.active = false;
}

/** Revokes everything a client holds: its refresh tokens, their access tokens, and the app entry. */
export function revokeClient(state: SandboxState, clientId: string): void {
  const o = oauthState(state);
  for (const [token, refresh] of o.refreshTokens) {
    if (refresh.clientId !== clientId) continue;
    deactivate(state, refresh.accessToken);
    o.refreshTokens.delete(token);
  }
  o.apps.delete(clientId);
}
