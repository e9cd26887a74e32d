import { defineCommand, integer } from '../app/command.js';
import { DISCOVERY_PLATFORMS } from '../contract/platforms.js';
import { UsageError } from '../lib/errors.js';
import { matchChoice } from '../lib/options.js';

/** The dictionary kinds, for the help line (their routes live in lib/api/dictionary.ts, loaded only to run). */
export const KINDS = [
  'languages',
  'locations',
  'brands',
  'yt-topics',
  'games',
  'audience-brand-categories',
  'audience-brand-names',
  'audience-interests',
  'audience-locations',
  'niches',
  'sub-niches',
] as const;

/** `creators dict <kind>`: dictionary values for Discovery filters (free). */
export default defineCommand({
  name: 'dict',
  description: `List the values Discovery filters accept (free). Kinds: ${KINDS.join(', ')}`,
  args: [{ name: '<kind>', description: 'dictionary kind', complete: KINDS }],
  flags: {
    platform: {
      flags: '--platform <p>',
      description: 'platform (required for locations): instagram, youtube, tiktok, twitch, twitter, onlyfans',
      complete: DISCOVERY_PLATFORMS,
    },
    search: { flags: '--search <text>', description: 'only entries matching this text' },
    limit: {
      flags: '--limit <n>',
      description: 'entries per request, 1 to 100',
      value: integer({
        check: (n, _raw, flag) =>
          n < 1 || n > 100
            ? new UsageError(`Invalid ${flag} '${n}': expected a whole number from 1 to 100.`)
            : undefined,
      }),
    },
    offset: {
      flags: '--offset <n>',
      description: 'skip this many entries',
      value: integer({
        check: (n, _raw, flag) =>
          n < 0 ? new UsageError(`Invalid ${flag} '${n}': expected a whole number, 0 or more.`) : undefined,
      }),
    },
    exact: { flags: '--exact', description: 'brands: match the brand handle exactly', negatable: true },
  },
  examples: [
    ['creators dict languages', 'all languages'],
    ['creators dict locations --platform instagram --search "new york"', 'location strings for a platform'],
    ['creators dict brands --search nike --limit 10 --no-exact', 'brands whose name contains nike'],
    ['creators dict niches --json', 'niche values for the niche filter'],
  ],
  async run(ctx, { args: [asked = ''], flags }) {
    // Kinds match in any case, as every choice does; an unknown one is refused below, naming the kinds.
    const kind = matchChoice(asked, KINDS) ?? asked;
    // Only locations are per platform: there the profile's `platform` setting stands in for the flag.
    const platform =
      kind === 'locations' ? await ctx.config.optionalPlatform(flags.platform, DISCOVERY_PLATFORMS) : flags.platform;
    if (kind === 'locations' && !platform) {
      throw new UsageError(`'locations' needs a platform.`, {
        hint: `Add --platform with one of: ${DISCOVERY_PLATFORMS.join(', ')}.`,
      });
    }
    const [{ listDictionary }, { dictionaryColumns }, { printList }] = await Promise.all([
      import('../lib/api/dictionary.js'),
      import('../lib/output/columns.js'),
      import('../lib/output/index.js'),
    ]);
    const output = await ctx.output();
    const entries = await listDictionary(await ctx.http(), {
      kind,
      platform,
      search: flags.search,
      limit: flags.limit,
      offset: flags.offset,
      exact: flags.exact,
    });
    const count = await printList(ctx.term, output, entries, dictionaryColumns(entries[0]));
    if (count === 0 && output.format === 'table') ctx.term.notice('No entries found.');
  },
});
