import { describe, expect, it } from 'vitest';
import { parsePostRef } from '../../src/lib/api/content.js';
import { commentCount } from '../../src/sandbox/enrichment/posts.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 41, credits: 100 });

describe('post references', () => {
  it.each([
    ['https://www.instagram.com/p/C1a2B3c4D5e/', 'instagram', 'C1a2B3c4D5e'],
    ['instagram.com/reel/Cx_9-z/?igsh=abc', 'instagram', 'Cx_9-z'],
    ['https://www.tiktok.com/@some.user/video/7301234567890123456?lang=en', 'tiktok', '7301234567890123456'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10', 'youtube', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['https://youtube.com/shorts/abcDEF12345', 'youtube', 'abcDEF12345'],
  ])('%s -> %s %s', (url, platform, postId) => {
    expect(parsePostRef(url)).toEqual({ platform, postId });
  });

  it('keeps a bare id and refuses unknown URL forms', () => {
    expect(parsePostRef('abc_123')).toEqual({ platform: undefined, postId: 'abc_123' });
    expect(() => parsePostRef('https://www.instagram.com/someone/')).toThrow(/Cannot find a post id/);
    expect(() => parsePostRef('https://example.com/p/abc/')).toThrow(/Cannot find a post id/);
  });
});

describe('creators post', () => {
  it('the terminal summary says what was spent and the credits left (data and comments)', async () => {
    const env = sandboxEnv(sb.get());
    const left = () =>
      (sb.get().state.ledger.balanceMilli / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 });
    const data = await runCli(['post', 'Cleft1', '--platform', 'instagram', '--no-color'], {
      env,
      tty: true,
      columns: 200,
    });
    expect(data.code).toBe(0);
    expect(data.stderr).toBe(`0.03 credits spent; ${left()} credits left.\n`);
    const comments = await runCli(
      ['post', 'Cleft2', '--platform', 'instagram', '--kind', 'comments', '--format', 'jsonl'],
      { env, stderrTTY: true },
    );
    expect(comments.code).toBe(0);
    expect(comments.stderr).toMatch(
      new RegExp(`^(More comments: .*\\n)?0\\.03 credits spent; ${left().replace('.', '\\.')} credits left\\.\\n$`),
    );
  });

  it.each([
    [{ credits_left: '11849.48' }, '0.03 credits spent; 11,849.48 credits left.'],
    [{ credits_left: 1 }, '0.03 credits spent; 1 credit left.'],
    [{ credits_available: 2 }, '0.03 credits spent; 2 credits left.'],
    [{}, '0.03 credits spent.'],
  ])('reads the balance from either field, as a number or a string: %j', async (balance, line) => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/creators/content/details/', method: 'POST' })
      .reply(200, { result: { post_id: 'x1', caption: 'hi' }, credits_cost: 0.03, ...balance }, JSON_HEADERS);
    const res = await runCli(['post', 'x1', '--platform', 'tiktok', '--json'], {
      env,
      dispatcher: agent,
      stderrTTY: true,
    });
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({ post_id: 'x1', caption: 'hi' });
    expect(res.stderr).toBe(`${line}\n`);
  });

  it('fetches post data from a URL (platform from the URL) and charges 0.03', async () => {
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(['post', 'https://www.instagram.com/p/Cabc123/', '--json'], { env: sandboxEnv(sb.get()) });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ post_id: 'Cabc123', platform: 'instagram' });
    expect(sb.get().state.ledger.usedMilli - before).toBe(30);
  });

  it('--all follows next_token -> pagination_token through every comment page', async () => {
    const id = 'Cmany1';
    const total = commentCount(41, 'tiktok', id);
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(['post', id, '--platform', 'tiktok', '--kind', 'comments', '--all', '--format', 'jsonl'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    const lines = res.stdout.trim()
      ? res.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
    expect(lines).toHaveLength(total);
    expect(new Set(lines.map((c) => c.comment_id)).size).toBe(total);
    expect(sb.get().state.ledger.usedMilli - before).toBe(Math.ceil(total / 25) * 30);
  });

  it('without --all prints one page and says how to get more', async () => {
    const id = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].find((p) => commentCount(41, 'instagram', p) > 25)!;
    const res = await runCli(['post', id, '--platform', 'instagram', '--kind', 'comments', '--format', 'jsonl'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.stdout.trim().split('\n')).toHaveLength(25);
    expect(res.stderr).toMatch(/More comments: add --all/);
  });

  it('sends {platform, post_id, content_type} and pagination_token from next_token', async () => {
    const api = mockApi();
    const bodies: unknown[] = [];
    api.pool
      .intercept({ path: '/public/v1/creators/content/details/', method: 'POST' })
      .reply(
        200,
        (opts) => {
          const body = JSON.parse(String(opts.body)) as Record<string, unknown>;
          bodies.push(body);
          return body.pagination_token
            ? { result: { comments: [{ text: 'second' }] }, credits_cost: 0.03, next_token: null }
            : { result: { comments: [{ text: 'first' }] }, credits_cost: 0.03, next_token: 'tok2' };
        },
        JSON_HEADERS,
      )
      .persist();
    const res = await runCli(['post', 'vid1', '--platform', 'youtube', '--kind', 'comments', '--all', '--json'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(0);
    expect(res.json<{ text: string }[]>().map((c) => c.text)).toEqual(['first', 'second']);
    expect(bodies).toEqual([
      { platform: 'youtube', post_id: 'vid1', content_type: 'comments' },
      { platform: 'youtube', post_id: 'vid1', content_type: 'comments', pagination_token: 'tok2' },
    ]);
  });

  it('--max-credits bounds --all by pages; --max-pages gives an exact worst case', async () => {
    const dry = await runCli(
      ['post', 'x1', '--platform', 'tiktok', '--kind', 'comments', '--all', '--max-pages', '4', '--dry-run', '--json'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(dry.json()).toMatchObject({
      worst_case_credits: 0.12,
      body: { platform: 'tiktok', post_id: 'x1', content_type: 'comments' },
    });
    const id = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7'].find((p) => commentCount(41, 'tiktok', p) > 60)!;
    const res = await runCli(
      ['post', id, '--platform', 'tiktok', '--kind', 'comments', '--all', '--max-credits', '0.06', '--format', 'jsonl'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(50);
    expect(res.stderr).toMatch(/Stopped after the page limit/);
  });

  it('an unknown post is not_found, exit 0, free', async () => {
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(['post', 'missing1', '--platform', 'instagram', '--kind', 'transcript', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ status: 'not_found' });
    expect(sb.get().state.ledger.usedMilli).toBe(before);
  });

  it.each([
    [['dQw4w9WgXcQ', '--platform', 'youtube', '--kind', 'audio'], /YouTube posts have no audio/],
    [['https://youtu.be/dQw4w9WgXcQ', '--kind', 'audio'], /YouTube posts have no audio/],
    [['abc'], /--platform is required/],
    [['abc', '--platform', 'twitch'], /Unknown platform/],
    [['https://www.instagram.com/someone/'], /Cannot find a post id/],
    [
      ['https://youtu.be/abc', '--platform', 'tiktok'],
      /^error: The URL is a youtube post but --platform is tiktok\.\n$/,
    ],
    [['abc', '--platform', 'instagram', '--all'], /--all applies to --kind comments/],
    [['abc', '--platform', 'instagram', '--kind', 'comments', '--max-pages', '2'], /--max-pages needs --all/],
  ])('refuses %j before sending (exit 2)', async (argv, message) => {
    const api = mockApi();
    const res = await runCli(['post', ...argv], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it.each([
    [
      ['noah', '--platform', 'instagram', '--count', '20'],
      'error: Instagram pages are a fixed 12 posts; --count does not apply.\n',
    ],
    [['noah', '--platform', 'tiktok', '--count', '36'], 'error: --count must be 1 to 35 on tiktok.\n'],
  ])('posts %j is refused before sending (exit 2)', async (argv, message) => {
    const api = mockApi();
    const res = await runCli(['posts', ...argv], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(message);
  });
});
