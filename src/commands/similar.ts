import { defineCommand } from '../app/command.js';
import { DISCOVERY_PLATFORMS } from '../contract/platforms.js';
import { UsageError } from '../lib/errors.js';
import { ports } from '../app/ports.js';
import { DISCOVERY_FLAGS, DISCOVERY_NAMES, discoveryRequest, checkEnvelope } from './discovery-flags.js';

const BY = ['url', 'username', 'id'] as const;

/** A URL, a numeric or YouTube channel id, else a username. */
export function detectBy(value: string): (typeof BY)[number] {
  if (/^https?:\/\//i.test(value) || /^(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+\/\S/i.test(value)) return 'url';
  if (/^\d+$/.test(value) || /^UC[A-Za-z0-9_-]{22}$/.test(value)) return 'id';
  return 'username';
}

/** `creators similar <url|username|id>`: lookalike creators, 0.01 credit per creator returned. */
export default defineCommand({
  name: 'similar',
  description: 'Find creators similar to a reference creator (0.01 credit per creator returned)',
  args: [{ name: '<creator>', description: 'the reference creator: profile URL, username or platform id' }],
  flags: {
    ...DISCOVERY_FLAGS,
    by: {
      flags: '--by <kind>',
      description: 'how <creator> is given: url, username or id (detected when omitted)',
      complete: BY,
    },
  },
  examples: [
    ['creators similar https://www.instagram.com/enzo_garcia/ --platform instagram', 'by URL (detected)'],
    ['creators similar marialee --platform youtube --min-followers 100000', 'by username, with a filter'],
    [
      'creators similar 1487249171979715621 --platform tiktok --by id --all --max-results 200 --format csv',
      'by id, many pages',
    ],
  ],
  async run(ctx, { args: [reference = ''], flags }) {
    const value = reference.trim();
    if (!value || value.length > 200)
      throw new UsageError('Give the reference creator as a URL, username or id (1-200 characters).');
    const asked = flags.by === undefined ? detectBy(value) : flags.by.toLowerCase();
    const by = BY.find((known) => known === asked);
    if (by === undefined)
      throw new UsageError(`Invalid --by '${String(flags.by)}'.`, { hint: `Use one of: ${BY.join(', ')}.` });
    const platform = await ctx.config.platform(flags.platform, DISCOVERY_PLATFORMS);
    const [{ readDiscoveryInput }, { CREATOR_COLUMNS, CREATOR_WIDE_COLUMNS, runDiscovery }, { similarBody }] =
      await Promise.all([
        import('../lib/discovery/input.js'),
        import('../lib/discovery/run.js'),
        import('../lib/api/discovery.js'),
      ]);
    const input = await readDiscoveryInput(
      await ports.discoveryInput(ctx, flags),
      platform,
      await discoveryRequest(flags),
    );
    const discovery = await ports.discovery(ctx);
    checkEnvelope(flags.envelope, input.paging, discovery.output);
    await runDiscovery(discovery, {
      kind: 'similar',
      platform,
      body: similarBody({ platform, by, value, filters: input.filters, includeLookalikes: input.includeLookalikes }),
      paging: input.paging,
      listIds: input.listIds,
      // Similarity is what this command is for: on a narrow terminal engagement is left out first.
      columns: [
        ...CREATOR_COLUMNS.map((col) => (col.path === 'profile.engagement_percent' ? { ...col, priority: -1 } : col)),
        { path: 'similarity_score', header: 'similarity', kind: 'number' },
        ...CREATOR_WIDE_COLUMNS,
      ],
      envelope: flags.envelope,
      named: DISCOVERY_NAMES,
    });
  },
});
