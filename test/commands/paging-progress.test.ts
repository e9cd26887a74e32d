import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { pagingProgressText } from '../../src/lib/bulk/progress.js';

const sb = useSandbox({ seed: 26 });
const env = () => sandboxEnv(sb.get());
const FILTER = ['--filter', 'location=Germany'];

describe('a progress line for long paging runs on a terminal (issue 26 item 3)', () => {
  it('search --all to a file shows pages, creators of the total and credits on stderr, then clears it', async () => {
    const res = await runCli(['search', '--platform', 'instagram', ...FILTER, '--all', '--format', 'csv', '--yes'], {
      env: env(),
      stderrTTY: true,
      stdoutTTY: false,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/\r\x1b\[2Ksearch: 1 page, 50\/\d+ creators, 0\.5 credits/);
    // Cleared before the summary line.
    expect(res.stderr).toMatch(/\r\x1b\[2KSpent [\d.]+ credits on \d+ creators/);
  });

  it('similar --all too; not with --quiet, not when stderr is not a terminal', async () => {
    const handle = sb.get().state.creators.list('instagram')[0]!.profile.username;
    const shown = await runCli(
      ['similar', handle, '--platform', 'instagram', '--all', '--max-results', '100', '--format', 'csv'],
      { env: env(), stderrTTY: true },
    );
    expect(shown.stderr).toMatch(/similar: 1 page, 50\/100 creators, 0\.5 credits/);
    const quiet = await runCli(
      ['similar', handle, '--platform', 'instagram', '--all', '--max-results', '100', '--format', 'csv', '--quiet'],
      { env: env(), stderrTTY: true },
    );
    expect(quiet.stderr).not.toMatch(/similar: /);
    const piped = await runCli(
      ['similar', handle, '--platform', 'instagram', '--all', '--max-results', '100', '--format', 'csv'],
      { env: env() },
    );
    expect(piped.stderr).not.toMatch(/\x1b\[2K/);
  });

  it('api --paginate shows pages, records and credits of a billed route', async () => {
    const handle = creatorHandles(sb.get(), 1, 0, 'tiktok')[0]!;
    const res = await runCli(
      [
        'api',
        'creators/content/posts',
        '-f',
        'platform=tiktok',
        '-f',
        `handle=${handle}`,
        '-f',
        'count=35',
        '--paginate',
        '--format',
        'jsonl',
      ],
      {
        env: env(),
        stderrTTY: true,
      },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/\r\x1b\[2Kapi: 1 page, \d+ records, 0\.03 credits/);
  });

  it('exclusions entries --all shows pages and handles of the list (free: no credits), then clears it', async () => {
    const handles = creatorHandles(sb.get(), 25, 40);
    const made = await runCli(['exclusions', 'create', 'progress', '--platform', 'instagram', '--json'], {
      env: env(),
    });
    const id = String((made.json() as { id: number }).id);
    expect((await runCli(['exclusions', 'add', id, ...handles], { env: env() })).code).toBe(0);
    const res = await runCli(['exclusions', 'entries', id, '--all', '--limit', '10', '--format', 'csv'], {
      env: env(),
      stderrTTY: true,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(26);
    expect(res.stderr).toMatch(/\r\x1b\[2Kexclusions entries: 1 page, 10\/25 handles/);
    expect(res.stderr).not.toMatch(/credit/);
    // Cleared at the end: nothing of it is left on the screen.
    expect(res.stderr.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('posts --all and post --kind comments --all show pages, records and credits; a single page shows none', async () => {
    const handle = creatorHandles(sb.get(), 1, 0, 'tiktok')[0]!;
    const posts = await runCli(
      ['posts', handle, '--platform', 'tiktok', '--count', '35', '--all', '--max-pages', '3', '--format', 'jsonl'],
      { env: env(), stderrTTY: true },
    );
    expect(posts.code, posts.stderr).toBe(0);
    expect(posts.stderr).toMatch(/\r\x1b\[2Kposts: 1 page, 35 posts, 0\.03 credits/);
    const one = await runCli(['posts', handle, '--platform', 'tiktok', '--count', '35', '--format', 'jsonl'], {
      env: env(),
      stderrTTY: true,
      configDir: tempConfigDir(),
    });
    expect(one.stderr).not.toMatch(/posts: 1 page/);
    const comments = await runCli(
      ['post', 'Cmany1', '--platform', 'tiktok', '--kind', 'comments', '--all', '--format', 'jsonl'],
      { env: env(), stderrTTY: true },
    );
    expect(comments.code, comments.stderr).toBe(0);
    expect(comments.stderr).toMatch(/\r\x1b\[2Kcomments: 1 page, \d+ comments, 0\.03 credits/);
  });

  it('the text: pages, records of the total, credits, ETA', () => {
    expect(
      pagingProgressText(
        'search',
        ['creator', 'creators'],
        { pages: 3, records: 150, creditsMilli: 1500, totalRecords: 300 },
        3000,
      ),
    ).toBe('search: 3 pages, 150/300 creators, 1.5 credits, ETA 3s');
    expect(pagingProgressText('events', ['event', 'events'], { pages: 1, records: 100 }, 1000)).toBe(
      'events: 1 page, 100 events',
    );
  });
});
