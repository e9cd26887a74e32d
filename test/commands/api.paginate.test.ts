/**
 * `creators api --paginate` follows every paging style the service uses (next URLs, next_token
 * cursors at the top or under `result`, offset/total, Discovery's numbered pages up to the total or
 * the 10,000-result cap), never buys a page twice, keeps what it paid for when stopped, and has a
 * known worst case for --max-credits.
 */
import { describe, expect, it } from 'vitest';
import { postCount } from '../../src/sandbox/enrichment/creator-posts.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { ledgerMark } from '../reliability/helpers.js';

const sb = useSandbox({ seed: 42, credits: 1000 });
const poor = useSandbox({ seed: 42, credits: 0.1 });
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
const postsArgs = [
  'api',
  'creators/content/posts',
  '-f',
  'platform=tiktok',
  '-f',
  'handle=themaxtech',
  '-f',
  'count=35',
  '--paginate',
];

describe('api --paginate against the sandbox', () => {
  it('follows a next_token cursor (posts under result): the same posts as `posts --all`, 0.03 a page', async () => {
    const total = postCount(sb.get().state.creators.find('tiktok', 'themaxtech')!);
    const mark = ledgerMark(sb.get());
    const raw = await runCli([...postsArgs, '--format', 'jsonl'], { env: sandboxEnv(sb.get()) });
    expect(raw.code).toBe(0);
    const posts = lines(raw.stdout);
    // Before: the envelope came out as one record after one request.
    expect(posts).toHaveLength(total);
    expect(mark.since().milli).toBe(Math.ceil(total / 35) * 30);
    const cmd = await runCli(
      ['posts', 'themaxtech', '--platform', 'tiktok', '--count', '35', '--all', '--format', 'jsonl'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(lines(cmd.stdout).map((p) => p.post_id)).toEqual(posts.map((p) => p.post_id));
  });

  it('follows Discovery page numbers to the total, buying each page once', async () => {
    const body = { platform: 'instagram', filters: { engagement_percent: { min: 15 } } };
    const probe = await runCli(['api', 'discovery', '--input', '-', '--json'], {
      env: sandboxEnv(sb.get()),
      stdin: JSON.stringify({ ...body, paging: { limit: 1, page: 0 } }),
    });
    const total = probe.json<{ total: number }>().total;
    expect(total).toBeGreaterThan(100);
    const mark = ledgerMark(sb.get());
    const res = await runCli(['api', 'discovery', '--input', '-', '--paginate', '--format', 'jsonl'], {
      env: sandboxEnv(sb.get()),
      stdin: JSON.stringify({ ...body, paging: { limit: 50, page: 0 } }),
    });
    expect(res.code).toBe(0);
    const ids = lines(res.stdout).map((a) => a.user_id);
    // Before: page 1 only (50 creators).
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    const charged = mark.since();
    expect(charged.count).toBe(Math.ceil(total / 50));
    expect(charged.milli).toBe(total * 10);
  });

  it('a 402 part-way keeps the paid pages and reports the spend (exit 5)', async () => {
    const mark = ledgerMark(poor.get());
    const res = await runCli(
      [
        'api',
        'creators/content/posts',
        '-f',
        'platform=instagram',
        '-f',
        'handle=noah_paws',
        '--paginate',
        '--format',
        'jsonl',
      ],
      { env: sandboxEnv(poor.get()) },
    );
    expect(res.code).toBe(5);
    // 0.1 credits pay for three 0.03 pages of 12; the fourth is refused.
    expect(lines(res.stdout)).toHaveLength(36);
    expect(mark.since().milli).toBe(90);
    // The warning first (a priced cursor route with no bound), then the error as JSON.
    expect(res.stderr).toMatch(
      /^warning: The cost of POST \/public\/v1\/creators\/content\/posts\/ --paginate is not known in advance \(0\.15 a page/,
    );
    expect(JSON.parse(res.stderr.trim().split('\n').at(-1)!).error.spent).toEqual({
      credits: 0.09,
      kept: '36 records written to standard output, a partial result (the run stopped before the end)',
    });
  });
});

describe('api --paginate worst case', () => {
  it('a priced cursor route without a bound has an unknown worst case: refused under a budget that cannot pay a page', async () => {
    const dry = await runCli([...postsArgs, '--dry-run', '--json'], { env: sandboxEnv(sb.get()) });
    expect(dry.json()).toMatchObject({
      worst_case_credits: null,
      cost_basis: 'pages unknown x 0.15; --max-pages n bounds it',
    });
    const mark = ledgerMark(sb.get());
    const refused = await runCli([...postsArgs, '--max-credits', '0.1', '--json'], { env: sandboxEnv(sb.get()) });
    expect(refused.code).toBe(5);
    expect(refused.errorJson().error.message).toContain('Worst-case cost 0.15 credits exceeds --max-credits 0.1');
    expect(mark.since().count).toBe(0);
  });

  it('--max-pages bounds it; a budget alone bounds the pages to what it pays for at the worst case', async () => {
    const dry = await runCli([...postsArgs, '--max-pages', '3', '--dry-run', '--json'], { env: sandboxEnv(sb.get()) });
    expect(dry.json()).toMatchObject({ worst_case_credits: 0.45, cost_basis: '3 pages x 0.15' });
    const mark = ledgerMark(sb.get());
    const bounded = await runCli(
      [
        'api',
        'creators/content/posts',
        '-f',
        'platform=instagram',
        '-f',
        'handle=noah_paws',
        '--paginate',
        '--max-credits',
        '0.3',
        '--format',
        'jsonl',
      ],
      { env: sandboxEnv(sb.get()) },
    );
    expect(bounded.code).toBe(0);
    expect(lines(bounded.stdout)).toHaveLength(24);
    expect(mark.since().count).toBe(2);
    expect(bounded.stderr).toMatch(/Stopped after 2 pages/);
  });

  it('Discovery is bounded by the 10,000-result cap', async () => {
    const dry = await runCli(['api', 'discovery', '--input', '-', '--paginate', '--dry-run', '--json'], {
      env: sandboxEnv(sb.get()),
      stdin: JSON.stringify({ platform: 'instagram', paging: { limit: 50, page: 190 } }),
    });
    expect(dry.json()).toMatchObject({
      worst_case_credits: 5,
      cost_basis: '10 pages (the 10,000-result cap) x 50 creators x 0.01',
    });
  });

  it('--max-pages needs --paginate', async () => {
    const res = await runCli(['api', 'accounts/credits', '--max-pages', '2'], { env: sandboxEnv(sb.get()) });
    expect(res.code).toBe(2);
  });
});

describe('api --paginate styles (mock API)', () => {
  it('stops at the 10,000-result cap', async () => {
    const { agent, pool, env } = mockApi();
    const pages: number[] = [];
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(
        200,
        (opts) => {
          const page = JSON.parse(String(opts.body)).paging.page as number;
          pages.push(page);
          return {
            total: 50_000,
            limit: 50,
            accounts: Array.from({ length: 50 }, (_, i) => ({ user_id: String(page * 50 + i) })),
          };
        },
        JSON_HEADERS,
      )
      .persist();
    const res = await runCli(['api', 'discovery', '--input', '-', '--paginate', '--format', 'jsonl'], {
      env,
      dispatcher: agent,
      stdin: JSON.stringify({ platform: 'instagram', paging: { limit: 50, page: 198 } }),
    });
    expect(res.code).toBe(0);
    expect(pages).toEqual([198, 199]);
    expect(lines(res.stdout)).toHaveLength(100);
    expect(res.stderr).toMatch(/10,000-result cap/);
  });

  it('a page of creators already seen (a server counting from the other base) ends the run', async () => {
    const { agent, pool, env } = mockApi();
    const pages: number[] = [];
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(
        200,
        (opts) => {
          const page = JSON.parse(String(opts.body)).paging.page as number;
          pages.push(page);
          // Pages 0 and 1 are both the first page.
          const index = Math.max(0, page - 1);
          return { total: 500, limit: 2, accounts: [{ user_id: `a${index}` }, { user_id: `b${index}` }] };
        },
        JSON_HEADERS,
      )
      .persist();
    const res = await runCli(['api', 'discovery', '--input', '-', '--paginate', '--format', 'jsonl'], {
      env,
      dispatcher: agent,
      stdin: JSON.stringify({ platform: 'instagram', paging: { limit: 2, page: 0 } }),
    });
    expect(res.code).toBe(0);
    expect(pages).toEqual([0, 1]);
    expect(lines(res.stdout).map((a) => a.user_id)).toEqual(['a0', 'b0']);
    expect(res.stderr).toMatch(/repeated creators already received/);
  });

  it('follows next_token under result (comments), sending it back as pagination_token', async () => {
    const { agent, pool, env } = mockApi();
    const sent: unknown[] = [];
    const answers = [
      { result: { comments: [{ id: 1 }, { id: 2 }], next_token: 'c2' }, credits_cost: 0.03 },
      { result: { comments: [{ id: 3 }], next_token: null }, credits_cost: 0.03 },
    ];
    pool
      .intercept({ path: '/public/v1/creators/content/details/', method: 'POST' })
      .reply(
        200,
        (opts) => {
          sent.push(JSON.parse(String(opts.body)));
          return answers[sent.length - 1]!;
        },
        JSON_HEADERS,
      )
      .times(2);
    const res = await runCli(
      [
        'api',
        'creators/content/details',
        '-f',
        'platform=instagram',
        '-f',
        'post_id=1',
        '-f',
        'content_type=comments',
        '--paginate',
        '--format',
        'jsonl',
      ],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(lines(res.stdout).map((c) => c.id)).toEqual([1, 2, 3]);
    expect(sent).toEqual([
      { platform: 'instagram', post_id: 1, content_type: 'comments' },
      { platform: 'instagram', post_id: 1, content_type: 'comments', pagination_token: 'c2' },
    ]);
  });
});
