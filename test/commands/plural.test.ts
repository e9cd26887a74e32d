import { describe, expect, it } from 'vitest';
import { creditCount, plural } from '../../src/lib/words.js';
import { runCli } from '../helpers/run-cli.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';

// Every count printed to people goes through plural(): "1 creator", "2 creators", "1,234 matches".

describe('plural()', () => {
  it('is singular for exactly one, with thousands separators', () => {
    expect([0, 1, 2].map((n) => plural(n, 'credit'))).toEqual(['0 credits', '1 credit', '2 credits']);
    expect(plural(1234, 'match', 'matches')).toBe('1,234 matches');
    expect(plural(1, 'match', 'matches')).toBe('1 match');
    expect(plural(0.5, 'credit')).toBe('0.5 credits');
    expect(plural('1', 'credit')).toBe('1 credit');
    expect(plural('12345678901234567890', 'credit')).toBe('12345678901234567890 credits');
    expect([0, 10, 1000, 2000, 1_234_500].map(creditCount)).toEqual([
      '0 credits',
      '0.01 credits',
      '1 credit',
      '2 credits',
      '1,234.5 credits',
    ]);
  });
});

const page = (n: number, total: number, creditsLeft: number | string) => ({
  total,
  limit: n,
  credits_left: creditsLeft,
  accounts: Array.from({ length: n }, (_, i) => ({ user_id: `u${i}`, profile: { username: `user${i}` } })),
});

async function searchAtTerminal(
  n: number,
  total: number,
  creditsLeft: number | string,
  limit = Math.max(n, 1),
): Promise<string[]> {
  const { agent, pool, env } = mockApi();
  pool
    .intercept({ path: '/public/v1/discovery/', method: 'POST' })
    .reply(200, page(n, total, creditsLeft), JSON_HEADERS);
  const res = await runCli(['search', '--platform', 'instagram', '--limit', String(limit), '--no-color'], {
    env,
    dispatcher: agent,
    tty: true,
  });
  expect(res.code).toBe(0);
  return res.stderr.trim().split('\n');
}

