import { defineCommand } from '../app/command.js';
import { SOCIAL_PLATFORMS } from '../contract/platforms.js';
import { ports } from '../app/ports.js';
import { bulkFlags, bulkOptions, checkBulkValues } from './enrich/bulk-flags.js';

/** `creators socials`: a creator's accounts on other platforms, one or many handles (bulk rules as `enrich handle`). */
export default defineCommand({
  name: 'socials',
  description:
    "A creator's connected accounts on other platforms: 0.5 credits per creator found; nothing found costs 0",
  args: [{ name: '[handles...]', description: 'usernames or profile URLs' }],
  flags: {
    platform: {
      flags: '--platform <p>',
      description: `platform of the handles: ${SOCIAL_PLATFORMS.join(', ')} (default: the profile setting \`platform\`)`,
      complete: SOCIAL_PLATFORMS,
    },
    ...bulkFlags('handles'),
  },
  examples: [
    ['creators socials noah_paws --platform instagram', 'where else one creator is'],
    ['creators socials noah_paws theellastrong --platform instagram --format jsonl', 'two creators, one line each'],
    [
      'creators socials --platform instagram --input creators.csv -o socials.csv',
      'a CSV in, the same CSV with results out (resumable)',
    ],
    ['creators socials --platform instagram --input creators.csv --dry-run', 'what it would cost (rows x 0.5)'],
  ],
  async run(ctx, { args, flags }) {
    const [{ runEnrichment }, { socialsJob }] = await Promise.all([
      import('../lib/bulk/enrich.js'),
      import('../lib/bulk/jobs.js'),
    ]);
    const bulk = bulkOptions(args, flags);
    const platform = await ctx.config.platform(flags.platform, SOCIAL_PLATFORMS);
    const bulkPorts = await ports.bulk(ctx, { restart: bulk.restart });
    const job = socialsJob(platform);
    checkBulkValues(job.kind, bulk);
    await runEnrichment(bulkPorts, job, bulk);
  },
});
