import type { Command } from 'commander';
import type { Lazy } from '../../../program.js';
import { examples } from '../../../app/help-text.js';

/** `creators exclusions ...`: Discovery exclusion lists (all free). `<list>` is an id or `default:<platform>`. */
export function registerExclusions(program: Command, lazy: Lazy): void {
  const group = program
    .command('exclusions')
    .description('Manage Discovery exclusion lists (free); <list> is a numeric id or default:<platform>')
    .addHelpText('after', examples([
      ['creators exclusions create competitors --platform instagram', 'a new list'],
      ['creators exclusions add 3 nike adidas', 'add handles'],
      ['creators search --platform instagram --exclude-list 3', 'leave them out of a search'],
    ]));
  group
    .command('list')
    .alias('ls')
    .description('List exclusion lists')
    .option('--platform <p>', 'only the lists of this platform')
    .addHelpText('after', examples([['creators exclusions list --platform instagram', 'the Instagram lists']]))
    .action(lazy(() => import('./list.js')));
  group
    .command('create')
    .description('Create an exclusion list')
    .argument('<name>', 'list name (1-300 characters, unique per platform)')
    .option('--platform <p>', 'instagram, youtube, tiktok, twitch, twitter or onlyfans (default: the `platform` setting)')
    .addHelpText('after', examples([['creators exclusions create "Already contacted" --platform tiktok', 'a TikTok list']]))
    .action(lazy(() => import('./create.js')));
  group
    .command('get')
    .description('Show one exclusion list (default:<platform> is created on first access)')
    .argument('<list>', 'list id or default:<platform>')
    .addHelpText('after', examples([
      ['creators exclusions get 3', 'by id'],
      ['creators exclusions get default:instagram --json', 'the default Instagram list'],
    ]))
    .action(lazy(() => import('./get.js')));
  group
    .command('rename')
    .description('Rename an exclusion list')
    .argument('<list>', 'list id')
    .argument('<name>', 'new name')
    .addHelpText('after', examples([['creators exclusions rename 3 "Competitors 2026"', 'new name']]))
    .action(lazy(() => import('./rename.js')));
  group
    .command('delete')
    .alias('rm')
    .description('Delete an exclusion list (asks first unless --yes)')
    .argument('<list>', 'list id')
    .addHelpText('after', examples([['creators exclusions delete 3 --yes', 'without a prompt']]))
    .action(lazy(() => import('./delete.js')));
  group
    .command('entries')
    .description('List the handles of an exclusion list, alphabetically')
    .argument('<list>', 'list id or default:<platform>')
    .option('--limit <n>', 'handles per page, 1 to 2000 (default 1000)')
    .option('--offset <n>', 'skip this many handles')
    .option('--all', 'every page')
    .addHelpText('after', examples([
      ['creators exclusions entries 3', 'the first 1000 handles'],
      ['creators exclusions entries default:instagram --all --format csv -o handles.csv', 'all of them, to a file'],
    ]))
    .action(lazy(() => import('./entries.js')));
  for (const [verb, what] of [['add', 'Add'], ['remove', 'Remove']] as const) {
    group
      .command(verb)
      .description(`${what} handles (arguments, or --file with one per line; sent in chunks of at most 10,000)`)
      .argument('<list>', 'list id or default:<platform>')
      .argument('[handles...]', 'handles, @handles or profile URLs (the API normalises them)')
      .option('--file <file|->', 'read handles from a file or stdin, one per line')
      .addHelpText('after', examples([
        [`creators exclusions ${verb} 3 nike @adidas https://www.instagram.com/puma/`, `${what.toLowerCase()} three handles`],
        [`cut -d, -f1 contacted.csv | creators exclusions ${verb} default:instagram --file -`, 'from stdin'],
      ]))
      .action(lazy(() => (verb === 'add' ? import('./add.js') : import('./remove.js'))));
  }
}
