import { defineCommand } from '../app/command.js';
import { DISCOVERY_PLATFORMS } from '../contract/platforms.js';
import { UsageError } from '../lib/errors.js';
import { ports } from '../app/ports.js';
import { checkEnvelope, DISCOVERY_FLAGS, DISCOVERY_NAMES, discoveryRequest } from './discovery-flags.js';

/** `creators search`: Discovery, 0.01 credit per creator returned (0.03 with --return-filter-values). */
export default defineCommand({
  name: 'search',
  description: 'Search creators on one platform (0.01 credit per creator returned, 0.03 with --return-filter-values)',
  flags: {
    ...DISCOVERY_FLAGS,
    query: {
      flags: '--query <brief>',
      description: 'natural-language brief, mapped to filters by the server (nlp_search)',
    },
    sort: {
      flags: '--sort <field>',
      description: 'relevancy, engagement_rate, number_of_followers or growth_rate',
      complete: async () => (await import('../lib/discovery/sort.js')).SORT_FIELDS,
    },
    order: { flags: '--order <dir>', description: 'asc or desc (default desc)', complete: ['desc', 'asc'] },
    returnFilterValues: {
      flags: '--return-filter-values',
      description: 'add matched_filters to each creator (0.03 credit per creator)',
    },
  },
  examples: [
    ['creators search --platform instagram --min-followers 10000 --filter location=Germany', 'a page of 20 creators'],
    [
      'creators search --platform youtube --filter topics=Fitness --sort engagement_rate --limit 50',
      'sorted, 50 a page',
    ],
    ['creators search --platform tiktok --query "vegan food creators in Berlin"', 'a brief mapped to filters'],
    [
      'creators search --platform instagram --filters filters.json --all --max-results 500 -o out.csv',
      'up to 500, to CSV',
    ],
    ['creators search --platform instagram --exclude-list 3 --exclude-handles seen.txt', 'leave out known creators'],
    [
      'creators search --platform instagram --skip-bought --all --max-results 200 -o new.csv',
      'only creators not bought in 14 days',
    ],
    ['creators search --platform instagram --all --dry-run', 'show the request and its worst-case cost'],
    [
      'creators search --platform instagram --filter location=Germany --limit 1',
      'the real number of matches, for 0.01 credits',
    ],
    [
      'creators search --platform tiktok --filter new_key=yes --unchecked-filters',
      'send a key the catalogue (creators help filters) does not know',
    ],
  ],
  async run(ctx, { flags }) {
    const platform = await ctx.config.platform(flags.platform, DISCOVERY_PLATFORMS);
    const [
      { readDiscoveryInput },
      { CREATOR_COLUMNS, CREATOR_WIDE_COLUMNS, runDiscovery },
      { checkSort },
      { searchBody },
    ] = await Promise.all([
      import('../lib/discovery/input.js'),
      import('../lib/discovery/run.js'),
      import('../lib/discovery/sort.js'),
      import('../lib/api/discovery.js'),
    ]);
    const input = await readDiscoveryInput(
      await ports.discoveryInput(ctx, flags),
      platform,
      await discoveryRequest(flags),
    );
    const sort = checkSort(platform, flags.sort, sortOrder(flags.sort, flags.order));
    const query = flags.query?.trim();
    if (query === '') throw new UsageError('--query needs a brief, e.g. --query "vegan food creators in Berlin".');
    const body = searchBody({
      platform,
      filters: input.filters,
      sort,
      query,
      includeLookalikes: input.includeLookalikes,
    });
    const columns = [
      ...CREATOR_COLUMNS,
      ...(flags.returnFilterValues
        ? [{ path: 'matched_filters', header: 'matched filters', kind: 'text' as const }]
        : []),
      ...CREATOR_WIDE_COLUMNS,
    ];
    const discovery = await ports.discovery(ctx);
    checkEnvelope(flags.envelope, input.paging, discovery.output);
    await runDiscovery(discovery, {
      kind: 'search',
      platform,
      body,
      paging: input.paging,
      returnFilterValues: flags.returnFilterValues,
      listIds: input.listIds,
      columns,
      envelope: flags.envelope,
      named: DISCOVERY_NAMES,
    });
  },
});

/** `--order` as the sort direction: asc or desc (default desc), and only with `--sort`. */
function sortOrder(by: string | undefined, order: string | undefined): 'asc' | 'desc' {
  const dir = (order ?? 'desc').trim().toLowerCase();
  const valid = dir === 'asc' || dir === 'desc';
  if (by === undefined && order !== undefined) {
    // The hint is a command to copy: it only ever shows a valid direction, never the bad value.
    const example = `e.g. --sort engagement_rate --order ${dir === 'asc' ? 'asc' : 'desc'}`;
    if (!valid)
      throw new UsageError(`Invalid --order '${order}': use asc or desc, together with --sort.`, { hint: example });
    throw new UsageError('--order needs --sort.', { hint: example });
  }
  if (!valid) throw new UsageError(`Invalid --order '${order}': use asc or desc.`);
  return dir;
}
