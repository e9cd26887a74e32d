import { defineCommand } from '../app/command.js';
import { OVERLAP_CREATORS, OVERLAP_PLATFORMS } from '../contract/platforms.js';
import type { ColumnSpec, DataRecord } from '../lib/output/index.js';

const OVERLAP_COLUMNS: ColumnSpec[] = [
  { path: 'username', header: 'creator', keep: true },
  { path: 'followers', header: 'followers', kind: 'count' },
  { path: 'unique_followers', header: 'unique', kind: 'count' },
  { path: 'unique_percentage', header: 'unique %', kind: 'percent' },
  { path: 'overlapping_percentage', header: 'overlapping %', kind: 'percent' },
];

/** `creators overlap <creator...>`: how much 2 to 10 creators' audiences overlap (1 credit per request). */
export default defineCommand({
  name: 'overlap',
  description:
    "Audience overlap of 2 to 10 creators: each one's unique and overlapping share, and the totals (1 credit per request)",
  args: [
    {
      name: '<creator...>',
      description: `${OVERLAP_CREATORS.min} to ${OVERLAP_CREATORS.max} usernames or profile URLs`,
    },
  ],
  flags: {
    platform: {
      flags: '--platform <p>',
      description: `${OVERLAP_PLATFORMS.join(', ')} (default: the profile setting \`platform\`)`,
      complete: OVERLAP_PLATFORMS,
    },
  },
  examples: [
    [
      'creators overlap noah_paws theellastrong hannahclutch --platform instagram',
      'a row per creator, then the totals',
    ],
    ['creators overlap sophia_bernard themaxtech --platform tiktok --json', 'the whole answer (basics, details)'],
    [
      'creators overlap noah_paws theellastrong --platform instagram --dry-run',
      'the request and its price, nothing sent',
    ],
  ],
  async run(ctx, { args, flags }) {
    const [
      { audienceOverlap, audienceOverlapPlan, cleanOverlapCreators },
      { countText, creditCount },
      { printPaidItem, printPaidList },
    ] = await Promise.all([
      import('../lib/api/creators.js'),
      import('../lib/words.js'),
      import('../lib/output/paid.js'),
    ]);
    const creators = cleanOverlapCreators(args);
    const platform = await ctx.config.platform(flags.platform, OVERLAP_PLATFORMS);
    const http = await ctx.http();
    const plan = audienceOverlapPlan(platform, creators);
    // A comparison the store holds is answered from it: priced at 0, so --max-credits and the budgets let it through.
    const stored = (await ctx.store.storedAnswer(plan)) !== undefined;
    if (
      !(await ctx.money.gate(stored ? { ...plan, worstCaseMilli: 0, costBasis: 'from the store at 0 credits' } : plan))
    )
      return;
    const output = await ctx.output();
    const answer = await audienceOverlap(http, platform, creators);
    const spent = Math.round(answer.creditsCost * 1000);
    if (!answer.found) {
      ctx.term.notice(
        `${answer.message ?? 'No overlap figures came back.'} (${spent === 0 ? 'not charged' : `${creditCount(spent)} charged`})`,
      );
      await printPaidItem(ctx.term, output, answer.response, undefined, spent);
      return;
    }
    if (output.format === 'json') {
      // json keeps the whole answer (basics, details, unknown fields); the row formats get a row per creator and a total row.
      await printPaidItem(ctx.term, output, answer.response, undefined, spent);
    } else {
      const rows = answer.details.map((d) => {
        const followers = typeof d.followers === 'number' ? d.followers : undefined;
        const unique = typeof d.unique_percentage === 'number' ? d.unique_percentage : undefined;
        // The overview columns first; `user` repeats them (and its stats) and stays in the json answer only.
        const { user: _user, ...rest } = d;
        return {
          username: d.username,
          followers: d.followers,
          unique_followers:
            followers !== undefined && unique !== undefined ? Math.round((followers * unique) / 100) : null,
          unique_percentage: d.unique_percentage,
          overlapping_percentage: d.overlapping_percentage,
          ...rest,
        };
      });
      const { totalFollowers: total, totalUniqueFollowers: totalUnique } = answer;
      const totalRow = {
        username: '(total)',
        followers: total ?? null,
        unique_followers: totalUnique ?? null,
        unique_percentage: total && totalUnique !== undefined ? Math.round((totalUnique / total) * 10_000) / 100 : null,
        overlapping_percentage:
          total && totalUnique !== undefined ? Math.round((1 - totalUnique / total) * 10_000) / 100 : null,
      };
      const all = [...rows, totalRow];
      async function* records(): AsyncGenerator<DataRecord> {
        yield* all;
      }
      const [{ isTerminalTable, printText }, { pageOnce }, { overlapChart }] = await Promise.all([
        import('../lib/output/index.js'),
        import('../lib/output/pager.js'),
        import('../lib/output/overlap-chart.js'),
      ]);
      // On a terminal the table is followed by its picture, unique against overlapping, paged as one screen.
      const chart = isTerminalTable(ctx.term, output) && output.fields === undefined;
      await pageOnce(output, async (screen) => {
        await printPaidList(ctx.term, screen, records(), OVERLAP_COLUMNS, { spentMilli: () => spent, noun: 'rows' });
        if (chart) {
          const width = ctx.term.columns !== undefined && ctx.term.columns > 0 ? ctx.term.columns : 100;
          await printText(
            ctx.term,
            screen,
            overlapChart(all, { width, unicode: screen.unicode ?? false, color: screen.color }),
          );
        }
      });
    }
    if (ctx.term.stderrIsTTY) {
      const left =
        answer.creditsLeft === undefined ? '' : `, ${countText(Math.round(answer.creditsLeft * 1000) / 1000)} left`;
      // An answer from the store: the one line says so (the end of the run then says nothing more).
      const stored = spent === 0 ? await ctx.store.storeClause() : '';
      ctx.term.notice(
        stored === ''
          ? `${creditCount(spent)} spent${left}.`
          : `From the store${stored.replace(/^, /, ' (').replace(/; --max-age/, '): 0 credits; --max-age')}.`,
      );
    }
  },
});
