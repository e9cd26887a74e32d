import type { Context } from '../../app/context.js';
import { clearLogin } from '../../lib/auth/token-store.js';

/**
 * `creators logout`: forgets the profile's tokens and stored API key. The client registration
 * (a public id, no secret) is kept so the next login does not register again.
 */
export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const hadLogin = clearLogin(store);
  const hadKey = store.get('api-key') !== undefined;
  if (hadKey) store.unset('api-key');
  const what = [hadLogin ? 'login' : '', hadKey ? 'API key' : ''].filter(Boolean).join(' and ');
  ctx.notice(what ? `Logged out: forgot the ${what} of profile '${ctx.profileName}'.` : `Profile '${ctx.profileName}' had no stored credentials.`);
  const still = ctx.globals.apiKey ? '--api-key' : ctx.deps.env.CREATORS_API_KEY ? 'CREATORS_API_KEY' : undefined;
  if (still) ctx.warn(`${still} is still set and will be used.`);
}
