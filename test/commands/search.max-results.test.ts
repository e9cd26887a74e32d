import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';

type Account = { user_id: string };

const sb = useSandbox({ seed: 23 });
const env = () => sandboxEnv(sb.get());
const usedMilli = () => sb.get().state.ledger.usedMilli;
/** The `paging` objects of the Discovery POSTs in a --debug log. */
const pagings = (stderr: string) =>
  [...stderr.matchAll(/> POST \S+discovery\/\S* .*"paging":(\{[^}]*\})/g)].map(
    (m) => JSON.parse(m[1]!) as { limit: number; page: number },
  );

describe('--max-results: exactly what was asked for', () => {
  it('120 costs exactly 120 creators: 40 x 3, the dry run says the same, nothing thrown away', async () => {
    const dry = await runCli(['search', '--platform', 'instagram', '--max-results', '120', '--dry-run', '--json'], {
      env: env(),
    });
    const plan = dry.json<{ worst_case_credits: number; cost_basis: string; body: { paging: unknown } }>();
    expect(plan).toMatchObject({
      worst_case_credits: 1.2,
      cost_basis: '120 creators x 0.01, in pages of 40',
      body: { paging: { limit: 40, page: 0 } },
    });
    const before = usedMilli();
    const res = await runCli(
      ['search', '--platform', 'instagram', '--max-results', '120', '--format', 'jsonl', '--debug'],
      { env: env() },
    );
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(120);
    expect(pagings(res.stderr)).toEqual([
      { limit: 40, page: 0 },
      { limit: 40, page: 1 },
      { limit: 40, page: 2 },
    ]);
    expect(usedMilli() - before).toBe(1200);
    expect(res.stderr).not.toMatch(/more than --max-results/);
  });

  it('101 buys exactly 101: two pages of 50, then one creator at page 100 of size 1; the dry run says the same', async () => {
    const dry = await runCli(['search', '--platform', 'instagram', '--max-results', '101', '--dry-run', '--json'], {
      env: env(),
    });
    expect(dry.json<{ worst_case_credits: number }>().worst_case_credits).toBe(1.01);
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'instagram', '--max-results', '101', '--json', '--debug'], {
      env: env(),
    });
    expect(res.code).toBe(0);
    const list = res.json<Account[]>();
    expect(list).toHaveLength(101);
    expect(new Set(list.map((a) => a.user_id)).size).toBe(101);
    expect(pagings(res.stderr)).toEqual([
      { limit: 50, page: 0 },
      { limit: 50, page: 1 },
      { limit: 1, page: 100 },
    ]);
    expect(usedMilli() - before).toBe(1010);
    // The same creators as one unbroken listing: the tail is aligned, nothing skipped or repeated.
    const whole = (
      await runCli(['search', '--platform', 'instagram', '--max-results', '150', '--json'], { env: env() })
    ).json<Account[]>();
    expect(list.map((a) => a.user_id)).toEqual(whole.slice(0, 101).map((a) => a.user_id));
  });

  it('an explicit --limit is kept for whole pages; the tail is smaller so no more than asked are bought', async () => {
    const ref = (await runCli(['search', '--platform', 'instagram', '--limit', '1', '--json'], { env: env() })).json<
      { profile: { username: string } }[]
    >()[0]!.profile.username;
    const before = usedMilli();
    const res = await runCli(
      ['similar', ref, '--platform', 'instagram', '--max-results', '20', '--limit', '7', '--json', '--debug'],
      { env: env() },
    );
    expect(res.code).toBe(0);
    expect(res.json<Account[]>()).toHaveLength(20);
    // Offsets 0, 7, 14, then 16: each page size divides its offset (page x limit = offset).
    expect(pagings(res.stderr)).toEqual([
      { limit: 7, page: 0 },
      { limit: 7, page: 1 },
      { limit: 2, page: 7 },
      { limit: 4, page: 4 },
    ]);
    expect(usedMilli() - before).toBe(200);
    expect(res.stderr).not.toMatch(/more than --max-results/);
    const dry = await runCli(
      ['similar', ref, '--platform', 'instagram', '--max-results', '20', '--limit', '7', '--dry-run', '--json'],
      { env: env() },
    );
    expect(dry.json<{ worst_case_credits: number }>().worst_case_credits).toBe(0.2);
  });

  it('--all without --max-results sends 50 a page', async () => {
    const dry = await runCli(['search', '--platform', 'instagram', '--all', '--dry-run', '--json'], { env: env() });
    expect(dry.json<{ body: { paging: unknown } }>().body.paging).toEqual({ limit: 50, page: 0 });
  });
});

