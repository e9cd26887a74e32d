import type { Context } from '../../lib/context.js';
import { getCredits } from '../../lib/api/account.js';
import { maskSecret } from '../../lib/config.js';
import { AuthError, CliError } from '../../lib/errors.js';
import { printItem } from '../../lib/output/index.js';

/**
 * `creators auth status`: which credential is in effect and where it came from, checked live
 * against the credits endpoint (free). Exit 4 when there is no valid credential.
 */
export async function run(ctx: Context): Promise<void> {
  const output = await ctx.output();
  const baseUrl = (await ctx.baseUrl()).href.replace(/\/$/, '');
  const credential = await ctx.credential();
  const status: Record<string, unknown> = {
    base_url: baseUrl,
    profile: ctx.profileName,
    authenticated: false,
    credential_source: credential?.source ?? null,
    credential_kind: credential?.kind ?? null,
    credential: credential ? maskSecret(credential.value) : null,
    expires_at: credential?.expiresAt ? new Date(credential.expiresAt).toISOString() : null,
    live_check: 'skipped',
    credits_available: null,
  };
  let failure: CliError | undefined;
  if (!credential) {
    failure = new AuthError('Not authenticated: no API key or login for this profile.', {
      hint: 'Pass --api-key, set CREATORS_API_KEY, `creators config set api-key <key>`, or run `creators login`.',
    });
  } else {
    try {
      const credits = await getCredits(await ctx.http());
      status.authenticated = true;
      status.live_check = 'ok';
      status.credits_available = credits.credits_available;
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      status.live_check = err instanceof AuthError ? 'rejected' : `failed: ${err.message}`;
      failure = err;
    }
  }
  await printItem(ctx.io, output, status, [
    { path: 'base_url', header: 'Base URL' },
    { path: 'profile', header: 'Profile' },
    { path: 'credential_source', header: 'Credential from' },
    { path: 'credential', header: 'Credential' },
    { path: 'expires_at', header: 'Expires' },
    { path: 'live_check', header: 'Live check' },
    { path: 'credits_available', header: 'Credits available', kind: 'number' },
  ]);
  if (failure) throw failure;
}
