import { defineCommand } from '../../app/command.js';

/**
 * `creators store forget <platform:handle>`: deletes what the store keeps about one creator, and the
 * pages that listed it, so the next purchase buys it fresh (asks first unless --yes). `--dry-run`
 * counts and changes nothing.
 */
export default defineCommand({
  name: 'forget',
  description:
    'Delete what the store keeps about a creator, so the next purchase buys it fresh (asks first unless --yes)',
  args: [
    {
      name: '<platform:handle>',
      description: 'the creator, e.g. instagram:noah_paws (a profile URL works after the colon)',
    },
  ],
  examples: [
    [
      'creators store forget instagram:@Noah_Paws --dry-run',
      'what would go (the handle is matched as the service normalises it); nothing changes',
    ],
    ['creators store forget instagram:noah_paws', 'asks for confirmation'],
    ['creators store forget tiktok:noah_paws --yes', 'in scripts'],
  ],
  async run(ctx, { args: [raw = ''] }) {
    const { kindCountsText, parseCreatorRef, printStoreChangePlan } = await import('../../lib/store/views.js');
    const { platform, handle } = parseCreatorRef(raw);
    const who = `${platform}:${handle}`;
    const location = await ctx.store.location();
    const store = await ctx.store.local({ write: true });
    const counts = store ? await store.forget(platform, handle, { dryRun: true }) : { creator: 0, page: 0 };
    const total = counts.creator + counts.page;
    if (ctx.dryRun) {
      const record = { store: location, platform, handle, would_delete: counts };
      await printStoreChangePlan(ctx.term, await ctx.dryRunOutput(), {
        record,
        text: `${who}: ${kindCountsText(counts)} would be deleted from ${location}.`,
      });
      return;
    }
    if (!store || total === 0) {
      ctx.term.notice(`Nothing to forget: the store keeps nothing about ${who}.`);
      return;
    }
    if (
      !(await ctx.term.confirm(`Forget ${who}: delete ${kindCountsText(counts)}? Buying them again costs credits.`))
    ) {
      ctx.term.notice('Nothing was deleted.');
      return;
    }
    const deleted = await store.forget(platform, handle);
    ctx.term.notice(
      `Forgot ${who}: deleted ${kindCountsText(deleted)}; the next purchase buys it fresh. The spend log is kept.`,
    );
  },
});