describe('--dry-run checks the exclusion lists like the real run', () => {
  it('an unknown list fails the dry run with exit 2, as the real run does; nothing is charged', async () => {
    const before = usedMilli();
    for (const extra of [['--dry-run'], []]) {
      const res = await runCli(
        ['search', '--platform', 'instagram', '--exclude-list', '999', '--limit', '1', ...extra],
        { env: env() },
      );
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^error: Exclusion list 999 does not exist; nothing was sent\./);
    }
    expect(usedMilli()).toBe(before);
  });

  it('a list of another platform fails the dry run too; a good list gives the plan', async () => {
    const created = await runCli(['exclusions', 'create', 'dry', '--platform', 'tiktok', '--json'], { env: env() });
    const id = String(created.json<{ id: number }>().id);
    const foreign = await runCli(['similar', 'nasa', '--platform', 'instagram', '--exclude-list', id, '--dry-run'], {
      env: env(),
    });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/is for tiktok, not instagram; nothing was sent/);
    const ok = await runCli(['search', '--platform', 'tiktok', '--exclude-list', id, '--dry-run', '--json'], {
      env: env(),
    });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('');
    expect(ok.json<{ dry_run: boolean }>().dry_run).toBe(true);
  });

  it('the dry run sends only the free GET', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    pool
      .intercept({ path: '/public/v1/discovery/exclusion-lists/', method: 'GET' })
      .reply(200, [{ id: 3, name: 'x', platform: 'instagram' }], JSON_HEADERS);
    const res = await runCli(['search', '--platform', 'instagram', '--exclude-list', '3', '--dry-run', '--json'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(res.json<{ dry_run: boolean }>().dry_run).toBe(true);
    agent.assertNoPendingInterceptors();
  });

  it('without a credential the dry run says the lists were not verified', async () => {
    const { agent, env: mockEnv } = mockApi();
    const res = await runCli(['search', '--platform', 'instagram', '--exclude-list', '3', '--dry-run', '--json'], {
      env: { CREATORS_BASE_URL: mockEnv.CREATORS_BASE_URL! },
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^warning: Exclusion lists not verified \(3\): no credential/);
    expect(res.json<{ dry_run: boolean }>().dry_run).toBe(true);
  });
});

describe('--order without --sort', () => {
  it.each([
    [
      'sideways',
      /^error: Invalid --order 'sideways': use asc or desc, together with --sort\.\n.*e\.g\. --sort engagement_rate --order desc\n$/,
    ],
    ['ASC', /^error: --order needs --sort\.\n.*e\.g\. --sort engagement_rate --order asc\n$/],
  ])('--order %s: the hint never repeats a bad value', async (order, message) => {
    const { agent, env: mockEnv } = mockApi();
    const res = await runCli(['search', '--platform', 'instagram', '--order', order], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.split('\n').slice(1).join('\n')).not.toMatch(/sideways/);
  });
});

describe('a server that sends more than was asked for', () => {
  it('keeps the paid extra creators and says so', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    const account = (n: number) => ({
      user_id: `u${n}`,
      profile: { username: `c${n}`, followers: 1000, engagement_percent: 1 },
    });
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(
        200,
        { total: 3, limit: 2, credits_left: '9', accounts: [account(1), account(2), account(3)] },
        JSON_HEADERS,
      );
    const res = await runCli(['search', '--platform', 'instagram', '--max-results', '2', '--json'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(res.json<Account[]>()).toHaveLength(3);
    expect(res.stderr).toBe(
      'The server returned 3 creators, 1 more than --max-results 2; they were paid for, so they were kept.\n',
    );
  });
});
