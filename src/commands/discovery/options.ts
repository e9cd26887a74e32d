import { Option, type Command } from 'commander';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Filter, exclusion and paging options shared by `search` and `similar` (declared only; no heavy imports). */
export function addDiscoveryOptions(cmd: Command): Command {
  return cmd
    .option('--platform <p>', 'instagram, youtube, tiktok, twitch, twitter or onlyfans (default: the `platform` setting)')
    .option('--filter <key=value>', 'a filter; repeatable; dot paths nest (number_of_followers.min=10000); values typed, commas make lists', collect)
    .option('--filters <file|->', 'a JSON object of filters from a file or stdin')
    .option('--ai-search <text>', 'semantic search text (filters.ai_search, 3-150 characters)')
    .option('--min-followers <n>', "minimum followers, sent under the platform's own key")
    .option('--max-followers <n>', "maximum followers, sent under the platform's own key")
    .option('--exclude-handles <file|->', 'handles to leave out, one per line (up to 10,000)')
    .option('--exclude-list <id>', 'leave out the handles of this exclusion list; repeatable (checked first, free)', collect)
    .option('--exclude-default-list', "leave out the handles of the platform's default exclusion list")
    .option('--exclude-all-lists', 'leave out the handles of every exclusion list of the platform')
    .option('--include-lookalikes', 'include lookalike creators (default false)')
    .option('--limit <n>', 'creators per page, 1 to 50 (default 20; 50 with --all)')
    .option('--page <n>', 'page to fetch (or start from with --all), counting from 1', '1')
    .option('--all', 'follow pages to the end of the results, streaming them out')
    .addOption(
      new Option(
        '--max-results <n>',
        'stop after exactly this many creators (implies --all); without --limit the page size is picked to add up to n (120 = 40 x 3), ' +
          'otherwise the last creators are fetched in smaller pages so that no more than n are bought',
      ),
    );
}
