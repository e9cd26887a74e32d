import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { mockApi } from '../helpers/mock-api.js';
import { tempDir } from '../helpers/temp.js';

type Account = {
  user_id: string;
  profile: { username: string; followers: number; engagement_percent: number };
  [k: string]: unknown;
};

const sb = useSandbox({ seed: 21 });
const env = (extra: Record<string, string> = {}) => sandboxEnv(sb.get(), extra);
const usedMilli = () => sb.get().state.ledger.usedMilli;
// A few dozen creators: enough for many small pages.
const BIG = ['--min-followers', '1000000'];

describe('creators search: output', () => {
  it('prints a table with handle, name, followers, engagement on a terminal, then the spend summary', async () => {
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'instagram', '--limit', '3', '--no-color'], {
      env: env(),
      tty: true,
    });
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[1]).toMatch(/│ handle\s+│ name\s+│ followers │ engagement │/);
    expect(lines.filter((l) => /^│ \w/.test(l))).toHaveLength(4);
    expect(res.stdout).toMatch(/\d(\.\d)?k? │\s+\d+(\.\d+)?% │/);
    const left = (sb.get().state.ledger.balanceMilli / 1000).toFixed(2);
    const [spent, showing, rest] = res.stderr.split('\n');
    expect(spent).toBe(`Spent 0.03 credits on 3 creators (1 page); ${left} credits left.`);
    expect(showing).toMatch(/^Showing 3 of \d{1,3}(,\d{3})* matches \(page 1\); --page 2 or --all$/);
    expect(rest).toBe('');
    expect(usedMilli() - before).toBe(30);
  });

  it('says how many match after a single page on a terminal: the total, and no next page after the last', async () => {
    const json = await runCli(['search', '--platform', 'instagram', ...BIG, '--limit', '50', '--json'], { env: env() });
    const count = json.json<Account[]>().length;
    expect(count).toBeLessThan(50);
    const res = await runCli(['search', '--platform', 'instagram', ...BIG, '--limit', '50', '--no-color'], {
      env: env(),
      tty: true,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`\nShowing ${count} of ${count} matches (page 1)\n`);
    const second = await runCli(
      ['search', '--platform', 'instagram', ...BIG, '--limit', '5', '--page', '2', '--no-color'],
      { env: env(), tty: true },
    );
    expect(second.stderr).toContain(`\nShowing 5 of ${count} matches (page 2); --page 3 or --all\n`);
    const all = await runCli(['search', '--platform', 'instagram', ...BIG, '--all', '--no-color'], {
      env: env(),
      tty: true,
    });
    expect(all.code).toBe(0);
    expect(all.stderr).not.toContain('Showing');
    const quiet = await runCli(['search', '--platform', 'instagram', ...BIG, '--limit', '5', '--quiet', '--no-color'], {
      env: env(),
      tty: true,
    });
    expect(quiet.stderr).toBe('');
  });

  it('--envelope --json prints the page total, credits_left and applied_filters with the creators, charging the page only', async () => {
    const before = usedMilli();
    const res = await runCli(
      [
        'search',
        '--platform',
        'instagram',
        ...BIG,
        '--limit',
        '5',
        '--envelope',
        '--json',
        '--fields',
        'profile.username',
      ],
      { env: env() },
    );
    expect(res.code).toBe(0);
    const out = res.json<{
      total: number;
      credits_left: string | number;
      applied_filters: unknown;
      accounts: { profile: { username: string } }[];
    }>();
    expect(Object.keys(out)).toEqual(['total', 'credits_left', 'applied_filters', 'accounts']);
    expect(out.accounts).toHaveLength(5);
    expect(Object.keys(out.accounts[0]!)).toEqual(['profile']);
    expect(Object.keys(out.accounts[0]!.profile)).toEqual(['username']);
    const all = await runCli(['search', '--platform', 'instagram', ...BIG, '--all', '--json'], { env: env() });
    expect(out.total).toBe(all.json<Account[]>().length);
    expect(out.applied_filters).toBeNull();
    expect(Number(out.credits_left)).toBeCloseTo(
      (sb.get().state.ledger.balanceMilli + (usedMilli() - before - 50)) / 1000,
      2,
    );
    const query = await runCli(
      [
        'search',
        '--platform',
        'tiktok',
        '--query',
        'fitness creators in Spain over 50k followers',
        '--limit',
        '2',
        '--envelope',
      ],
      { env: env() },
    );
    expect(query.code).toBe(0);
    expect(query.json<{ applied_filters: unknown }>().applied_filters).toMatchObject({ location: ['Spain'] });
  });

  it('--envelope is refused before anything is sent with --all or a format other than json', async () => {
    const before = usedMilli();
    const all = await runCli(['search', '--platform', 'instagram', '--all', '--envelope', '--json'], { env: env() });
    expect(all.code).toBe(2);
    expect(all.errorJson().error.message).toContain('--envelope describes one page');
    const csv = await runCli(['search', '--platform', 'instagram', '--envelope', '--format', 'csv'], { env: env() });
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('--envelope prints JSON: add --json');
    expect(usedMilli()).toBe(before);
  });

  it('prints the API records as JSON when piped, keeping every field, with no summary', async () => {
    const res = await runCli(['search', '--platform', 'tiktok', '--limit', '2'], { env: env() });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const accounts = res.json<Account[]>();
    expect(accounts).toHaveLength(2);
    expect(accounts[0]).toHaveProperty('user_id');
    expect(accounts[0]!.profile).toHaveProperty('url');
  });

  it('--quiet drops the summary; --fields picks columns', async () => {
    const res = await runCli(
      [
        'search',
        '--platform',
        'tiktok',
        '--limit',
        '2',
        '--quiet',
        '--format',
        'csv',
        '--fields',
        'profile.username,user_id',
      ],
      { env: env(), stderrTTY: true },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout.split('\n')[0]).toBe('profile.username,user_id');
  });

  it('--page is 1-based: --page 2 is the second page on the wire', async () => {
    const one = (await runCli(['search', '--platform', 'twitter', '--limit', '4', '--json'], { env: env() })).json<
      Account[]
    >();
    const two = (
      await runCli(['search', '--platform', 'twitter', '--limit', '4', '--page', '2', '--json'], { env: env() })
    ).json<Account[]>();
    const both = (await runCli(['search', '--platform', 'twitter', '--limit', '8', '--json'], { env: env() })).json<
      Account[]
    >();
    expect([...one, ...two]).toEqual(both);
  });

  it('--return-filter-values shows matched_filters and costs 0.03 a creator', async () => {
    const before = usedMilli();
    const res = await runCli(
      [
        'search',
        '--platform',
        'instagram',
        '--limit',
        '2',
        '--filter',
        'engagement_percent.min=2',
        '--return-filter-values',
        '--no-color',
      ],
      { env: env(), tty: true },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('matched filters');
    expect(res.stdout).toContain('{"engagement_percent":');
    expect(usedMilli() - before).toBe(60);
    expect(res.stderr).toMatch(/^Spent 0\.06 credits on 2 creators/);
  });

  it('sends --query as top-level nlp_search and shows the applied filters on stderr', async () => {
    const res = await runCli(
      ['search', '--platform', 'instagram', '--limit', '2', '--query', 'Fitness creators in Germany', '--json'],
      { env: env() },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('Applied filters (from --query): {"niche":["Fitness"],"location":["Germany"]}\n');
    const dry = await runCli(['search', '--platform', 'instagram', '--query', 'yoga', '--dry-run', '--json'], {
      env: env(),
    });
    expect(dry.json<{ body: Record<string, unknown> }>().body.nlp_search).toBe('yoga');
  });
});

describe('creators search --all', () => {
  for (const base of [0, 1] as const) {
    describe(`with a server counting pages from ${base}`, () => {
      let s: Sandbox;
      beforeAll(async () => {
        s = await startSandbox({ port: 0, seed: 21, pageBase: base });
      });
      afterAll(() => s.close());
      const e = () => sandboxEnv(s, { CREATORS_PAGE_BASE: String(base) });

      it('yields every creator exactly once, across many pages, and charges what it reports', async () => {
        const everything = (
          await runCli(['search', '--platform', 'instagram', ...BIG, '--limit', '50', '--json'], { env: e() })
        ).json<Account[]>();
        expect(everything.length).toBeGreaterThan(20);
        expect(everything.length).toBeLessThan(50);
        const before = s.state.ledger.usedMilli;
        const res = await runCli(
          ['search', '--platform', 'instagram', ...BIG, '--all', '--limit', '4', '--format', 'jsonl'],
          { env: e(), stderrTTY: true },
        );
        expect(res.code).toBe(0);
        const ids = res.stdout
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as Account).user_id);
        // Every creator once, in order: the first page was neither skipped nor repeated.
        expect(ids).toEqual(everything.map((a) => a.user_id));
        const spent = s.state.ledger.usedMilli - before;
        expect(spent).toBe(ids.length * 10);
        // The progress line (issue 26) is erased in place before the summary: what the terminal shows after.
        const m = /^Spent ([\d.]+) credits on (\d+) creators \((\d+) pages\)/.exec(
          res.stderr.replace(/[^\n]*\r\x1b\[2K/g, ''),
        );
        expect(m).not.toBeNull();
        expect(Math.round(Number(m![1]) * 1000)).toBe(spent);
        expect(Number(m![3])).toBe(Math.ceil(ids.length / 4));
      });

      it('stops at exactly --max-results: the last request is smaller, nothing is paid for and dropped', async () => {
        const res = await runCli(
          ['search', '--platform', 'instagram', ...BIG, '--max-results', '20', '--limit', '7', '--json'],
          { env: e() },
        );
        expect(res.code).toBe(0);
        const list = res.json<Account[]>();
        expect(list).toHaveLength(20);
        expect(new Set(list.map((a) => a.user_id)).size).toBe(20);
        expect(res.stderr).toBe('');
      });
    });
  }

  it('a page base the server disagrees with is caught: page 0 on a 1-based server is a 400', async () => {
    const s = await startSandbox({ port: 0, seed: 21, pageBase: 1 });
    try {
      const res = await runCli(['search', '--platform', 'instagram', '--limit', '2'], { env: sandboxEnv(s) });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('paging.page: Ensure this value is greater than or equal to 1.');
    } finally {
      await s.close();
    }
  });

  it('shrinks the page to --max-results when it is smaller than a page', async () => {
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'youtube', '--max-results', '3', '--json'], { env: env() });
    expect(res.json<Account[]>()).toHaveLength(3);
    expect(usedMilli() - before).toBe(30);
  });
});

