import { Option, type Command } from 'commander';
import type { Lazy } from '../../program.js';
import { DICTIONARY_KINDS } from '../../lib/api/dictionary.js';
import { examples } from '../../app/help-text.js';
import { registerExclusions } from './exclusions/index.js';
import { addDiscoveryOptions } from './options.js';

const KINDS = Object.keys(DICTIONARY_KINDS);

/** Discovery: search, similar, dictionaries and exclusion lists. */
export function registerDiscovery(program: Command, lazy: Lazy): void {
  addDiscoveryOptions(
    program
      .command('search')
      .description('Search creators on one platform (0.01 credit per creator returned, 0.03 with --return-filter-values)'),
  )
    .option('--query <brief>', 'natural-language brief, mapped to filters by the server (nlp_search)')
    .option('--sort <field>', 'relevancy, engagement_rate, number_of_followers or growth_rate')
    .option('--order <dir>', 'asc or desc (default desc)')
    .option('--return-filter-values', 'add matched_filters to each creator (0.03 credit per creator)')
    .addHelpText('after', examples([
      ['creators search --platform instagram --min-followers 10000 --filter location=Germany', 'a page of 20 creators'],
      ['creators search --platform youtube --filter topics=Fitness --sort engagement_rate --limit 50', 'sorted, 50 a page'],
      ['creators search --platform tiktok --query "vegan food creators in Berlin"', 'a brief mapped to filters'],
      ['creators search --platform instagram --filters filters.json --all --max-results 500 -o out.csv', 'up to 500, to CSV'],
      ['creators search --platform instagram --exclude-list 12 --exclude-handles seen.txt', 'leave out known creators'],
      ['creators search --platform instagram --all --dry-run', 'show the request and its worst-case cost'],
    ]))
    .action(lazy(() => import('./search.js')));

  addDiscoveryOptions(
    program
      .command('similar')
      .description('Find creators similar to a reference creator (0.01 credit per creator returned)')
      .argument('<creator>', 'the reference creator: profile URL, username or platform id'),
  )
    .addOption(new Option('--by <kind>', 'how <creator> is given: url, username or id (detected when omitted)'))
    .addHelpText('after', examples([
      ['creators similar https://www.instagram.com/nasa/ --platform instagram', 'by URL (detected)'],
      ['creators similar mkbhd --platform youtube --min-followers 100000', 'by username, with a filter'],
      ['creators similar 123456789 --platform tiktok --by id --all --max-results 200 --format csv', 'by id, many pages'],
    ]))
    .action(lazy(() => import('./similar.js')));

  program
    .command('dict')
    .description(`List the values Discovery filters accept (free). Kinds: ${KINDS.join(', ')}`)
    .argument('<kind>', 'dictionary kind')
    .option('--platform <p>', 'platform (required for locations): instagram, youtube, tiktok, twitch, twitter, onlyfans')
    .option('--search <text>', 'only entries matching this text')
    .option('--limit <n>', 'entries per request, 1 to 100')
    .option('--offset <n>', 'skip this many entries')
    .addOption(new Option('--exact', 'brands: match the brand handle exactly'))
    .addOption(new Option('--no-exact', 'brands: match part of the brand name').hideHelp())
    .addHelpText('after', examples([
      ['creators dict languages', 'all languages'],
      ['creators dict locations --platform instagram --search "new york"', 'location strings for a platform'],
      ['creators dict brands --search nike --limit 10 --no-exact', 'brands whose name contains nike'],
      ['creators dict niches --json', 'niche values for the niche filter'],
    ]))
    .action(lazy(() => import('./dict.js')));

  registerExclusions(program, lazy);
}
