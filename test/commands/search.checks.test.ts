import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { JSON_HEADERS, mockApi, refusedBeforeSending } from '../helpers/mock-api.js';

type Account = { user_id: string; profile: { username: string } };

const sb = useSandbox({ seed: 22 });
const env = () => sandboxEnv(sb.get());
const used = () => sb.get().state.ledger.usedMilli;

/** Refused with exit 2 against a MockAgent with no interceptors: nothing was sent. */
const refused = refusedBeforeSending;

describe('checks that save credits: exit 2, nothing sent', () => {
  it.each([
    [['search', '--platform', 'myspace'], /^error: Unknown platform 'myspace'\./],
    [['search'], /^error: --platform is required\./],
    [
      ['search', '--platform', 'twitch', '--sort', 'growth_rate'],
      /^error: Sorting by growth_rate is not available on twitch\./,
    ],
    [['search', '--platform', 'onlyfans', '--sort', 'number_of_followers'], /not available on onlyfans/],
    [
      ['search', '--platform', 'instagram', '--sort', 'relevancy', '--order', 'asc'],
      /relevancy can only be sorted in descending order/,
    ],
    [
      ['search', '--platform', 'instagram', '--sort', 'followers'],
      /^error: Unknown sort 'followers'\.\n.*relevancy, engagement_rate/,
    ],
    [['search', '--platform', 'instagram', '--order', 'asc'], /--order needs --sort/],
    [['search', '--platform', 'instagram', '--limit', '51'], /at most 50 creators per page/],
    [['search', '--platform', 'instagram', '--limit', '0'], /Invalid --limit '0'/],
    [['search', '--platform', 'instagram', '--page', '0'], /Invalid --page '0'/],
    [['search', '--platform', 'instagram', '--limit', '50', '--page', '201'], /beyond the 10000-result cap/],
    [['search', '--platform', 'instagram', '--filter', 'exclude_previous=true'], /'exclude_previous' was removed/],
    [['search', '--platform', 'instagram', '--filter', 'exclude_all=a,b'], /'exclude_all' is deprecated/],
    [['search', '--platform', 'instagram', '--filter', 'nonsense'], /Malformed --filter 'nonsense'/],
    [
      ['search', '--platform', 'instagram', '--ai-search', 'ab'],
      /^error: --ai-search must be 3 to 150 characters\.\n$/,
    ],
    [
      ['search', '--platform', 'instagram', '--filter', 'ai_search=ab'],
      /^error: filters\.ai_search must be 3 to 150 characters\.\n$/,
    ],
    [
      ['search', '--platform', 'instagram', '--min-followers', '5', '--max-followers', '1'],
      /^error: --min-followers 5 is above --max-followers 1\.\n$/,
    ],
    [
      ['search', '--platform', 'instagram', '--sort', 'engagement_rate', '--order', 'up'],
      /^error: Invalid --order 'up': use asc or desc\.\n$/,
    ],
    [['search', '--platform', 'instagram', '--exclude-list', 'abc'], /Invalid --exclude-list 'abc'/],
    [['search', '--platform', 'instagram', '--query', ' '], /--query needs a brief/],
    [['similar', 'nasa', '--platform', 'instagram', '--by', 'email'], /Invalid --by 'email'/],
    [
      ['search', '--platform', 'instagram', '--filters', '-', '--exclude-handles', '-'],
      /Only one of --filters and --exclude-handles/,
    ],
  ])('%j', async (argv, message) => {
    expect(await refused(argv as string[])).toMatch(message as RegExp);
  });

  it.each([['[1]'], ['null'], ['"x"']])('refuses --filters holding %s: not a JSON object of filters', async (text) => {
    expect(await refused(['search', '--platform', 'instagram', '--filters', '-'], text)).toMatch(
      /^error: --filters must hold a JSON object of filters\.\n.*e\.g\. \{"number_of_followers": \{"min": 10000\}\}\n$/,
    );
  });

  it('refuses more than 10,000 handles to exclude', async () => {
    const handles = Array.from({ length: 10_001 }, (_, i) => `h${i}`).join('\n');
    expect(await refused(['search', '--platform', 'instagram', '--exclude-handles', '-'], handles)).toMatch(
      /^error: --exclude-handles holds 10,001 handles; the API takes at most 10,000\./,
    );
  });

  it('refuses an exclusion list that does not exist or is for another platform, after one free GET', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    const lists = [{ id: 4, name: 'TT', platform: 'tiktok', is_default: false, handle_count: 1 }];
    pool
      .intercept({ path: '/public/v1/discovery/exclusion-lists/', method: 'GET' })
      .reply(200, lists, JSON_HEADERS)
      .times(2);
    const missing = await runCli(['search', '--platform', 'tiktok', '--exclude-list', '9'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: Exclusion list 9 does not exist; nothing was sent\./);
    const foreign = await runCli(['search', '--platform', 'instagram', '--exclude-list', '4'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(
      /^error: Exclusion list 4 \('TT'\) is for tiktok, not instagram; nothing was sent\./,
    );
    agent.assertNoPendingInterceptors();
  });

  it('refuses when the list lookup does not return a list of lists', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    pool
      .intercept({ path: '/public/v1/discovery/exclusion-lists/', method: 'GET' })
      .reply(200, { detail: 'odd' }, JSON_HEADERS);
    const res = await runCli(['search', '--platform', 'tiktok', '--exclude-list', '1', '--retries', '0'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^error: The server's answer to GET \/public\/v1\/discovery\/exclusion-lists\/ does not have the endpoint's shape \(HTTP 200\): the body: expected Array/,
    );
  });
});

describe('exclusions applied to search', () => {
  it('a search with an exclusion list never returns an excluded handle', async () => {
    const first = (await runCli(['search', '--platform', 'twitter', '--limit', '10', '--json'], { env: env() })).json<
      Account[]
    >();
    const handles = first.map((a) => a.profile.username);
    const created = await runCli(['exclusions', 'create', 'seen', '--platform', 'twitter', '--json'], { env: env() });
    const id = created.json<{ id: number }>().id;
    await runCli(['exclusions', 'add', String(id), ...handles.slice(0, 5).map((h) => `@${h.toUpperCase()}`)], {
      env: env(),
    });
    await runCli(['exclusions', 'add', 'default:twitter', '--file', '-'], {
      env: env(),
      stdin: handles.slice(5).join('\n'),
    });
    const before = used();
    const res = await runCli(
      [
        'search',
        '--platform',
        'twitter',
        '--all',
        '--max-results',
        '200',
        '--exclude-list',
        String(id),
        '--exclude-default-list',
        '--json',
      ],
      { env: env() },
    );
    expect(res.code).toBe(0);
    const got = res.json<Account[]>().map((a) => a.profile.username);
    expect(got).toHaveLength(200);
    for (const h of handles) expect(got).not.toContain(h);
    expect(used() - before).toBe(2000);
  });

  it('--exclude-handles from a file leaves those handles out', async () => {
    const first = (await runCli(['search', '--platform', 'youtube', '--limit', '3', '--json'], { env: env() })).json<
      Account[]
    >();
    const res = await runCli(['search', '--platform', 'youtube', '--limit', '3', '--exclude-handles', '-', '--json'], {
      env: env(),
      stdin: `handle\n${first.map((a) => a.profile.username).join('\n')}\n\n`,
    });
    const got = res.json<Account[]>().map((a) => a.user_id);
    for (const a of first) expect(got).not.toContain(a.user_id);
  });
});

describe('each kind of 429 has its own message and exit code', () => {
  it('daily Discovery limit: exit 5, the time it lifts, no retry; the partial spend is reported', async () => {
    const s = await startSandbox({
      port: 0,
      seed: 22,
      dailyDiscoveryLimit: 0.25,
      now: () => Date.parse('2026-11-22T22:00:00Z'),
    });
    try {
      const sleeps: number[] = [];
      const res = await runCli(['search', '--platform', 'instagram', '--all', '--limit', '10', '--format', 'jsonl'], {
        env: sandboxEnv(s),
        stderrTTY: true,
        sleeps,
      });
      expect(res.code).toBe(5);
      expect(res.stdout.trim().split('\n')).toHaveLength(20);
      // The creators paid for are kept, and the error says what was spent and where they are.
      expect(res.errorJson().error).toEqual({
        code: 'daily_limit_exceeded',
        message: 'Daily Discovery credit limit of 0.25 credits reached.',
        status: 429,
        retry_after: 7200,
        hint: expect.stringMatching(/^Discovery is available again after /),
        spent: {
          credits: 0.2,
          kept: '20 creators written to standard output, a partial result (the run stopped before the end)',
        },
      });
      const table = await runCli(['search', '--platform', 'instagram'], {
        env: sandboxEnv(s),
        now: () => Date.parse('2026-11-22T22:00:00Z'),
      });
      expect(table.code).toBe(5);
      expect(table.stderr).toMatch(/Discovery is available again after 2026-11-23T00:00:00\.000Z/);
      // --all: two pages served, the third refused once, never retried (only the pacer's 200 ms
      // spacing was waited); plus the one refused request of the table run.
      expect(s.state.throttle.get('acct_sandbox')).toHaveLength(4);
      expect(sleeps.every((ms) => ms < 1000)).toBe(true);
      expect(s.state.ledger.usedMilli).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('fair-use cap: exit 6 on search and on similar, said as such', async () => {
    const s = await startSandbox({ port: 0, seed: 22, fairUseCap: 3 });
    try {
      const ok = await runCli(['search', '--platform', 'tiktok', '--limit', '3', '--json'], { env: sandboxEnv(s) });
      expect(ok.code).toBe(0);
      const res = await runCli(['search', '--platform', 'tiktok', '--limit', '3', '--page', '2', '--json'], {
        env: sandboxEnv(s),
      });
      expect(res.code).toBe(6);
      expect(res.errorJson().error.code).toBe('fair_use_cap_reached');
      expect(res.errorJson().error.message).toMatch(/^Discovery fair-use cap reached/);
      const ref = ok.json<Account[]>()[0]!.profile.username;
      const sim = await runCli(['similar', ref, '--platform', 'tiktok'], { env: sandboxEnv(s) });
      expect(sim.code).toBe(6);
      expect(sim.stderr).toMatch(/^error: Discovery fair-use cap reached/);
    } finally {
      await s.close();
    }
  });
});
