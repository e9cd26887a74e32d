import type { Context } from '../../lib/context.js';
import { AuthError } from '../../lib/errors.js';

/**
 * `creators auth token`: prints the credential in effect (for `curl -H "Authorization: Bearer
 * $(creators auth token)"`), refreshing a login first when it is about to expire. The one command
 * that prints a secret on purpose.
 */
export async function run(ctx: Context): Promise<void> {
  const credential = await ctx.credential();
  if (!credential) {
    throw new AuthError('Not authenticated: no API key or login for this profile.', {
      hint: 'Pass --api-key, set CREATORS_API_KEY, `creators config set api-key <key>`, or run `creators login`.',
    });
  }
  ctx.io.stdout.write(`${credential.value}\n`);
}
