import type { Command } from 'commander';
import type { Lazy } from '../../program.js';
import { examples } from '../../app/help-text.js';
import { withBody, withCreators, withEventFilters } from './register-helpers.js';

/** Social listening: subscriptions, campaigns, usage, and the top-level `events` group. */
export function registerListening(program: Command, lazy: Lazy): void {
  const listening = program.command('listening').description('Social listening: subscriptions and campaigns that watch creators (monitoring: 0.3 credits per creator per day)')
    .addHelpText('after', examples([
      ['creators listening subscriptions create --name launch --platform instagram nasa esa', 'watch two creators (0.6 credits per day)'],
      ['creators listening campaigns create --name spring --days 30 --platform tiktok c1 --max-credits 10', 'a 30-day campaign, 9 credits at most'],
      ['creators listening usage', 'limits and monitored creators (free)'],
      ['creators events tail', 'print new events as they appear (free)'],
    ]));
  registerSubscriptions(listening, lazy);
  registerCampaigns(listening, lazy);
  listening
    .command('usage')
    .description('Current listening limits, active subscriptions and monitored creators (free)')
    .addHelpText('after', examples([
      ['creators listening usage', 'as a table'],
      ['creators listening usage --json', 'for scripts'],
    ]))
    .action(lazy(() => import('./usage.js')));
  registerEvents(program, lazy);
}

function registerSubscriptions(listening: Command, lazy: Lazy): void {
  const subs = listening.command('subscriptions').alias('subs').description('Subscriptions: watch creators for new posts, bio changes and follower milestones')
    .addHelpText('after', examples([
      ['creators listening subscriptions list', 'every subscription (free)'],
      ['creators listening subscriptions create --name launch --platform instagram nasa esa', 'start watching (0.3 credits per creator per day)'],
      ['creators listening subs add-creators 3 instagram:nasa --max-credits 1', 'add a creator, within a budget'],
      ['creators listening subscriptions delete 3 --yes', 'stop and delete'],
    ]));
  subs.command('list').alias('ls').description('List subscriptions (every page)')
    .addHelpText('after', examples([['creators listening subscriptions list', 'table on a terminal'], ['creators listening subs ls --format csv -o subs.csv', 'CSV file']]))
    .action(lazy(() => import('./subscriptions/list.js')));
  subs.command('get').argument('<id>', 'subscription id').description('Show one subscription')
    .addHelpText('after', examples([['creators listening subscriptions get 3', 'known fields as a table'], ['creators listening subscriptions get 3 --json', 'every field']]))
    .action(lazy(() => import('./subscriptions/get.js')));
  withBody(withCreators(subs.command('create').argument('[creators...]', 'handles to watch (or platform:handle)')
    .description('Create a subscription; its creators are billed 0.3 credits per day each')
    .option('--name <name>', 'subscription name')
    .option('--type <types>', 'event types, comma-separated (default: all)')
    .option('--webhook-url <url>', 'where the service pushes events')))
    .addHelpText('after', examples([
      ['creators listening subscriptions create --name launch --platform instagram nasa esa', 'watch two creators'],
      ['creators listening subscriptions create --name bios --type bio_change --file handles.txt --platform tiktok', 'bio changes only'],
      ['creators listening subscriptions create --body sub.json --set webhook_url=https://example.com/hook', 'body from a file'],
    ]))
    .action(lazy(() => import('./subscriptions/create.js')));
  withBody(subs.command('update').argument('<id>', 'subscription id').description('Change a subscription (PATCH); --resume after a top-up')
    .option('--name <name>', 'new name')
    .option('--type <types>', 'event types, comma-separated')
    .option('--webhook-url <url>', 'webhook URL, or none')
    .option('--pause', 'stop monitoring')
    .option('--resume', 'resume monitoring (needs credits for today)'))
    .addHelpText('after', examples([
      ['creators listening subscriptions update 3 --name "Launch watch"', 'rename'],
      ['creators listening subscriptions update 3 --resume', 'resume after a pause for credits'],
      ['creators listening subscriptions update 3 --set filters.min_followers=10000', 'any field'],
    ]))
    .action(lazy(() => import('./subscriptions/update.js')));
  subs.command('delete').alias('rm').argument('<id>', 'subscription id').description('Delete a subscription (asks first unless --yes)')
    .addHelpText('after', examples([['creators listening subscriptions delete 3', 'asks for confirmation'], ['creators listening subscriptions delete 3 --yes', 'in scripts']]))
    .action(lazy(() => import('./subscriptions/delete.js')));
  subs.command('creators').argument('<id>', 'subscription id').description('List the creators a subscription watches')
    .addHelpText('after', examples([['creators listening subscriptions creators 3', 'table'], ['creators listening subscriptions creators 3 --format csv', 'CSV']]))
    .action(lazy(() => import('./subscriptions/creators.js')));
  withBody(withCreators(subs.command('add-creators').argument('<id>', 'subscription id').argument('[creators...]', 'handles (or platform:handle)')
    .description('Add creators to a subscription (each billed 0.3 credits per day)')))
    .addHelpText('after', examples([
      ['creators listening subscriptions add-creators 3 --platform youtube mkbhd', 'one creator'],
      ['creators listening subscriptions add-creators 3 --platform instagram --file handles.txt', 'from a file'],
      ['creators listening subscriptions add-creators 3 instagram:nasa tiktok:esa --max-credits 1', 'with a budget'],
    ]))
    .action(lazy(() => import('./subscriptions/add-creators.js')));
  subs.command('details').argument('<id>', 'subscription id').description('Subscription statistics (events and deliveries per creator)')
    .addHelpText('after', examples([['creators listening subscriptions details 3', 'summary and per-creator table'], ['creators listening subscriptions details 3 --json', 'everything']]))
    .action(lazy(() => import('./subscriptions/details.js')));
  subs.command('export').argument('<id>', 'subscription id').description("The statistics as the server's CSV, streamed to stdout or -o (atomic)")
    .addHelpText('after', examples([['creators listening subscriptions export 3 -o stats.csv', 'to a file'], ['creators listening subscriptions export 3 | head', 'to stdout']]))
    .action(lazy(() => import('./subscriptions/export.js')));
}

