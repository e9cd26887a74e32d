import { defineCommand } from '../../app/command.js';
import { notAuthenticated } from '../../lib/errors.js';

/**
 * `creators auth token`: prints the credential in effect (for `curl -H "Authorization: Bearer
 * $(creators auth token)"`), refreshing a login first when it is about to expire. The one command
 * that prints a secret on purpose.
 */
export default defineCommand({
  name: 'token',
  description: 'Print the access token or API key in effect (refreshing a login first if needed)',
  examples: [
    ['creators auth token', 'the bearer credential, for other tools'],
    [
      'curl -H "Authorization: Bearer $(creators auth token)" "$CREATORS_BASE_URL/public/v1/accounts/credits/"',
      'use it with curl',
    ],
  ],
  async run(ctx) {
    const credential = await ctx.credential();
    if (!credential) {
      throw notAuthenticated();
    }
    const { printText } = await import('../../lib/output/index.js');
    await printText(ctx.term, await ctx.output(), `${credential.value}\n`);
  },
});
