import { defineCommand } from '../../app/command.js';
import { EMAIL_REQUIRED, HANDLE_MODES, MODE_PLATFORMS, MODE_PLATFORMS_SPEC_ONLY } from '../../contract/platforms.js';
import { UsageError } from '../../lib/errors.js';
import { ports } from '../../app/ports.js';
import { bulkFlags, bulkOptions, checkBulkValues } from './bulk-flags.js';

/** `creators enrich handle`: one or many handles, one request each, paced and billed per creator found. */
export default defineCommand({
  name: 'handle',
  description:
    'Enrich creators by handle: raw 0.03, profile 0.2, analytics 0.8, full 1 credit each; nothing found costs 0',
  args: [{ name: '[handles...]', description: 'usernames, profile URLs or YouTube channel ids' }],
  flags: {
    platform: {
      flags: '--platform <p>',
      description: 'platform of the handles (default: the profile setting `platform`)',
      complete: MODE_PLATFORMS.raw,
    },
    mode: { flags: '--mode <mode>', description: 'what to fetch', choices: HANDLE_MODES, default: 'full' },
    emailRequired: {
      flags: '--email-required <when>',
      description: 'profile/full: must_have returns (and bills) only creators with an email',
      choices: EMAIL_REQUIRED,
    },
    audience: { flags: '--audience', description: 'full: include audience data (include_audience_data)' },
    lookalikes: {
      flags: '--lookalikes',
      description: 'analytics/full: include lookalike creators (include_lookalikes; default off)',
    },
    ...bulkFlags('handles'),
  },
  examples: [
    ['creators enrich handle carlosrobinson --platform instagram', 'full record of one creator'],
    [
      'creators enrich handle carlosrobinson samuelkhan --platform instagram --mode profile',
      'profile data of two creators',
    ],
    [
      'creators enrich handle --platform tiktok --mode raw --input creators.csv -o out.csv',
      'a CSV in, the same CSV with results out',
    ],
    ['creators enrich handle --platform instagram --input creators.csv --dry-run', 'what it would cost (rows x price)'],
    [
      'creators enrich handle --platform instagram --input creators.csv -o out.csv --restart',
      'pay for every row again instead of resuming an interrupted run',
    ],
    [
      'creators enrich handle carlosrobinson --platform instagram --mode analytics --lookalikes --json',
      'analytics with lookalikes',
    ],
  ],
  async run(ctx, { args, flags }) {
    const [{ runEnrichment }, { handleJob }] = await Promise.all([
      import('../../lib/bulk/enrich.js'),
      import('../../lib/bulk/jobs.js'),
    ]);
    // commander has checked the choices; `find` gives the typed value.
    const mode = HANDLE_MODES.find((m) => m === flags.mode) ?? 'full';
    const bulk = bulkOptions(args, flags);
    // Without a platform, the hint lists the ones this mode takes; a given one is checked against all of them first.
    const platform =
      (await ctx.config.optionalPlatform(flags.platform, MODE_PLATFORMS.raw)) ??
      (await ctx.config.platform(undefined, MODE_PLATFORMS[mode]));
    // Don't refuse what the spec allows: a platform only the spec lists for this mode is sent, with a notice.
    const specOnly = MODE_PLATFORMS_SPEC_ONLY[mode]?.includes(platform) ?? false;
    if (!MODE_PLATFORMS[mode].includes(platform) && !specOnly) {
      throw new UsageError(`The ${mode} mode does not support ${platform}.`, {
        hint: `${mode} supports: ${MODE_PLATFORMS[mode].join(', ')}.`,
      });
    }
    if (specOnly) {
      ctx.term.notice(
        `The spec lists ${platform} for ${mode} enrichment but the service's official clients do not; it may refuse it (a refusal is an error, which is free).`,
      );
    }
    const emailRequired = EMAIL_REQUIRED.find((w) => w === flags.emailRequired);
    if (emailRequired && mode !== 'profile' && mode !== 'full')
      throw new UsageError('--email-required applies to --mode profile or full.');
    if (flags.audience && mode !== 'full') throw new UsageError('--audience applies to --mode full.');
    if (flags.lookalikes && mode !== 'full' && mode !== 'analytics')
      throw new UsageError('--lookalikes applies to --mode analytics or full.');
    const job = handleJob({
      mode,
      platform,
      emailRequired,
      includeLookalikes: flags.lookalikes,
      includeAudienceData: flags.audience,
    });

    const bulkPorts = await ports.bulk(ctx, { restart: bulk.restart });
    checkBulkValues(job.kind, bulk);
    await runEnrichment(bulkPorts, job, bulk);
  },
});
