import { defineCommand } from '../../app/command.js';
import { ports } from '../../app/ports.js';
import { UsageError } from '../../lib/errors.js';
import { INTERVAL_FLAG, MAX_WAIT_FLAG } from './poll.js';
import { csvReadOptions } from '../csv-flags.js';
import { JOB_FLAGS } from './upload.js';
import { BATCH_NAMES, parseJobOptions, resultsFormat } from './job-options.js';

/**
 * `creators batch run <file> --mode ... -o results.csv`: upload, wait, download. A re-run finds the
 * jobs of the same input and options in the journal and reattaches instead of paying twice; a run of
 * the same input already going makes it exit 9; a create whose reply was lost makes it stop (exit 2)
 * until --force.
 */
export default defineCommand({
  name: 'run',
  description:
    'Upload, wait and download in one command (for cron and CI). A re-run after a crash, timeout or Ctrl-C ' +
    'reattaches to the same job instead of paying again; --max-wait <s> limits the wait',
  args: [{ name: '<file>', description: 'CSV file' }],
  flags: {
    ...JOB_FLAGS,
    ...INTERVAL_FLAG,
    ...MAX_WAIT_FLAG,
    force: {
      flags: '--force',
      description: 'start a new job even if this input has one, or if an interrupted run may have created one',
    },
  },
  examples: [
    ['creators batch run handles.csv --mode raw --platform instagram -o results.csv', 'the whole job'],
    ['creators batch run emails.csv --mode basic -o results.json', 'JSON results (from the extension)'],
    [
      'creators batch run handles.csv --mode full --platform tiktok -o out.csv --max-credits 500',
      'refuse if it could cost more',
    ],
    [
      'creators batch run handles.csv --mode raw --platform youtube -o out.csv --max-wait 3600',
      'stop waiting after an hour (exit 8); a re-run picks it up',
    ],
    ['creators batch run handles.csv --mode raw --platform youtube -o out.csv --force', 'pay for a fresh job'],
  ],
  async run(ctx, { args, flags }) {
    const [source = ''] = args;
    if (source === '-')
      throw new UsageError(
        'batch run needs a file (its hash is how a re-run finds the job again), not standard input.',
      );
    const [{ waitSettings }, { runBatch }] = await Promise.all([
      import('../../lib/batch/wait.js'),
      import('../../lib/batch/run.js'),
    ]);
    const job = await parseJobOptions(flags, {
      platform: (flag, allowed, why) => ctx.config.platform(flag, allowed, why),
    });
    const wait = waitSettings(flags);
    const { outputPath } = await ctx.output();
    const format = resultsFormat(ctx.globals, outputPath);
    await runBatch(await ports.batchRun(ctx), {
      source,
      job,
      format,
      outputPath,
      outputShown: ctx.globals.output,
      wait,
      force: flags.force,
      dryRun: ctx.dryRun,
      baseUrl: (await ctx.config.baseUrl()).href,
      profile: ctx.profileName,
      csv: csvReadOptions(flags),
      named: BATCH_NAMES,
    });
  },
});
