import { defineCommand } from '../../app/command.js';
import { DISCOVERY_PLATFORMS } from '../../contract/platforms.js';

/** `creators exclusions create <name> --platform p` (free). */
export default defineCommand({
  name: 'create',
  description: 'Create an exclusion list',
  args: [{ name: '<name>', description: 'list name (1-300 characters, unique per platform)' }],
  flags: {
    platform: {
      flags: '--platform <p>',
      description: 'instagram, youtube, tiktok, twitch, twitter or onlyfans (default: the `platform` setting)',
      complete: DISCOVERY_PLATFORMS,
    },
  },
  examples: [['creators exclusions create "Already contacted" --platform tiktok', 'a TikTok list']],
  async run(ctx, { args: [name = ''], flags }) {
    const [{ checkListName, createExclusionList, createExclusionListPlan }, { LIST_COLUMNS }, { printItem }] =
      await Promise.all([
        import('../../lib/api/exclusions.js'),
        import('../../lib/discovery/exclusions.js'),
        import('../../lib/output/index.js'),
      ]);
    const clean = checkListName(name);
    const platform = await ctx.config.platform(flags.platform, DISCOVERY_PLATFORMS);
    const http = await ctx.http();
    if (!(await ctx.money.gate(createExclusionListPlan(clean, platform)))) return;
    const list = await createExclusionList(http, clean, platform);
    await printItem(ctx.term, await ctx.output(), list, LIST_COLUMNS);
  },
});
