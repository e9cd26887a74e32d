/** `creators posts`, `creators socials` and `creators overlap` against the sandbox (default seed) and a mock API. */
import { describe, expect, it } from 'vitest';
import { postCount } from '../../src/sandbox/enrichment/creator-posts.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempFile } from '../helpers/temp.js';

const sb = useSandbox({ seed: 42, credits: 1000 });
const poor = useSandbox({ seed: 42, credits: 0.1 });
const used = () => sb.get().state.ledger.usedMilli;
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('creators posts', () => {
  it('--all follows next_token through every page; the ledger charges 0.03 a page', async () => {
    const total = postCount(sb.get().state.creators.find('tiktok', 'themaxtech')!);
    const before = used();
    const res = await runCli(
      ['posts', 'themaxtech', '--platform', 'tiktok', '--count', '35', '--all', '--format', 'jsonl'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    const posts = lines(res.stdout);
    expect(posts).toHaveLength(total);
    expect(new Set(posts.map((p) => p.post_id)).size).toBe(total);
    expect(used() - before).toBe(Math.ceil(total / 35) * 30);
  });

  it('one page without --all, platform from the URL, and a hint for more', async () => {
    const res = await runCli(['posts', 'https://www.instagram.com/noah_paws/', '--format', 'jsonl'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    expect(lines(res.stdout)).toHaveLength(12);
    expect(res.stderr).toMatch(/More posts: add --all/);
  });

  it('a 402 part-way through --all keeps the paid page and reports the spend', async () => {
    const res = await runCli(['posts', 'noah_paws', '--platform', 'instagram', '--all', '--format', 'jsonl'], {
      env: sandboxEnv(poor.get()),
    });
    expect(res.code).toBe(5);
    // 0.1 credits pay for three 0.03 pages; the fourth is refused.
    expect(lines(res.stdout)).toHaveLength(36);
    expect(JSON.parse(res.stderr).error.spent).toEqual({
      credits: 0.09,
      kept: '36 posts written to standard output, a partial result (the run stopped before the end)',
    });
    expect(poor.get().state.ledger.usedMilli).toBe(90);
  });

  it('--dry-run and --max-credits price a page at 0.15 and say why', async () => {
    const dry = await runCli(
      ['posts', 'noah_paws', '--platform', 'instagram', '--all', '--max-pages', '3', '--dry-run', '--json'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(dry.code).toBe(0);
    expect(dry.json()).toMatchObject({
      worst_case_credits: 0.45,
      body: { platform: 'instagram', handle: 'noah_paws' },
    });
    expect(dry.json<{ cost_basis: string }>().cost_basis).toMatch(/newest official client.*0\.03/);
    const before = used();
    const refused = await runCli(['posts', 'noah_paws', '--platform', 'instagram', '--max-credits', '0.1'], {
      env: sandboxEnv(sb.get()),
    });
    expect(refused.code).toBe(5);
    expect(used()).toBe(before);
    // Unbounded --all under a budget: as many pages as the budget pays for at 0.15.
    const bounded = await runCli(
      ['posts', 'noah_paws', '--platform', 'instagram', '--all', '--max-credits', '0.3', '--format', 'jsonl'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(bounded.code).toBe(0);
    expect(lines(bounded.stdout)).toHaveLength(24);
    expect(bounded.stderr).toMatch(/Stopped after the page limit/);
  });

  it.each([
    [['noah_paws', '--platform', 'instagram', '--count', '20'], /fixed 12/],
    [['x', '--platform', 'tiktok', '--count', '36'], /1 to 35/],
    [['x', '--platform', 'twitter'], /Unknown platform|not available/],
    [['https://www.tiktok.com/@x', '--platform', 'youtube'], /tiktok profile but --platform is youtube/],
    [['x', '--platform', 'youtube', '--max-pages', '2'], /--max-pages needs --all/],
  ])('refuses %j before sending (exit 2)', async (argv, message) => {
    const api = mockApi();
    const res = await runCli(['posts', ...argv], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });
});

describe('creators socials', () => {
  it('many handles from a CSV through the bulk runner: 0.5 per creator found, nothing found free, output keeps the input columns', async () => {
    const { path } = tempFile('in.csv', 'handle,note\nnoah_paws,a\nmissing_nobody,b\ntheellastrong,c\n');
    const before = used();
    const res = await runCli(['socials', '--platform', 'instagram', '--input', path, '--format', 'jsonl'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    const rows = lines(res.stdout);
    expect(rows.map((r) => [r.input.handle, r.input.note, r.status])).toEqual([
      ['noah_paws', 'a', 'ok'],
      ['missing_nobody', 'b', 'not_found'],
      ['theellastrong', 'c', 'ok'],
    ]);
    expect(rows[0]!.result.socials.length).toBeGreaterThan(0);
    expect(used() - before).toBe(1000);
  });

  it('the table shows the accounts as platform:handle, not as JSON text', async () => {
    const res = await runCli(
      ['socials', 'noah_paws', 'theellastrong', '--platform', 'instagram', '--format', 'table'],
      { env: sandboxEnv(sb.get()), tty: true, columns: 200 },
    );
    expect(res.code).toBe(0);
    const socials = lines(
      (
        await runCli(['socials', 'noah_paws', '--platform', 'instagram', '--format', 'jsonl'], {
          env: sandboxEnv(sb.get()),
        })
      ).stdout,
    )[0]!.result.socials as { platform: string; handle: string }[];
    expect(res.stdout).toContain(socials.map((a) => `${a.platform}:${a.handle}`).join(', '));
    expect(res.stdout).not.toContain('[{');
  });

  it('one handle on a terminal: a card with a row per connected account', async () => {
    const res = await runCli(['socials', 'noah_paws', '--platform', 'instagram'], {
      env: sandboxEnv(sb.get(), { NO_COLOR: '1' }),
      tty: true,
      columns: 100,
    });
    expect(res.code).toBe(0);
    const socials = lines(
      (
        await runCli(['socials', 'noah_paws', '--platform', 'instagram', '--format', 'jsonl'], {
          env: sandboxEnv(sb.get()),
        })
      ).stdout,
    )[0]!.result.socials as { platform: string; handle: string }[];
    expect(res.stdout.split('\n')[0]).toBe('@noah_paws · instagram');
    for (const a of socials) expect(res.stdout).toMatch(new RegExp(`\\n {2}${a.platform} +@${a.handle} · `));
    expect(res.stdout).not.toContain('[{');
  });

  it('--dry-run prices rows x 0.5 and sends nothing', async () => {
    const before = used();
    const res = await runCli(['socials', 'a', 'b', 'c', '--platform', 'tiktok', '--dry-run', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    expect(JSON.stringify(res.json())).toMatch(/"worst_case_credits":1\.5/);
    expect(used()).toBe(before);
  });
});

describe('creators overlap', () => {
  it('prints a row per creator and the totals, for 1 credit', async () => {
    const before = used();
    const res = await runCli(
      ['overlap', 'noah_paws', 'theellastrong', 'hannahclutch', '--platform', 'instagram', '--format', 'jsonl'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    const rows = lines(res.stdout);
    expect(rows.map((r) => r.username)).toEqual(['noah_paws', 'theellastrong', 'hannahclutch', '(total)']);
    const total = rows[3]!;
    expect(total.followers).toBe(rows.slice(0, 3).reduce((s, r) => s + r.followers, 0));
    expect(total.unique_followers).toBeLessThanOrEqual(total.followers);
    expect(used() - before).toBe(1000);
  });

  it.each([
    [['noah_paws', '--platform', 'instagram'], /2 to 10 creators/],
    [['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', '--platform', 'instagram'], /2 to 10 creators/],
    [['noah_paws', '@Noah_Paws', '--platform', 'instagram'], /given twice/],
    [['a', 'b', '--platform', 'twitch'], /Unknown platform|instagram, tiktok, youtube/],
  ])('refuses %j before sending (exit 2)', async (argv, message) => {
    const api = mockApi();
    const res = await runCli(['overlap', ...argv], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it('reads credits_left as a string too, and keeps the whole answer in json', async () => {
    const api = mockApi();
    const answer = {
      credits_cost: 1,
      credits_left: '99.5',
      success: true,
      basics: { total_followers: 300, total_unique_followers: 250 },
      details: [
        { username: 'a', followers: 100, unique_percentage: 80, overlapping_percentage: 20 },
        { username: 'b', followers: 200, unique_percentage: 90, overlapping_percentage: 10 },
      ],
    };
    api.pool
      .intercept({ path: '/public/v1/creators/audience/overlap/', method: 'POST' })
      .reply(200, answer, JSON_HEADERS)
      .persist();
    const json = await runCli(['overlap', 'a', 'b', '--platform', 'tiktok', '--json'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(json.code).toBe(0);
    expect(json.json()).toEqual(answer);
    const csv = await runCli(
      [
        'overlap',
        'a',
        'b',
        '--platform',
        'tiktok',
        '--format',
        'csv',
        '--fields',
        'username,followers,unique_followers',
      ],
      { env: api.env, dispatcher: api.agent },
    );
    expect(csv.stdout.trim().split('\n')).toEqual([
      'username,followers,unique_followers',
      'a,100,80',
      'b,200,180',
      '(total),300,250',
    ]);
  });
});