function registerCampaigns(listening: Command, lazy: Lazy): void {
  const camps = listening.command('campaigns').description('Campaigns: follow creators\' content for a period, with overview analytics')
    .addHelpText('after', examples([
      ['creators listening campaigns create --name spring --days 30 --platform instagram nasa esa', '2 x 30 x 0.3 = 18 credits at most'],
      ['creators listening campaigns add-creators 2 --platform instagram nasa --max-credits 5', 'priced for the days the campaign has left'],
      ['creators listening campaigns overview 2', 'analytics (free)'],
      ['creators listening campaigns content 2 --format csv -o posts.csv', 'the content feed as CSV'],
    ]));
  camps.command('list').alias('ls').description('List campaigns (every page)')
    .addHelpText('after', examples([['creators listening campaigns list', 'table'], ['creators listening campaigns ls --json', 'JSON array']]))
    .action(lazy(() => import('./campaigns/list.js')));
  camps.command('get').argument('<id>', 'campaign id').description('Show one campaign')
    .addHelpText('after', examples([['creators listening campaigns get 2', 'table'], ['creators listening campaigns get 2 --json', 'every field']]))
    .action(lazy(() => import('./campaigns/get.js')));
  withBody(withCreators(camps.command('create').argument('[creators...]', 'handles to follow (or platform:handle)')
    .description('Create a campaign; shows the estimate creators x days x 0.3 first and honours --max-credits')
    .option('--name <name>', 'campaign name')
    .option('--days <n>', 'monitoring duration in days (1-365)')))
    .addHelpText('after', examples([
      ['creators listening campaigns create --name spring --days 30 --platform instagram nasa esa', '2 x 30 x 0.3 = 18 credits at most'],
      ['creators listening campaigns create --name spring --days 30 --file h.txt --platform tiktok --max-credits 50', 'refuse above 50'],
      ['creators listening campaigns create --name spring --days 7 nasa --platform instagram --dry-run', 'show the plan only'],
    ]))
    .action(lazy(() => import('./campaigns/create.js')));
  withBody(camps.command('update').argument('<id>', 'campaign id').description('Change or extend a campaign (PATCH); --days shows the estimate first')
    .option('--name <name>', 'new name')
    .option('--days <n>', 'new duration in days (1-365)')
    .option('--pause', 'stop monitoring')
    .option('--resume', 'resume monitoring (needs credits for today)'))
    .addHelpText('after', examples([
      ['creators listening campaigns update 2 --days 60', 'extend, estimate first'],
      ['creators listening campaigns update 2 --name "Spring 2027"', 'rename'],
    ]))
    .action(lazy(() => import('./campaigns/update.js')));
  camps.command('archive').argument('<id>', 'campaign id').description('Archive a campaign (DELETE; asks first unless --yes)')
    .addHelpText('after', examples([['creators listening campaigns archive 2', 'asks first'], ['creators listening campaigns archive 2 --yes', 'in scripts']]))
    .action(lazy(() => import('./campaigns/archive.js')));
  camps.command('creators').argument('<id>', 'campaign id').description("List a campaign's creators")
    .addHelpText('after', examples([['creators listening campaigns creators 2', 'table'], ['creators listening campaigns creators 2 --format csv', 'CSV']]))
    .action(lazy(() => import('./campaigns/creators.js')));
  withBody(withCreators(camps.command('add-creators').argument('<id>', 'campaign id').argument('[creators...]', 'handles (or platform:handle)')
    .description('Add creators to a campaign (each billed 0.3 credits per day)')))
    .addHelpText('after', examples([
      ['creators listening campaigns add-creators 2 --platform instagram nasa', 'one creator'],
      ['creators listening campaigns add-creators 2 --platform tiktok --file more.txt', 'from a file'],
    ]))
    .action(lazy(() => import('./campaigns/add-creators.js')));
  withBody(withCreators(camps.command('remove-creators').argument('<id>', 'campaign id').argument('[creators...]', 'handles (or platform:handle)')
    .description('Remove creators from a campaign (asks first unless --yes; billed days are not refunded)')))
    .addHelpText('after', examples([
      ['creators listening campaigns remove-creators 2 --platform instagram nasa --yes', 'stop following one'],
      ['creators listening campaigns remove-creators 2 --file gone.txt --platform tiktok', 'from a file'],
    ]))
    .action(lazy(() => import('./campaigns/remove-creators.js')));
  camps.command('overview').argument('<id>', 'campaign id').description('Campaign analytics: per-post metrics, engagement, reach, EMV, 7-day trends, report')
    .addHelpText('after', examples([['creators listening campaigns overview 2', 'totals and a post table'], ['creators listening campaigns overview 2 --json', 'everything']]))
    .action(lazy(() => import('./campaigns/overview.js')));
  camps.command('content').argument('<id>', 'campaign id').description("The campaign's content feed (every page, streamed)")
    .addHelpText('after', examples([['creators listening campaigns content 2', 'table'], ['creators listening campaigns content 2 --format csv -o posts.csv', 'CSV file']]))
    .action(lazy(() => import('./campaigns/content.js')));
}

