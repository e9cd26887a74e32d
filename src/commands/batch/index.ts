import { Option, type Command } from 'commander';
import type { Lazy } from '../../program.js';
import { examples } from '../../app/help-text.js';

/** The options that describe a job: shared by `upload` and `run`. */
function jobOptions(cmd: Command): Command {
  return cmd
    .option('--mode <mode>', 'enrichment mode: raw or full (handles), basic or advanced (emails)')
    .option('--platform <p>', 'platform of the handles (raw, full): instagram, youtube, tiktok, twitter, twitch, onlyfans')
    .option('--column <name>', 'input column holding the values (default: a handle/email header, else detected by content)')
    .option('--email-required <v>', 'handle modes: must_have or preferred')
    .option('--audience', 'full mode: include audience data (include_audience_data)')
    .option('--lookalikes', 'full mode: include lookalikes (include_lookalikes, default false)')
    .option('--metadata <key=value>', 'metadata stored with the job (repeatable; dot paths nest)', (v: string, prev: string[] = []) => [...prev, v])
    .addOption(new Option('--min-followers <n>').hideHelp())
    .addOption(new Option('--exclude-platforms <list>').hideHelp());
}

/** Batch enrichment: upload, status, poll, download, resume, run. */
export function registerBatch(program: Command, lazy: Lazy): void {
  const batch = program
    .command('batch')
    .description('Batch enrichment of a CSV of handles or emails: upload, wait, download')
    .addHelpText('after', examples([
      ['creators batch run handles.csv --mode raw --platform instagram -o results.csv', 'upload, wait and download in one go'],
      ['creators batch upload emails.csv --mode basic', 'start a job; prints its batch id'],
      ['creators batch poll bch_... --interval 60', 'wait for it'],
    ]));

  jobOptions(
    batch
      .command('upload')
      .description('Upload a CSV as a batch job (one column kept, blanks and duplicates dropped; files over 10 MB split into several jobs)')
      .argument('<file>', "CSV file, or '-' for standard input"),
  )
    .addHelpText('after', examples([
      ['creators batch upload handles.csv --mode full --platform instagram --audience', 'full enrichment with audience data'],
      ['creators batch upload people.csv --mode basic --column "Work email"', 'pick the column yourself'],
      ['creators batch upload handles.csv --mode raw --platform tiktok --dry-run', 'show the request and worst-case cost'],
      ['ID=$(creators batch upload handles.csv --mode raw --platform youtube)', 'piped: prints only the id'],
    ]))
    .action(lazy(() => import('./upload.js')));

  batch
    .command('status')
    .description('Show the state and progress of a batch job (free)')
    .argument('<id>', 'batch id (bch_...)')
    .addHelpText('after', examples([
      ['creators batch status bch_97912db6fec544b9aafc4ab8ef057e8b', 'state and progress'],
      ['creators batch status bch_... --json', 'the status record for scripts'],
    ]))
    .action(lazy(() => import('./status.js')));

  batch
    .command('poll')
    .description(
      'Wait for a batch job to end, showing progress. Exit 0 finished, 7 failed, 5 paused for credits, ' +
        '8 still running when --timeout <s> (the global option, here the whole wait) runs out, 130 on Ctrl-C',
    )
    .argument('<id>', 'batch id (bch_...)')
    .option('--interval <s>', 'seconds between status checks (default 30)')
    .addHelpText('after', examples([
      ['creators batch poll bch_...', 'wait, checking every 30 s'],
      ['creators batch poll bch_... --interval 60 --timeout 3600', 'give up (exit 8) after an hour'],
    ]))
    .action(lazy(() => import('./poll.js')));

  batch
    .command('download')
    .description('Download the results: CSV through the short-lived download URL (or the result route), JSON with --json; streamed to an atomic file')
    .argument('<id>', 'batch id (bch_...)')
    .addHelpText('after', examples([
      ['creators batch download bch_... -o results.csv', 'CSV to a file'],
      ['creators batch download bch_... --json -o results.json', 'JSON array of {input_value, status, enrichment_data}'],
      ['creators batch download bch_... | head', 'CSV to stdout'],
    ]))
    .action(lazy(() => import('./download.js')));

  batch
    .command('resume')
    .description('Continue a batch job paused for credits (or failed); resuming is free')
    .argument('<id>', 'batch id (bch_...)')
    .addHelpText('after', examples([
      ['creators batch resume bch_...', 'continue after topping up'],
      ['creators batch resume bch_... && creators batch poll bch_...', 'continue and wait'],
    ]))
    .action(lazy(() => import('./resume.js')));

  jobOptions(
    batch
      .command('run')
      .description(
        'Upload, wait and download in one command (for cron and CI). A re-run after a crash, timeout or Ctrl-C ' +
          'reattaches to the same job instead of paying again; --timeout <s> limits the wait',
      )
      .argument('<file>', 'CSV file'),
  )
    .option('--interval <s>', 'seconds between status checks (default 30)')
    .option('--force', 'start a new job even if this input already has one')
    .addHelpText('after', examples([
      ['creators batch run handles.csv --mode raw --platform instagram -o results.csv', 'the whole job'],
      ['creators batch run emails.csv --mode basic -o results.json', 'JSON results (from the extension)'],
      ['creators batch run handles.csv --mode full --platform tiktok -o out.csv --max-credits 500', 'refuse if it could cost more'],
      ['creators batch run handles.csv --mode raw --platform youtube -o out.csv --force', 'pay for a fresh job'],
    ]))
    .action(lazy(() => import('./run.js')));
}
