import { dirname, join } from 'node:path';
import type { ConfigStore } from '../config.js';
import { AuthError, CliError, EXIT } from '../errors.js';
import type { TokenResponse } from './oauth.js';
import { holdExit } from '../io/exit-holds.js';
import { LockPathTaken, withLock } from '../io/lock.js';

export const LOGIN_KEY = 'oauth';
export const CLIENTS_KEY = 'oauth-clients';
/** Refresh this long before the access token expires, so a request never starts with a dying token. */
export const REFRESH_MARGIN_MS = 60_000;
/**
 * A login lock not renewed for this long is a crashed process's; renewed every third of it, so a slow refresh keeps it.
 */
export const STALE_LOCK_MS = 30_000;

/** What a login leaves in the profile. `expires_at` is in ms since the epoch. */
export interface StoredLogin {
  access_token: string;
  refresh_token?: string | undefined;
  token_type?: string | undefined;
  scope?: string | undefined;
  expires_at?: number | undefined;
  /** The base URL the tokens belong to: they are never sent anywhere else. */
  base_url?: string | undefined;
  client_id?: string | undefined;
  obtained_at?: number | undefined;
}

export interface StoredClient {
  client_id: string;
  redirect_uri: string;
  registered_at?: string;
}

/** The login of the profile, read from disk (conf re-reads the file on every get). */
export function readLogin(store: ConfigStore): StoredLogin | undefined {
  const value = store.get(LOGIN_KEY) as StoredLogin | undefined;
  return value && typeof value === 'object' && typeof value.access_token === 'string' && value.access_token
    ? value
    : undefined;
}

/** Replaces the whole login in one write (conf writes to a temp file and renames it: atomic). */
export function saveLogin(store: ConfigStore, login: StoredLogin): void {
  store.set(LOGIN_KEY, login);
}

export function clearLogin(store: ConfigStore): boolean {
  const had = readLogin(store) !== undefined;
  store.unset(LOGIN_KEY);
  return had;
}

export function loginFromTokens(tokens: TokenResponse, now: number, base: Partial<StoredLogin>): StoredLogin {
  return {
    ...base,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? base.refresh_token,
    token_type: tokens.token_type ?? 'Bearer',
    scope: tokens.scope ?? base.scope,
    expires_at:
      typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? now + tokens.expires_in * 1000 : undefined,
    obtained_at: now,
  };
}

export function readClient(store: ConfigStore, baseUrl: string): StoredClient | undefined {
  const all = store.get(CLIENTS_KEY) as Record<string, StoredClient> | undefined;
  const client = all?.[baseUrl];
  return client && typeof client.client_id === 'string' ? client : undefined;
}

export function saveClient(store: ConfigStore, baseUrl: string, client: StoredClient): void {
  const all = { ...((store.get(CLIENTS_KEY) as Record<string, StoredClient> | undefined) ?? {}) };
  all[baseUrl] = client;
  store.set(CLIENTS_KEY, all);
}

export interface RefreshDeps {
  store: ConfigStore;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
  refresh(login: StoredLogin): Promise<TokenResponse>;
}

function expiring(login: StoredLogin, now: number): boolean {
  return login.expires_at !== undefined && login.expires_at - now <= REFRESH_MARGIN_MS;
}

/**
 * Refreshes under a lock, re-reading the store first: the server kills the old pair on refresh, so two processes
 * refreshing with one refresh token would leave the loser a dead pair. The loser takes the winner's tokens.
 */
export async function ensureFreshLogin(deps: RefreshDeps, opts: { rejected?: string } = {}): Promise<StoredLogin> {
  const current = readLogin(deps.store);
  if (!current) throw new AuthError('Not logged in.', { hint: 'Run `creators login`.' });
  const forced = opts.rejected !== undefined && opts.rejected === current.access_token;
  if (!forced && (opts.rejected !== undefined || !expiring(current, deps.now()))) return current;
  if (!current.refresh_token || !current.client_id) {
    throw new AuthError('The login has expired and cannot be refreshed.', { hint: 'Run `creators login` again.' });
  }
  const path = lockPath(deps.store);
  const timedOut = (): AuthError =>
    new AuthError('Timed out waiting for another creators process to refresh the login.', {
      hint: `If none is running, remove ${path}.`,
    });
  return withLock(path, deps, { staleAfterMs: STALE_LOCK_MS, waitMs: 2 * STALE_LOCK_MS, timedOut }, async () => {
    const latest = readLogin(deps.store);
    if (!latest)
      throw new AuthError('Not logged in (the login was removed meanwhile).', { hint: 'Run `creators login`.' });
    // Someone else refreshed while we waited: their tokens are the live ones.
    if (latest.access_token !== current.access_token && !expiring(latest, deps.now())) return latest;
    try {
      // From the request to the stored pair, a forced exit (a second Ctrl-C) waits: once the server
      // has rotated the pair, the only live refresh token is the one in its answer.
      return await holdExit('the refreshed login', async () => {
        const tokens = await deps.refresh(latest);
        const next = loginFromTokens(tokens, deps.now(), latest);
        saveLogin(deps.store, next);
        return next;
      });
    } catch (err) {
      if (err instanceof AuthError) {
        // A process that ignored the lock (an older version) may have rotated the pair under us.
        const again = readLogin(deps.store);
        if (again && again.access_token !== latest.access_token) return again;
        throw new AuthError(`The login has expired or was revoked: ${err.message}`, {
          code: err.code,
          status: err.status,
          hint: 'Run `creators login` again.',
        });
      }
      // Network trouble: a token that is merely close to expiry still works for now.
      if (err instanceof CliError && !forced && latest.expires_at !== undefined && latest.expires_at > deps.now())
        return latest;
      throw err;
    }
  }).catch((err: unknown) => {
    if (!(err instanceof LockPathTaken)) throw err;
    throw new CliError(`Cannot lock the login for its refresh: ${err.message}.`, EXIT.ERROR, {
      code: 'lock_failed',
      hint: `Move ${path} out of the way, then run the command again.`,
    });
  });
}

export function lockPath(store: ConfigStore): string {
  return join(dirname(store.path), `.oauth-${store.profile}.lock`);
}