function registerEvents(program: Command, lazy: Lazy): void {
  const events = program.command('events').description('Social listening events: list, read with delivery history, tail (free)')
    .addHelpText('after', examples([
      ['creators events list --subscription 3 --all --format jsonl', 'every event of a subscription'],
      ['creators events get 42', 'one event and its delivery attempts'],
      ['creators events tail --once --cursor-file ~/.events.cursor >> events.jsonl', 'cron: only what is new'],
    ]));
  withEventFilters(events.command('list').alias('ls').description('List events, one page (1-based) or --all')
    .option('--page <n>', 'page number, from 1')
    .option('--page-size <n>', 'events per page, 1-100 (server default 10)')
    .option('--all', 'follow every page from --page on'))
    .addHelpText('after', examples([
      ['creators events list', 'the first page'],
      ['creators events list --type new_post --subscription 3 --all --format jsonl', 'every new post of a subscription'],
      ['creators events list --creator nasa --page 2 --page-size 50', 'paging'],
    ]))
    .action(lazy(() => import('./events/list.js')));
  events.command('get').argument('<id>', 'event id').description('One event with its full delivery history')
    .addHelpText('after', examples([['creators events get 42', 'summary and delivery attempts'], ['creators events get 42 --json', 'everything']]))
    .action(lazy(() => import('./events/get.js')));
  withEventFilters(events.command('tail').description('Print each new event once, in order of occurrence, as it appears')
    .option('--interval <s>', 'seconds between polls (default 10)')
    .option('--once', 'print what is new and exit (for cron)')
    .option('--cursor-file <path>', 'remember the last event handled here, across runs')
    .option('--forward-to <url>', 'POST each event as JSON to this URL first (up to 5 attempts with backoff; never skipped)')
    .option('--backlog <n|all>', 'without a cursor: how many existing events to start with (default 10)'))
    .addHelpText('after', examples([
      ['creators events tail', 'watch on a terminal; Ctrl-C to stop'],
      ['creators events tail --once --cursor-file ~/.events.cursor >> events.jsonl', 'cron: exactly what is new since the last run'],
      ['creators events tail --forward-to http://127.0.0.1:8000/hook --cursor-file hook.cursor', 'feed a local webhook'],
      ['creators events tail --type follower_threshold --interval 60', 'only milestones, once a minute'],
    ]))
    .action(lazy(() => import('./events/tail.js')));
}
