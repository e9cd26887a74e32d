import { defineCommand } from '../../app/command.js';
import type { Context } from '../../app/context.js';
import type { ResolvedCredential } from '../../app/factory/credentials.js';
import { AuthError, CliError, notAuthenticated } from '../../lib/errors.js';
import type { ColumnSpec } from '../../lib/output/types.js';

/**
 * `creators auth status`: which credential is in effect and where it came from, checked live
 * against the credits endpoint (free). For a login: the access-token expiry and whether it can be
 * refreshed (a token close to expiry is refreshed first). Exit 4 when there is no valid credential.
 */
export default defineCommand({
  name: 'status',
  description: 'Show base URL, profile, which credential is used and where it came from, and check it live',
  examples: [
    ['creators auth status', 'human summary'],
    ['creators auth status --json', 'for scripts; exit 4 when not authenticated'],
  ],
  run: (ctx) => showStatus(ctx),
});

/** What `auth status` reports (the JSON keys are the contract's). */
type AuthStatus = {
  base_url: string;
  profile: string;
  authenticated: boolean;
  credential_source: string | null;
  credential_kind: string | null;
  credential: string | null;
  expires_at: string | null;
  expired: boolean | null;
  refreshable: boolean | null;
  live_check: string;
  credits_available: number | null;
};

async function showStatus(ctx: Context): Promise<void> {
  const [{ getCredits }, { readLogin }, { maskSecret }, { printItem }] = await Promise.all([
    import('../../lib/api/account.js'),
    import('../../lib/auth/token-store.js'),
    import('../../lib/config.js'),
    import('../../lib/output/index.js'),
  ]);
  const output = await ctx.output();
  const baseUrl = (await ctx.config.baseUrl()).href.replace(/\/$/, '');
  let failure: CliError | undefined;
  let credential: ResolvedCredential | undefined;
  try {
    credential = await ctx.credential();
  } catch (err) {
    // A login whose refresh failed: report it, with the stored (dead) token's details.
    if (!(err instanceof AuthError)) throw err;
    failure = err;
  }
  const store = await ctx.config.storeIfAny();
  const login = store ? readLogin(store) : undefined;
  const fromLogin = credential?.source === 'login' || (failure !== undefined && login !== undefined);
  const expiresAt = credential?.expiresAt ?? (fromLogin ? login?.expires_at : undefined);
  const status: AuthStatus = {
    base_url: baseUrl,
    profile: ctx.profileName,
    authenticated: false,
    credential_source: credential?.source ?? (fromLogin ? 'login' : null),
    credential_kind: credential?.kind ?? (fromLogin ? 'oauth' : null),
    credential: credential ? maskSecret(credential.value) : fromLogin && login ? maskSecret(login.access_token) : null,
    expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
    expired: expiresAt ? expiresAt <= ctx.deps.now() : null,
    refreshable: fromLogin ? Boolean(login?.refresh_token && login.client_id) : null,
    live_check: 'skipped',
    credits_available: null,
  };
  if (!credential && !failure) {
    failure = notAuthenticated();
  } else if (credential) {
    try {
      const credits = await getCredits(await ctx.http());
      status.authenticated = true;
      status.live_check = 'ok';
      status.credits_available = credits.credits_available;
      // The live check may have refreshed the login: show the token now in effect.
      const after = await ctx.credential();
      if (after && after.value !== credential.value) {
        status.credential = maskSecret(after.value);
        status.expires_at = after.expiresAt ? new Date(after.expiresAt).toISOString() : null;
        status.expired = after.expiresAt ? after.expiresAt <= ctx.deps.now() : null;
      }
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      status.live_check = err instanceof AuthError ? 'rejected' : `failed: ${err.message}`;
      failure = err;
    }
  } else {
    status.live_check = 'refresh failed';
  }
  // Expiry and refresh belong to a login: an API key (or no credential) has no such rows (JSON keeps its nulls).
  const rows: ColumnSpec[] = [
    { path: 'base_url', header: 'Base URL' },
    { path: 'profile', header: 'Profile' },
    { path: 'credential_source', header: 'Credential from' },
    { path: 'credential', header: 'Credential' },
    ...(status.expires_at === null ? [] : [{ path: 'expires_at', header: 'Expires', kind: 'date' } as const]),
    ...(status.refreshable === null ? [] : [{ path: 'refreshable', header: 'Refreshable', kind: 'bool' } as const]),
    { path: 'live_check', header: 'Live check' },
    { path: 'credits_available', header: 'Credits available', kind: 'number' },
  ];
  await printItem(ctx.term, output, status, rows);
  if (failure) throw failure;
}
