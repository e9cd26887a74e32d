import type { ConfigStore } from '../config.js';
import { AuthError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { refreshTokens } from './oauth.js';
import { ensureFreshLogin, readLogin, type StoredLogin } from './token-store.js';

export interface SessionPorts {
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

/** Refreshed when about to expire, or when `rejected` (a token the API just answered 401 to) is still current. */
export async function freshLogin(
  ports: SessionPorts,
  opts: { rejected?: string } = {},
): Promise<StoredLogin | undefined> {
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
