import { defineCommand, when } from '../app/command.js';
import { CliError, InterruptedError, UsageError } from '../lib/errors.js';
import type { AccountSide, SpendGroup } from '../lib/store/views.js';

/**
 * `creators spend`: the store's spend log for this API, grouped, with a total row; beside it the
 * account's own `credits_used` (free GET) and the difference. Reads the store read-only: without one
 * the log is empty, and nothing is created.
 */
export default defineCommand({
  name: 'spend',
  description:
    "Credits spent, from this profile's spend log, by day, command, platform or profile, beside the account's own credits_used (free)",
  flags: {
    since: {
      flags: '--since <when>',
      description: 'from this long ago (7d, 24h) or this date (2026-11-01) (default: 30d)',
      value: when,
    },
    until: { flags: '--until <when>', description: 'up to this long ago or this date (default: now)', value: when },
    by: {
      flags: '--by <group>',
      description: 'what a row adds up; days are local calendar days (default: day)',
      choices: ['day', 'command', 'platform', 'profile'],
    },
  },
  examples: [
    ['creators spend', 'the last 30 days, day by day'],
    ['creators spend --since 7d --by command', 'what each command spent this week'],
    ["creators spend --json | jq '.[-1].credits'", 'the total (the last row)'],
  ],
  async run(ctx, { flags }) {
    const [{ whenAt }, { printList }, views] = await Promise.all([
      import('../lib/options.js'),
      import('../lib/output/index.js'),
      import('../lib/store/views.js'),
    ]);
    const by = (flags.by ?? 'day') as SpendGroup;
    const now = ctx.deps.now();
    const since = whenAt(flags.since ?? { text: '30d', ago: 30 * 86_400_000 }, now);
    // No --until: up to now, inclusive (an entry logged this very millisecond counts).
    const until = flags.until === undefined ? undefined : whenAt(flags.until, now);
    if (until !== undefined && until <= since)
      throw new UsageError(`--until ${flags.until?.text} is not after --since ${flags.since?.text ?? '30d'}.`);
    const output = await ctx.output();
    // One API's log: sandbox and production charges never add up.
    const baseUrl = (await ctx.config.baseUrl()).href;
    const store = await ctx.store.local();
    const none = () => (async function* () {})();
    // Charges whose answers wait in the outbox were spent by this CLI all the same: counted, and named below.
    const { outboxEntries } = await import('../lib/store/outbox.js');
    const outboxFile = await ctx.store.outboxFile();
    const waiting = views.withOutbox(outboxEntries(outboxFile).filter((e) => e.spend?.baseUrl === baseUrl));
    const report = await views.groupSpend(
      waiting.entries(store ? store.spend({ since, until, baseUrl }) : none(), { since, until }),
      by,
    );
    waiting.counted.clear();
    const account: AccountSide = {
      usedMilli: null,
      ...(await views.loggedTotal(waiting.entries(store ? store.spend({ baseUrl }) : none()))),
    };
    const credential = await ctx.credential();
    let unread: string | undefined;
    let failed: string | undefined;
    if (!credential)
      unread =
        "The account's own credits_used needs a credential (creators login, or CREATORS_API_KEY): only the spend log is shown.";
    else {
      try {
        const { getCredits } = await import('../lib/api/account.js');
        const used = (await getCredits(await ctx.http())).credits_used;
        if (used === null) unread = "The account's credits answer has no credits_used: only the spend log is shown.";
        else account.usedMilli = Math.round(used * 1000);
      } catch (err) {
        // The log is local and stands on its own; the account's figure is a comparison.
        if (!(err instanceof CliError) || err instanceof InterruptedError) throw err;
        failed = `Could not read the account's credits_used (${err.message}): only the spend log is shown.`;
      }
    }
    await printList(
      ctx.term,
      output,
      [...report.rows, views.totalRow(by, report.total, account)],
      views.spendColumns(by),
    );
    if (report.total.requests === 0)
      ctx.term.notice(
        `Nothing in the spend log${store ? '' : ' (no store yet)'} between ${views.windowText(since, until)}.`,
      );
    const parked = views.outboxNotice([...waiting.counted.values()], outboxFile);
    if (parked !== undefined) ctx.term.notice(parked);
    if (failed !== undefined) ctx.term.warn(failed);
    else if (unread !== undefined) ctx.term.notice(unread);
    else ctx.term.notice(views.accountNotice(account));
  },
});
