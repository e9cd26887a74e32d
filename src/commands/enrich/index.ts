import { Option, type Command } from 'commander';
import type { Lazy } from '../../program.js';
import { examples } from '../../app/help-text.js';

/** Options shared by both enrich verbs: many values at once from a CSV. */
function bulkOptions(cmd: Command, kind: string): Command {
  return cmd
    .option('--input <file.csv|->', `read ${kind}s from a CSV file (or - for stdin); output keeps its columns`)
    .option('--column <name>', `the column holding the ${kind}s (default: detected by header, then by content)`)
    .option('--concurrency <n>', 'requests in flight at once, 1 to 16 (default 4); pacing still keeps under the rate limit')
    .option('--max-rows <n>', 'stop after this many input rows (also bounds the worst-case cost of a stdin run)');
}

/** Enrichment and content: enrich handle, enrich email, post. */
export function registerEnrich(program: Command, lazy: Lazy): void {
  const enrich = program
    .command('enrich')
    .description('Enrich creators by handle or email (billed per creator found)')
    .addHelpText('after', examples([
      ['creators enrich handle nasa --platform instagram', 'full enrichment of one creator (1 credit)'],
      ['creators enrich email ann@example.com', 'creators behind an email address'],
    ]));

  bulkOptions(
    enrich
      .command('handle')
      .description('Enrich creators by handle: raw 0.03, profile 0.2, analytics 0.8, full 1 credit each; nothing found costs 0')
      .argument('[handles...]', 'usernames, profile URLs or YouTube channel ids')
      .option('--platform <p>', 'platform of the handles (default: the profile setting `platform`)')
      .addOption(new Option('--mode <mode>', 'what to fetch').choices(['raw', 'profile', 'analytics', 'full']).default('full'))
      .addOption(new Option('--email-required <when>', 'profile/full: must_have returns (and bills) only creators with an email').choices(['must_have', 'preferred']))
      .option('--audience', 'full: include audience data (include_audience_data)')
      .option('--lookalikes', 'analytics/full: include lookalike creators (include_lookalikes; default off)'),
    'handle',
  )
    .addHelpText('after', examples([
      ['creators enrich handle nasa --platform instagram', 'full record of one creator'],
      ['creators enrich handle nasa natgeo --platform instagram --mode profile', 'profile data of two creators'],
      ['creators enrich handle --platform tiktok --mode raw --input creators.csv -o out.csv', 'a CSV in, the same CSV with results out'],
      ['creators enrich handle --platform instagram --input creators.csv --dry-run', 'what it would cost (rows x price)'],
      ['creators enrich handle nasa --platform instagram --mode analytics --lookalikes --json', 'analytics with lookalikes'],
    ]))
    .action(lazy(() => import('./handle.js')));

  bulkOptions(
    enrich
      .command('email')
      .description('Enrich creators by email: basic up to 0.1, advanced 2 credits each; nothing found costs 0')
      .argument('[emails...]', 'email addresses')
      .addOption(new Option('--mode <mode>', 'basic or advanced').choices(['basic', 'advanced']).default('basic'))
      .option('--min-followers <n>', 'advanced: only accounts with at least n followers')
      .option('--exclude-platforms <a,b>', 'advanced: leave these platforms out (comma list)'),
    'email',
  )
    .addHelpText('after', examples([
      ['creators enrich email ann@example.com', 'basic lookup of one address'],
      ['creators enrich email --mode advanced --min-followers 10000 ann@example.com', 'advanced, big accounts only'],
      ['creators enrich email --input leads.csv --column work_email -o leads-enriched.csv', 'a CSV column of emails'],
      ['cat leads.csv | creators enrich email --input - --max-rows 500 --max-credits 50', 'stdin, with a cost bound'],
    ]))
    .action(lazy(() => import('./email.js')));

  program
    .command('post')
    .description('Details of one post: data, comments, transcript or audio (0.03 credits per request)')
    .argument('<post-id|url>', 'the platform post id, or the post URL')
    .option('--platform <p>', 'instagram, tiktok or youtube (default: from the URL, or the profile setting `platform`)')
    .addOption(new Option('--kind <kind>', 'what to fetch').choices(['data', 'comments', 'transcript', 'audio']).default('data'))
    .option('--all', 'comments: follow the cursor through every page (each page is a request)')
    .option('--max-pages <n>', 'comments with --all: stop after n pages')
    .addHelpText('after', examples([
      ['creators post https://www.instagram.com/p/C1a2B3c4D5e/', 'post data, platform from the URL'],
      ['creators post 7301234567890123456 --platform tiktok --kind transcript', 'a TikTok transcript'],
      ['creators post dQw4w9WgXcQ --platform youtube --kind comments --all --format jsonl', 'every comment, one per line'],
    ]))
    .action(lazy(() => import('./post.js')));
}