describe('counts in real commands', () => {
  it('search: the spend summary and the match count for 0, 1 and 2', async () => {
    expect(await searchAtTerminal(0, 0, 0, 5)).toEqual([
      'No creators found.',
      'Spent 0 credits on 0 creators (1 page); 0 credits left.',
      'Showing 0 of 0 matches (page 1)',
    ]);
    expect(await searchAtTerminal(1, 1, 1)).toEqual([
      'Spent 0.01 credits on 1 creator (1 page); 1 credit left.',
      'Showing 1 of 1 match (page 1)',
    ]);
    expect(await searchAtTerminal(2, 1234, '1234.5')).toEqual([
      'Spent 0.02 credits on 2 creators (1 page); 1234.5 credits left.',
      'Showing 2 of 1,234 matches (page 1); --page 2 or --all',
    ]);
    expect((await searchAtTerminal(2, 5, 2000))[0]).toBe(
      'Spent 0.02 credits on 2 creators (1 page); 2,000 credits left.',
    );
  });

  it('the dry-run cost line', async () => {
    const cost = async (argv: string[]): Promise<string | undefined> => {
      const res = await runCli([...argv, '--dry-run', '--format', 'table'], {
        env: { CREATORS_API_KEY: 'k', CREATORS_BASE_URL: 'https://api.test' },
      });
      expect(res.code).toBe(0);
      return res.stdout.split('\n').find((l) => l.startsWith('Worst-case cost:'));
    };
    expect(await cost(['search', '--platform', 'instagram', '--limit', '1'])).toBe(
      'Worst-case cost: 0.01 credits (1 creator x 1 page x 0.01)',
    );
    expect(await cost(['search', '--platform', 'instagram', '--limit', '50', '--all', '--max-results', '100'])).toBe(
      'Worst-case cost: 1 credit (100 creators x 0.01, in pages of 50)',
    );
    expect(await cost(['enrich', 'handle', 'a', 'b', '--platform', 'instagram', '--mode', 'full'])).toMatch(
      /^Worst-case cost: 2 credits \(2 handles x 1/,
    );
    expect(await cost(['enrich', 'handle', 'a', '--platform', 'instagram', '--mode', 'full'])).toMatch(
      /^Worst-case cost: 1 credit \(1 handle x 1/,
    );
  });

  it('the enrichment summary: one value named, 2 rows counted', async () => {
    const run = async (handles: string[]): Promise<string> => {
      const { agent, pool, env } = mockApi();
      pool
        .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
        .reply(200, { result: { instagram: { username: 'x', follower_count: 10 } }, credits_cost: 0.03 }, JSON_HEADERS)
        .times(handles.length);
      pool
        .intercept({ path: '/public/v1/accounts/credits/', method: 'GET' })
        .reply(200, { credits_available: 1, credits_used: 0 }, JSON_HEADERS);
      const res = await runCli(
        ['enrich', 'handle', ...handles, '--platform', 'instagram', '--mode', 'raw', '--format', 'csv'],
        { env, dispatcher: agent, stderrTTY: true },
      );
      expect(res.code).toBe(0);
      return (
        res.stderr
          .replace(/\x1b\[2K/g, '')
          .split(/\r|\n/)
          .filter((l) => / rows?: |^Enriched /.test(l))
          .at(-1) ?? ''
      );
    };
    // One value is not a run of rows: the line names it, and the balance reads as post's does.
    expect(await run(['a'])).toBe('Enriched a: 0.03 credits spent; 1 credit left.');
    expect(await run(['a', 'b'])).toBe('2 rows: 2 enriched, 0 not found, 0 failed; 0.06 credits spent, 1 left.');
  });

  it('the stop report of a paging run: 1 creator kept', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, page(1, 5, 9), JSON_HEADERS);
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(402, { detail: 'Not enough credits.' }, JSON_HEADERS);
    const res = await runCli(['search', '--platform', 'instagram', '--limit', '1', '--all', '--json'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(5);
    expect(res.json<unknown[]>()).toHaveLength(1);
    expect(res.errorJson().error).toMatchObject({ spent: { credits: 0.01 } });
    const text = await (async () => {
      const m = mockApi();
      m.pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, page(1, 5, 9), JSON_HEADERS);
      m.pool
        .intercept({ path: '/public/v1/discovery/', method: 'POST' })
        .reply(402, { detail: 'Not enough credits.' }, JSON_HEADERS);
      return runCli(['search', '--platform', 'instagram', '--limit', '1', '--all', '--format', 'csv'], {
        env: m.env,
        dispatcher: m.agent,
      });
    })();
    expect(text.code).toBe(5);
    expect(text.stderr).toContain('Spent 0.01 credits in this run; 1 creator written to standard output');
  });
});

describe('words: articles, counted handles, the end of posts', () => {
  it("'an instagram filter', 'an instagram post', 'an instagram profile'", async () => {
    const { agent, env } = mockApi();
    const filter = await runCli(
      ['search', '--platform', 'instagram', '--filter', 'number_of_subscribers.min=1000', '--dry-run', '--json'],
      { env, dispatcher: agent },
    );
    expect(filter.stderr).toBe(
      "warning: 'number_of_subscribers' is not an instagram filter; sent as 'number_of_followers'.\n",
    );
    const tiktok = await runCli(
      ['search', '--platform', 'youtube', '--filter', 'number_of_followers.min=1000', '--dry-run', '--json'],
      { env, dispatcher: agent },
    );
    expect(tiktok.stderr).toBe(
      "warning: 'number_of_followers' is not a youtube filter; sent as 'number_of_subscribers'.\n",
    );
    const post = await runCli(['post', 'https://www.instagram.com/p/Cabc/', '--platform', 'tiktok', '--dry-run'], {
      env,
      dispatcher: agent,
    });
    expect(post.code).toBe(2);
    expect(post.stderr).toContain('The URL is an instagram post but --platform is tiktok.');
    const posts = await runCli(
      ['posts', 'https://www.instagram.com/noah_paws/', '--platform', 'youtube', '--dry-run'],
      { env, dispatcher: agent },
    );
    expect(posts.code).toBe(2);
    expect(posts.stderr).toContain('The URL is an instagram profile but --platform is youtube.');
  });

  it("'Read 1 unique handle', 'Read 1,200 unique handles'", async () => {
    const { reportExtraction } = await import('../../src/lib/batch/upload.js');
    const said: string[] = [];
    const notices = { notice: (m: string) => said.push(m), warn: (m: string) => said.push(m) };
    const x = { rows: 1, duplicates: 0, blanks: 0, parts: [], guessedColumn: false, kind: 'handle', column: 'handle' };
    reportExtraction(notices as never, 'in.csv', x as never, { column: '--column' });
    reportExtraction(notices as never, 'in.csv', { ...x, rows: 1200, kind: 'email', column: 'email' } as never, {
      column: '--column',
    });
    expect(said).toEqual([
      "Read 1 unique handle from column 'handle' of in.csv.",
      "Read 1,200 unique emails from column 'email' of in.csv.",
    ]);
  });

  it('posts ends as post does: what was spent and the balance left', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/creators/content/posts/', method: 'POST' }).reply(
      200,
      {
        result: { posts: [{ post_id: 'p1', post_url: 'https://www.instagram.com/p/p1/', caption: 'hi' }] },
        credits_cost: 0.03,
        credits_left: 999.97,
      },
      JSON_HEADERS,
    );
    const res = await runCli(['posts', 'noah_paws', '--platform', 'instagram', '--format', 'csv'], {
      env,
      dispatcher: agent,
      stderrTTY: true,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.split('\n')).toContain('0.03 credits spent; 999.97 credits left.');
  });
});
