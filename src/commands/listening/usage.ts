import { defineCommand } from '../../app/command.js';

/**
 * `creators listening usage`: current limits and active subscription counts (free), with what the
 * monitoring costs from now on: the daily charge, a monthly projection (30 days) and the runway (whole
 * days the balance covers the daily charge; null without monitoring). Two free reads: usage and credits.
 */
export default defineCommand({
  name: 'usage',
  description: 'Listening limits, monitored creators, the daily charge, its monthly projection and the runway (free)',
  examples: [
    ['creators listening usage', 'as a table'],
    ["creators listening usage --json | jq '.runway_days'", 'days the balance covers the monitoring'],
  ],
  async run(ctx) {
    const [{ getUsage }, { printItem }, runway, { usageColumns }] = await Promise.all([
      import('../../lib/api/listening.js'),
      import('../../lib/output/index.js'),
      import('../../lib/listening/runway.js'),
      import('../../lib/listening/usage-columns.js'),
    ]);
    const output = await ctx.output();
    const http = await ctx.http();
    const usage = await getUsage(http);
    const balance = await runway.balanceMilli(http);
    const facts = runway.withRunway(usage, balance);
    // The keys in words on a terminal; every other format keeps the service's keys.
    await printItem(ctx.term, output, facts.record, usageColumns(facts.record));
    if (ctx.term.stderrIsTTY) {
      const warnDays = await ctx.config.number(
        undefined,
        'runway-warn-days',
        runway.DEFAULT_RUNWAY_WARN_DAYS,
        'runway-warn-days setting',
      );
      const line = warnDays > 0 ? runway.runwayWarning(facts.runway, warnDays) : undefined;
      if (line) ctx.term.warn(line);
    }
  },
});
