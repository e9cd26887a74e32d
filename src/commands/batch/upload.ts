import { defineCommand, type FlagDefs } from '../../app/command.js';
import { ports } from '../../app/ports.js';
import { BATCH_MODES, BATCH_PLATFORMS, EMAIL_REQUIRED } from '../../contract/platforms.js';
import { CSV_INPUT_FLAGS, csvReadOptions } from '../csv-flags.js';
import { BATCH_NAMES, parseJobOptions } from './job-options.js';

/** The flags that describe a job: shared by `upload` and `run`. */
export const JOB_FLAGS = {
  mode: {
    flags: '--mode <mode>',
    description: 'enrichment mode: raw or full (handles), basic or advanced (emails)',
    complete: async () => BATCH_MODES,
  },
  platform: {
    flags: '--platform <p>',
    description: 'platform of the handles (raw, full): instagram, youtube, tiktok, twitter, twitch, onlyfans',
    complete: BATCH_PLATFORMS,
  },
  column: {
    flags: '--column <name>',
    description: 'input column holding the values (default: a handle/email header, else detected by content)',
  },
  emailRequired: {
    flags: '--email-required <v>',
    description: 'handle modes: must_have or preferred',
    complete: EMAIL_REQUIRED,
  },
  audience: { flags: '--audience', description: 'full mode: include audience data (include_audience_data)' },
  lookalikes: {
    flags: '--lookalikes',
    description: 'full mode: include lookalikes (include_lookalikes, default false)',
  },
  metadata: {
    flags: '--metadata <key=value>',
    description: 'metadata stored with the job (repeatable; dot paths nest)',
    repeat: true,
  },
  // Refused with an explanation: the service dropped them for batch jobs.
  minFollowers: { flags: '--min-followers <n>', description: '', hidden: true },
  excludePlatforms: { flags: '--exclude-platforms <list>', description: '', hidden: true },
  ...CSV_INPUT_FLAGS,
} as const satisfies FlagDefs;

/**
 * `creators batch upload <file|->`: one column kept (picked or detected), blanks and duplicates
 * dropped, split into several jobs past 10 MB. Prints each batch id as it is created (only the ids
 * when stdout is not a terminal; the create responses with --json).
 */
export default defineCommand({
  name: 'upload',
  description:
    'Upload a CSV as a batch job (one column kept, blanks and duplicates dropped; files over 10 MB split into several jobs)',
  args: [{ name: '<file>', description: "CSV file, or '-' for standard input", stdin: true }],
  flags: JOB_FLAGS,
  examples: [
    [
      'creators batch upload handles.csv --mode full --platform instagram --audience',
      'full enrichment with audience data',
    ],
    ['creators batch upload people.csv --mode basic --column "Work email"', 'pick the column yourself'],
    [
      'creators batch upload handles.csv --mode raw --platform tiktok --dry-run',
      'show the request and worst-case cost',
    ],
    ['ID=$(creators batch upload handles.csv --mode raw --platform youtube)', 'piped: prints only the id'],
  ],
  async run(ctx, { args, flags }) {
    const [source = '-'] = args;
    const [{ extractBatchInput }, { uploadBatches }] = await Promise.all([
      import('../../lib/batch/extract.js'),
      import('../../lib/batch/upload.js'),
    ]);
    const job = await parseJobOptions(flags, {
      platform: (flag, allowed, why) => ctx.config.platform(flag, allowed, why),
    });
    const extraction = await extractBatchInput(ctx.term, source, {
      kind: job.kind,
      column: job.column,
      csv: csvReadOptions(flags),
      named: BATCH_NAMES,
    });
    try {
      const output = await ctx.output();
      await uploadBatches(ports.upload(ctx, output), source, job, extraction, BATCH_NAMES);
    } finally {
      await extraction.cleanup();
    }
  },
});
