import { age, defineCommand } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';

/**
 * `creators store prune --older-than <d>`: deletes the answers bought longer ago (buying them again
 * costs credits, so it asks first unless --yes); the spend log stays. `--dry-run` counts them and
 * changes nothing.
 */
export default defineCommand({
  name: 'prune',
  description: 'Delete stored answers bought longer ago than --older-than (asks first unless --yes)',
  flags: {
    olderThan: {
      flags: '--older-than <duration>',
      description: 'required: delete answers bought longer ago than this (90d, 12h, 0 for all)',
      value: age,
    },
  },
  examples: [
    ['creators store prune --older-than 90d --dry-run', 'how many would go; nothing changes'],
    ['creators store prune --older-than 90d --yes', 'in scripts'],
  ],
  async run(ctx, { flags }) {
    const [{ humanDate, plural }, { printStoreChangePlan }] = await Promise.all([
      import('../../lib/output/index.js'),
      import('../../lib/store/views.js'),
    ]);
    if (flags.olderThan === undefined) {
      throw new UsageError('--older-than is required.', {
        hint: 'e.g. creators store prune --older-than 90d (--dry-run first says how many would go).',
      });
    }
    const before = ctx.deps.now() - flags.olderThan.ms;
    const location = await ctx.store.location();
    const store = await ctx.store.local({ write: true });
    const count = store ? await store.prune(before, { dryRun: true }) : 0;
    const what = `${plural(count, 'stored answer')} bought before ${humanDate(before)}`;
    if (ctx.dryRun) {
      const record = {
        store: location,
        older_than: flags.olderThan.text,
        before: new Date(before).toISOString(),
        would_delete: count,
      };
      await printStoreChangePlan(ctx.term, await ctx.dryRunOutput(), {
        record,
        text: `${what} would be deleted from ${location}.`,
      });
      return;
    }
    if (!store || count === 0) {
      ctx.term.notice(
        store
          ? `Nothing to prune: no stored answer was bought before ${humanDate(before)}.`
          : `Nothing to prune: there is no store yet (${location}).`,
      );
      return;
    }
    if (!(await ctx.term.confirm(`Delete ${what}? Buying them again costs credits.`))) {
      ctx.term.notice('Nothing was deleted.');
      return;
    }
    const deleted = await store.prune(before);
    ctx.term.notice(
      `Deleted ${plural(deleted, 'stored answer')} bought before ${humanDate(before)} from ${location}; the spend log is kept.`,
    );
  },
});
