import { Option, type Command } from 'commander';
import type { Lazy } from '../../program.js';
import { examples } from '../help-text.js';

const KINDS = [
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
];

/** Discovery: dictionaries (search, similar and exclusions join here). */
export function registerDiscovery(program: Command, lazy: Lazy): void {
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
}
