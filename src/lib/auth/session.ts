import type { Context } from '../../app/context.js';
import { AuthError } from '../errors.js';
import { refreshTokens } from './oauth.js';
import { ensureFreshLogin, readLogin, type StoredLogin } from './token-store.js';

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
export async function freshLogin(ctx: Context, opts: { rejected?: string } = {}): Promise<StoredLogin | undefined> {
  const store = await ctx.config();
  const baseUrl = await ctx.baseUrl();
  if (!loginFor(readLogin(store), baseUrl)) return undefined;
  return ensureFreshLogin(
    {
      store,
      now: ctx.deps.now,
      sleep: ctx.deps.sleep,
      signal: ctx.deps.signal,
      refresh: async (login) => {
        if (!login.client_id || !login.refresh_token) throw new AuthError('The login cannot be refreshed.');
        return refreshTokens(await ctx.http(), { clientId: login.client_id, refreshToken: login.refresh_token });
      },
    },
    opts,
  );
}
