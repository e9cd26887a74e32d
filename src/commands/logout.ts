import { defineCommand } from '../app/command.js';

/**
 * `creators logout`: forgets the profile's tokens and stored API key. The client registration
 * (a public id, no secret) is kept so the next login does not register again. Under `--dry-run`
 * it prints what it would forget and removes nothing.
 */
export default defineCommand({
  name: 'logout',
  description: "Forget the profile's stored login (tokens) and stored API key",
  examples: [
    ['creators logout', 'forget the default profile\u2019s credentials'],
    ['creators --profile work logout', 'another profile'],
  ],
  async run(ctx) {
    const { describeCredentials, forgetCredentials, logoutChanges } = await import('../lib/auth/logout.js');
    const store = await ctx.config.store();
    if (ctx.dryRun) {
      const { printSettingsPlan } = await import('../lib/config-change.js');
      await printSettingsPlan(ctx.term, await ctx.dryRunOutput(), {
        dry_run: true,
        profile: ctx.profileName,
        file: store.path,
        changes: logoutChanges(store),
      });
      return;
    }
    const what = describeCredentials(forgetCredentials(store));
    ctx.term.notice(
      what
        ? `Logged out: forgot the ${what} of profile '${ctx.profileName}'.`
        : `Profile '${ctx.profileName}' had no stored credentials.`,
    );
    const still = ctx.globals.apiKey
      ? '--api-key'
      : ctx.globals.apiKeyFile
        ? '--api-key-file'
        : ctx.deps.env.CREATORS_API_KEY
          ? 'CREATORS_API_KEY'
          : undefined;
    if (still) ctx.term.warn(`${still} is still set and will be used.`);
  },
});
