import { defineCommand, integer } from '../../app/command.js';
import { EMAIL_MODES } from '../../contract/platforms.js';
import { UsageError } from '../../lib/errors.js';
import { checkPlatform } from '../../lib/platforms.js';
import { SOCIAL_PLATFORMS } from '../../contract/platforms.js';
import { ports } from '../../app/ports.js';
import { bulkFlags, bulkOptions, checkBulkValues } from './bulk-flags.js';

/** `creators enrich email`: creators behind one or many addresses, basic or advanced. */
export default defineCommand({
  name: 'email',
  description: 'Enrich creators by email: basic up to 0.1, advanced 2 credits each; nothing found costs 0',
  args: [{ name: '[emails...]', description: 'email addresses' }],
  flags: {
    mode: { flags: '--mode <mode>', description: 'basic or advanced', choices: EMAIL_MODES, default: 'basic' },
    minFollowers: {
      flags: '--min-followers <n>',
      description: 'advanced: only accounts with at least n followers',
      value: integer({ min: 0 }),
    },
    excludePlatforms: {
      flags: '--exclude-platforms <a,b>',
      description: 'advanced: leave these platforms out (comma list)',
      complete: SOCIAL_PLATFORMS,
    },
    ...bulkFlags('emails'),
  },
  examples: [
    ['creators enrich email carlosrobinson.collabs@example.com', 'basic lookup of one address'],
    [
      'creators enrich email --mode advanced --min-followers 10000 carlosrobinson.collabs@example.com',
      'advanced, big accounts only',
    ],
    ['creators enrich email --input leads.csv --column work_email -o leads-enriched.csv', 'a CSV column of emails'],
    ['cat leads.csv | creators enrich email --input - --max-rows 500 --max-credits 50', 'stdin, with a cost bound'],
  ],
  async run(ctx, { args, flags }) {
    const [{ runEnrichment }, { emailJob }] = await Promise.all([
      import('../../lib/bulk/enrich.js'),
      import('../../lib/bulk/jobs.js'),
    ]);
    // commander has checked the choices; `find` gives the typed value.
    const mode = EMAIL_MODES.find((m) => m === flags.mode) ?? 'basic';
    const bulk = bulkOptions(args, flags);
    const minFollowers = flags.minFollowers;
    if (mode !== 'advanced' && (minFollowers !== undefined || flags.excludePlatforms !== undefined)) {
      throw new UsageError('--min-followers and --exclude-platforms apply to --mode advanced.');
    }
    const excludePlatforms = flags.excludePlatforms
      ?.split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => checkPlatform(p, SOCIAL_PLATFORMS, 'platform in --exclude-platforms'));
    const job = emailJob({ mode, minFollowers, excludePlatforms });

    const bulkPorts = await ports.bulk(ctx, { restart: bulk.restart });
    checkBulkValues(job.kind, bulk);
    await runEnrichment(bulkPorts, job, bulk);
  },
});
