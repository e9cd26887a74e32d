import { defineCommand, seconds, type FlagDefs } from '../../app/command.js';
import { ports } from '../../app/ports.js';

const WAIT_SECONDS = seconds('expected a number of seconds greater than 0.');

/** The wait flags: shared by `poll` and `run`. */
export const INTERVAL_FLAG = {
  interval: { flags: '--interval <s>', description: 'seconds between status checks (default 30)', value: WAIT_SECONDS },
} as const satisfies FlagDefs;

export const MAX_WAIT_FLAG = {
  maxWait: {
    flags: '--max-wait <s>',
    description: 'give up waiting (exit 8) after s seconds; the job keeps running (default: wait until it ends)',
    value: WAIT_SECONDS,
  },
} as const satisfies FlagDefs;

/**
 * `creators batch poll <id>`: waits for a final state, then prints the status record. Exit 0 finished,
 * 7 failed, 5 paused for credits, 8 at --max-wait, 130 on Ctrl-C (the job keeps running).
 */
export default defineCommand({
  name: 'poll',
  description:
    'Wait for a batch job to end, showing progress. Exit 0 finished, 7 failed, 5 paused for credits, ' +
    '8 still running when --max-wait <s> runs out, 130 on Ctrl-C',
  args: [{ name: '<id>', description: 'batch id (bch_...)' }],
  flags: { ...INTERVAL_FLAG, ...MAX_WAIT_FLAG },
  examples: [
    ['creators batch poll bch_...', 'wait, checking every 30 s'],
    ['creators batch poll bch_... --interval 60 --max-wait 3600', 'give up (exit 8) after an hour'],
  ],
  async run(ctx, { args, flags }) {
    const [raw = ''] = args;
    const [{ pathSegment }, { printable, STATUS_COLUMNS, waitForBatch, waitSettings }, { checkFinal }, { printItem }] =
      await Promise.all([
        import('../../lib/http/url.js'),
        import('../../lib/batch/wait.js'),
        import('../../lib/batch/poll.js'),
        import('../../lib/output/index.js'),
      ]);
    const id = pathSegment(raw, 'batch id');
    const wait = waitSettings(flags);
    const final = await waitForBatch(await ports.batchWait(ctx), id, { ...wait, check: false });
    await printItem(ctx.term, await ctx.output(), printable(final), STATUS_COLUMNS);
    checkFinal(final);
  },
});
