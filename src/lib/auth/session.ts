import type { ConfigStore } from '../config.js';
import { AuthError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { refreshTokens } from './oauth.js';
import { ensureFreshLogin, readLogin, type StoredLogin } from './token-store.js';

/** What reading (and refreshing) the stored login needs; the app builds it from its context. */
export interface SessionPorts {
  /** The profile's config store, where the login lives. */
  store: ConfigStore;
  /** The base URL in effect: a login bound to another one is not used. */
  baseUrl: URL;
  /** The HTTP client the refresh request goes through, built on first use (most runs never refresh). */
  http(): Promise<HttpClient>;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
}

/** The stored login if it belongs to `baseUrl` (tokens are never sent to another origin). */
export function loginFor(login: StoredLogin | undefined, baseUrl: URL): StoredLogin | undefined {
  if (!login) return undefined;
  return login.base_url === undefined || login.base_url === baseUrl.href ? login : undefined;
}

/**
 * The profile's login with a live access token, refreshed through the token store when it is
 * about to expire or when `rejected` (a token the API just answered 401 to) is still current.
 * Undefined when the profile has no login for the current base URL.
 */
export async function freshLogin(ports: SessionPorts, opts: { rejected?: string } = {}): Promise<StoredLogin | undefined> {
  const { store } = ports;
  if (!loginFor(readLogin(store), ports.baseUrl)) return undefined;
  return ensureFreshLogin(
    {
      store,
      now: ports.now,
      sleep: ports.sleep,
      signal: ports.signal,
      refresh: async (login) => {
        if (!login.client_id || !login.refresh_token) throw new AuthError('The login cannot be refreshed.');
        return refreshTokens(await ports.http(), { clientId: login.client_id, refreshToken: login.refresh_token });
      },
    },
    opts,
  );
}
