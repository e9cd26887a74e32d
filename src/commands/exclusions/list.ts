import { defineCommand } from '../../app/command.js';
import { checkPlatform } from '../../lib/platforms.js';
import { DISCOVERY_PLATFORMS } from '../../contract/platforms.js';

/** `creators exclusions list [--platform p]` (free). The API has no platform filter: it is applied here. */
export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List exclusion lists',
  flags: {
    platform: {
      flags: '--platform <p>',
      description: 'only the lists of this platform',
      complete: DISCOVERY_PLATFORMS,
    },
  },
  examples: [['creators exclusions list --platform instagram', 'the Instagram lists']],
  async run(ctx, { flags }) {
    // A filter only when asked for: the profile's `platform` setting does not hide the other lists.
    const platform = flags.platform === undefined ? undefined : checkPlatform(flags.platform, DISCOVERY_PLATFORMS);
    const [{ listExclusionLists }, { LIST_COLUMNS }, { printList }] = await Promise.all([
      import('../../lib/api/exclusions.js'),
      import('../../lib/discovery/exclusions.js'),
      import('../../lib/output/index.js'),
    ]);
    const output = await ctx.output();
    const lists = await listExclusionLists(await ctx.http());
    const shown = platform ? lists.filter((l) => String(l.platform).toLowerCase() === platform) : lists;
    const count = await printList(ctx.term, output, shown, LIST_COLUMNS);
    if (count === 0 && output.format === 'table') ctx.term.notice('No exclusion lists.');
  },
});
