import type { Context } from '../../app/context.js';
import { DEFAULT_LOGIN_TIMEOUT_MS, login, parsePort } from '../../lib/auth/login.js';
import { UsageError } from '../../lib/errors.js';

/** `creators login`: OAuth 2.0 authorization code with PKCE; tokens saved in the profile. */
export async function run(ctx: Context, _args: string[], opts: Record<string, unknown>): Promise<void> {
  const port = parsePort(opts.port);
  let timeoutMs = DEFAULT_LOGIN_TIMEOUT_MS;
  if (opts.loginTimeout !== undefined) {
    const s = Number(opts.loginTimeout);
    if (!Number.isFinite(s) || s <= 0) throw new UsageError(`Invalid --login-timeout '${String(opts.loginTimeout)}': expected a positive number of seconds.`);
    timeoutMs = s * 1000;
  }
  const result = await login(ctx, { port, noBrowser: opts.browser === false, timeoutMs });
  const base = (await ctx.baseUrl()).href.replace(/\/$/, '');
  const until = result.expires_at !== undefined ? ` The access token is valid until ${new Date(result.expires_at).toISOString()} and refreshes itself.` : '';
  ctx.notice(`Logged in to ${base} (profile '${ctx.profileName}').${until}`);
  const overriding = ctx.globals.apiKey ? '--api-key' : ctx.deps.env.CREATORS_API_KEY ? 'CREATORS_API_KEY' : undefined;
  if (overriding) ctx.warn(`${overriding} is set and takes precedence over this login.`);
}
