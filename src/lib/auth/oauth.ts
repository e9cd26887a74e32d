import type { HttpClient } from '../http/client.js';
import { buildUrl } from '../http/url.js';
import { AuthError, CliError } from '../errors.js';
import { freePlan, type Plan } from '../api/plan.js';

/** The registration result (api-contract §13.1); unknown fields are kept. */
export interface RegisteredClient extends Record<string, unknown> {
  client_id: string;
  redirect_uris?: string[];
}

/** The token endpoint's answer (api-contract §13.3). */
export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
}

export const CLIENT_NAME = 'creators CLI';

/** `POST /public/v1/oauth/register/` (no auth): a public client with one loopback redirect URI. */
export async function registerClient(http: HttpClient, redirectUri: string): Promise<RegisteredClient> {
  const res = await http
    .request<RegisteredClient>({ ...registerClientPlan(redirectUri), noAuth: true })
    .catch((err: unknown) => {
      throw asAuthError(err, 'Could not register the CLI as an OAuth client');
    });
  // A `client_id` is there: the HTTP client checked the answer's shape (src/contract/responses.ts).
  return res.data;
}

export function registerClientPlan(redirectUri: string): Plan {
  return freePlan('POST', 'oauth/register', {
    body: { client_name: CLIENT_NAME, redirect_uris: [redirectUri], scope: 'all' },
  });
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  challenge: string;
  state: string;
}

/** The browser URL of `GET /public/v1/oauth/authorize/` (S256 only, scope `all`). */
export function authorizeUrl(baseUrl: URL, p: AuthorizeParams): string {
  return buildUrl(baseUrl, 'oauth/authorize', {
    response_type: 'code',
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
    scope: 'all',
    state: p.state,
  }).href;
}

export async function exchangeCode(http: HttpClient, p: CodeExchange): Promise<TokenResponse> {
  return tokenRequest(http, exchangeFields(p));
}

export interface CodeExchange {
  clientId: string;
  code: string;
  verifier: string;
  redirectUri: string;
}

/** The plan of `exchangeCode` (free); the code and verifier are redacted wherever a plan is printed. */
export function exchangeCodePlan(p: CodeExchange): Plan {
  return tokenPlan(exchangeFields(p));
}

function exchangeFields(p: CodeExchange): Record<string, string> {
  return {
    grant_type: 'authorization_code',
    client_id: p.clientId,
    code: p.code,
    code_verifier: p.verifier,
    redirect_uri: p.redirectUri,
  };
}

function tokenPlan(fields: Record<string, string>): Plan {
  return freePlan('POST', 'oauth/token', { body: fields });
}

/** Trades a refresh token for a new pair; the server kills the old access token at once. */
export async function refreshTokens(
  http: HttpClient,
  p: { clientId: string; refreshToken: string },
): Promise<TokenResponse> {
  // A refresh only keeps the stored login alive: allowed in a dry run, whose free reads need a live token.
  return tokenRequest(
    http,
    { grant_type: 'refresh_token', client_id: p.clientId, refresh_token: p.refreshToken },
    true,
  );
}

/** Form-encoded, as OAuth clients conventionally send it (the endpoint takes JSON too); never authenticated. */
async function tokenRequest(http: HttpClient, fields: Record<string, string>, upkeep = false): Promise<TokenResponse> {
  const { method, path } = tokenPlan(fields);
  const res = await http
    .request<TokenResponse>({
      method,
      path,
      noAuth: true,
      credentialUpkeep: upkeep,
      // A POST, so Ctrl-C does not cut it once sent (see HttpClient): the server rotates the pair on
      // receipt, and the answer is stored before the command stops.
      rawBody: { data: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' },
    })
    .catch((err: unknown) => {
      throw asAuthError(
        err,
        fields.grant_type === 'refresh_token'
          ? 'Could not refresh the login'
          : 'Could not exchange the authorization code',
      );
    });
  return res.data;
}

/** Plain words for the OAuth error codes (RFC 6749 §4.1.2.1 and §5.2). */
export const OAUTH_ERRORS: Record<string, string> = {
  access_denied: 'access was denied in the browser',
  invalid_grant:
    'the authorization code or refresh token is invalid, expired, already used, or was issued to another client',
  invalid_request: 'the server rejected the request as malformed',
  invalid_client: 'the server does not know this CLI\u2019s client_id',
  invalid_scope: 'the requested scope was refused',
  unauthorized_client: 'this client may not use this grant',
  unsupported_grant_type: 'the server does not support this grant type',
  unsupported_response_type: 'the server does not support the authorization code flow for this client',
  server_error: 'the authorization server had an error',
  temporarily_unavailable: 'the authorization server is temporarily unavailable',
};

export function describeOAuthError(code: string): string {
  return OAUTH_ERRORS[code] ?? code;
}

/** A 4xx becomes AuthError (exit 4) naming the OAuth error; network failures and 5xx keep their own. */
function asAuthError(err: unknown, what: string): unknown {
  if (!(err instanceof CliError) || err.status === undefined || err.status >= 500 || err.status === 429) return err;
  const code = err.code in OAUTH_ERRORS ? err.code : undefined;
  const reason = code ? `${code}: ${describeOAuthError(code)}` : err.message;
  return new AuthError(`${what} (HTTP ${err.status}): ${reason}.`, {
    status: err.status,
    code: code ?? 'login_failed',
    hint: code === 'invalid_grant' ? 'Run `creators login` again.' : undefined,
  });
}
