import { defineCommand } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';

/**
 * `creators store push [--from <file>]`: copies a local store into the team store this profile uses, so
 * what a laptop bought before joining is not bought again by the team. Resumable: run again after a stop,
 * nothing is copied twice. `--dry-run` counts what the local store holds and changes nothing.
 */
export default defineCommand({
  name: 'push',
  description:
    'Copy a local store (answers and spend log) into the team store; run again to resume, nothing is copied twice',
  flags: {
    from: {
      flags: '--from <file>',
      description: "the local store to copy (default: this profile's file in the config directory)",
    },
  },
  examples: [
    ['creators store push', "this profile's local store into the team store its store setting names"],
    ['creators store push --from ./old-laptop.db --dry-run', 'what would be copied; nothing changes'],
  ],
  async run(ctx, { flags }) {
    const [{ existsSync }, path, { printItem, plural }, { isPgUrl, openStore }, { pushStore }] = await Promise.all([
      import('node:fs'),
      import('node:path'),
      import('../../lib/output/index.js'),
      import('../../lib/store/open.js'),
      import('../../lib/store/push.js'),
    ]);
    const target = await ctx.store.location();
    const options = await ctx.store.openOptions({});
    if (!isPgUrl(options.file)) {
      throw new UsageError(`store push copies into a team store, and this profile's store is a file (${target}).`, {
        hint: "Set CREATORS_STORE (or `creators config set store`) to the team store's postgres:// URL, then push.",
      });
    }
    const fromFile = flags.from === undefined ? await ctx.store.localFile() : path.resolve(ctx.deps.cwd, flags.from);
    if (!existsSync(fromFile))
      throw new UsageError(`No local store at ${fromFile}: nothing to push.`, { hint: 'Name one with --from <file>.' });
    const from = await ctx.store.local({ file: fromFile });
    if (!from) throw new UsageError(`${fromFile} holds no creators store yet: nothing to push.`);
    const fields = [
      { path: 'from', header: 'From', keep: true },
      { path: 'to', header: 'To', keep: true },
      { path: 'answers.read', header: 'Answers read', kind: 'number' as const },
      { path: 'answers.added', header: 'Answers added', kind: 'number' as const },
      { path: 'spend.read', header: 'Spend entries read', kind: 'number' as const },
      { path: 'spend.added', header: 'Spend entries added', kind: 'number' as const },
    ];
    if (ctx.dryRun) {
      const stats = await from.stats();
      const answers = stats.answers.reduce((n, a) => n + a.count, 0);
      const record = {
        dry_run: true,
        from: fromFile,
        to: target,
        answers: { read: answers, added: null },
        spend: { read: stats.spend.entries, added: null },
      };
      await printItem(ctx.term, await ctx.dryRunOutput(), record, fields);
      ctx.term.notice(
        `Dry run: nothing was copied; ${plural(answers, 'answer')} and ${plural(stats.spend.entries, 'spend entry', 'spend entries')} would be offered to ${target} (what it already holds is skipped).`,
      );
      return;
    }
    // The team store is opened as every purchase opens it: an older schema says to migrate first.
    const to = (await openStore(options)) as NonNullable<Awaited<ReturnType<typeof openStore>>>;
    try {
      const counts = await pushStore(from, to, { signal: ctx.deps.signal });
      await printItem(ctx.term, await ctx.output(), { from: fromFile, to: target, ...counts }, fields);
      const skipped = counts.answers.read - counts.answers.added;
      ctx.term.notice(
        `Copied ${plural(counts.answers.added, 'answer')} and ${plural(counts.spend.added, 'spend entry', 'spend entries')} into ${target}` +
          (skipped > 0 ? `; ${plural(skipped, 'answer')} it already held (or held newer) stayed as they were.` : '.'),
      );
    } finally {
      await to.close();
    }
  },
});