describe('creators search: cost before sending', () => {
  it('--dry-run prints the body and the worst case (limit x price), sending nothing', async () => {
    const before = usedMilli();
    const res = await runCli(
      ['search', '--platform', 'youtube', '--limit', '50', '--min-followers', '5000', '--dry-run', '--json'],
      { env: env() },
    );
    expect(res.code).toBe(0);
    const plan = res.json<{
      url: string;
      body: Record<string, unknown>;
      worst_case_credits: number;
      cost_basis: string;
    }>();
    expect(plan.worst_case_credits).toBe(0.5);
    expect(plan.body).toEqual({
      platform: 'youtube',
      filters: { number_of_subscribers: { min: 5000 } },
      include_lookalikes: false,
      paging: { limit: 50, page: 0 },
    });
    expect(usedMilli()).toBe(before);
  });

  it('worst case for --all: the 10,000 cap in whole pages, or exactly --max-results, x0.03 with filter values', async () => {
    const all = await runCli(['search', '--platform', 'instagram', '--all', '--dry-run', '--json'], { env: env() });
    expect(all.json<{ worst_case_credits: number }>().worst_case_credits).toBe(100);
    const max = await runCli(
      [
        'search',
        '--platform',
        'instagram',
        '--max-results',
        '120',
        '--limit',
        '50',
        '--return-filter-values',
        '--dry-run',
        '--json',
      ],
      { env: env() },
    );
    const plan = max.json<{ worst_case_credits: number; cost_basis: string; url: string }>();
    expect(plan.worst_case_credits).toBe(3.6);
    expect(plan.cost_basis).toBe('120 creators x 0.03, in pages of 50 and a smaller last request');
    expect(plan.url).toMatch(/\/public\/v1\/discovery\/\?return_filter_values=true$/);
  });

  it('--max-credits refuses a worst case above the budget: exit 5, nothing sent', async () => {
    const { agent, env: mockEnv } = mockApi();
    const res = await runCli(['search', '--platform', 'instagram', '--all', '--max-credits', '5'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/^error: Worst-case cost 100 credits exceeds --max-credits 5; nothing was sent\./);
  });

  it('maps follower bounds to each platform key; OnlyFans has none', async () => {
    const body = async (platform: string) =>
      (
        await runCli(
          ['search', '--platform', platform, '--min-followers', '10', '--max-followers', '20', '--dry-run', '--json'],
          { env: env() },
        )
      ).json<{ body: { filters: Record<string, unknown> } }>().body.filters;
    expect(await body('instagram')).toEqual({ number_of_followers: { min: 10, max: 20 } });
    expect(await body('youtube')).toEqual({ number_of_subscribers: { min: 10, max: 20 } });
    expect(await body('twitch')).toEqual({ followers: { min: 10, max: 20 } });
    const of = await runCli(['search', '--platform', 'onlyfans', '--min-followers', '10'], { env: env() });
    expect(of.code).toBe(2);
    expect(of.stderr).toMatch(/^error: onlyfans has no follower-count filter\./);
  });

  it('builds filters from --filters (file or stdin), --filter dot paths with typed values and --ai-search', async () => {
    const dir = tempDir('creators-filters-');
    writeFileSync(join(dir, 'f.json'), JSON.stringify({ is_verified: true, location: ['Spain'] }));
    const res = await runCli(
      [
        'search',
        '--platform',
        'youtube',
        '--filters',
        'f.json',
        '--filter',
        'engagement_percent.min=2.5',
        '--filter',
        'topics=Fitness,Yoga',
        '--filter',
        'number_of_followers.min=1000',
        '--ai-search',
        'home workouts',
        '--sort',
        'engagement_rate',
        '--order',
        'asc',
        '--dry-run',
        '--json',
      ],
      { env: env(), cwd: dir },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(
      "warning: 'number_of_followers' is not a youtube filter; sent as 'number_of_subscribers'.\n",
    );
    const { body } = res.json<{ body: Record<string, unknown> }>();
    expect(body.filters).toEqual({
      is_verified: true,
      location: ['Spain'],
      engagement_percent: { min: 2.5 },
      topics: ['Fitness', 'Yoga'],
      number_of_subscribers: { min: 1000 },
      ai_search: 'home workouts',
    });
    expect(body.sort).toEqual({ sort_by: 'engagement_rate', sort_order: 'asc' });
    const stdin = await runCli(['search', '--platform', 'tiktok', '--filters', '-', '--dry-run', '--json'], {
      env: env(),
      stdin: '{"has_tik_tok_shop": true}',
    });
    expect(stdin.json<{ body: Record<string, unknown> }>().body.filters).toEqual({ has_tik_tok_shop: true });
  });

  it('sends filters: null when there are none, and never exclude_previous', async () => {
    const res = await runCli(['search', '--platform', 'twitter', '--dry-run', '--json'], { env: env() });
    const { body } = res.json<{ body: Record<string, unknown> }>();
    expect(body.filters).toBeNull();
    expect(JSON.stringify(body)).not.toContain('exclude_previous');
    expect(JSON.stringify(body)).not.toContain('exclude_all"');
  });
});
