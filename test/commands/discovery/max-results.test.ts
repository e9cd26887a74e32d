import { describe, expect, it } from 'vitest';
import { choosePageLimit, maxPages, worstCase } from '../../../src/lib/discovery/paging.js';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';

type Account = { user_id: string };

const sb = useSandbox({ seed: 23 });
const env = () => sandboxEnv(sb.get());
const usedMilli = () => sb.get().state.ledger.usedMilli;
/** The `paging` objects of the Discovery POSTs in a --debug log. */
const pagings = (stderr: string) => [...stderr.matchAll(/> POST \S+discovery\/\S* .*"paging":(\{[^}]*\})/g)].map((m) => JSON.parse(m[1]!) as { limit: number; page: number });

describe('--max-results: pages that add up to what was asked for', () => {
  it.each([
    [7, 7], [50, 50], [51, 17], [100, 50], [101, 34], [104, 26], [120, 40], [149, 50], [500, 50], [9_999, 50], [10_000, 50], [20_000, 50],
  ])('n=%i -> limit %i, with at most one page more than the fewest and the least surplus', (n, limit) => {
    expect(choosePageLimit(n)).toBe(limit);
    const pages = maxPages({ limit, page: 1, all: true, maxResults: n, priceMilli: 10 });
    expect(pages).toBeLessThanOrEqual(Math.ceil(Math.min(n, 10_000) / 50) + 1);
    expect(pages * limit).toBeLessThanOrEqual(10_000);
    expect(pages * limit).toBeGreaterThanOrEqual(Math.min(n, 10_000));
  });

  it('surplus is never more than the fewest-pages choice, for every n up to 600', () => {
    for (let n = 1; n <= 600; n++) {
      const limit = choosePageLimit(n);
      const paid = maxPages({ limit, page: 1, all: true, maxResults: n, priceMilli: 10 }) * limit;
      const fewest = Math.ceil(n / 50);
      expect(paid - n, `n=${n}`).toBeLessThanOrEqual(fewest * Math.ceil(n / fewest) - n);
    }
  });

  it('120 costs exactly 120 creators: 40 x 3, the dry run says the same, nothing thrown away', async () => {
    const dry = await runCli(['search', '--platform', 'instagram', '--max-results', '120', '--dry-run', '--json'], { env: env() });
    const plan = dry.json<{ worst_case_credits: number; cost_basis: string; body: { paging: unknown } }>();
    expect(plan).toMatchObject({ worst_case_credits: 1.2, cost_basis: '40 creators x 3 pages x 0.01', body: { paging: { limit: 40, page: 0 } } });
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'instagram', '--max-results', '120', '--format', 'jsonl', '--debug'], { env: env() });
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(120);
    expect(pagings(res.stderr)).toEqual([{ limit: 40, page: 0 }, { limit: 40, page: 1 }, { limit: 40, page: 2 }]);
    expect(usedMilli() - before).toBe(1200);
    expect(res.stderr).not.toMatch(/more than --max-results/);
  });

  it('101 pays for 102 (34 x 3): the dry run worst case is what the run pays, and the paid extra one is printed', async () => {
    const dry = await runCli(['search', '--platform', 'instagram', '--max-results', '101', '--dry-run', '--json'], { env: env() });
    expect(dry.json<{ worst_case_credits: number }>().worst_case_credits).toBe(1.02);
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'instagram', '--max-results', '101', '--json'], { env: env() });
    expect(res.code).toBe(0);
    const list = res.json<Account[]>();
    expect(list).toHaveLength(102);
    expect(new Set(list.map((a) => a.user_id)).size).toBe(102);
    expect(usedMilli() - before).toBe(1020);
    expect(res.stderr).toBe('Returned 102 creators, 1 more than --max-results 101: pages of 34 are paid in full, so the extra one was kept, not thrown away.\n');
  });

  it('an explicit --limit is kept: every paid creator is printed and the notice says how many more', async () => {
    const ref = (await runCli(['search', '--platform', 'instagram', '--limit', '1', '--json'], { env: env() })).json<{ profile: { username: string } }[]>()[0]!.profile.username;
    const before = usedMilli();
    const res = await runCli(['similar', ref, '--platform', 'instagram', '--max-results', '20', '--limit', '7', '--json', '--debug'], { env: env() });
    expect(res.code).toBe(0);
    expect(res.json<Account[]>()).toHaveLength(21);
    expect(pagings(res.stderr).map((p) => p.limit)).toEqual([7, 7, 7]);
    expect(usedMilli() - before).toBe(210);
    expect(res.stderr).toContain('Returned 21 creators, 1 more than --max-results 20: pages of 7 are paid in full, so the extra one was kept');
    const dry = await runCli(['similar', ref, '--platform', 'instagram', '--max-results', '20', '--limit', '7', '--dry-run', '--json'], { env: env() });
    expect(dry.json<{ worst_case_credits: number }>().worst_case_credits).toBe(0.21);
  });

  it('--all without --max-results stays at 50 a page; the worst case is the 10,000 cap', () => {
    expect(worstCase({ limit: 50, page: 1, all: true, priceMilli: 10 })).toEqual({ milli: 100_000, basis: '50 creators x 200 pages x 0.01' });
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
      const res = await runCli(['search', '--platform', 'instagram', '--exclude-list', '999', '--limit', '1', ...extra], { env: env() });
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^error: Exclusion list 999 does not exist; nothing was sent\./);
    }
    expect(usedMilli()).toBe(before);
  });

  it('a list of another platform fails the dry run too; a good list gives the plan', async () => {
    const created = await runCli(['exclusions', 'create', 'dry', '--platform', 'tiktok', '--json'], { env: env() });
    const id = String(created.json<{ id: number }>().id);
    const foreign = await runCli(['similar', 'nasa', '--platform', 'instagram', '--exclude-list', id, '--dry-run'], { env: env() });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/is for tiktok, not instagram; nothing was sent/);
    const ok = await runCli(['search', '--platform', 'tiktok', '--exclude-list', id, '--dry-run', '--json'], { env: env() });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('');
    expect(ok.json<{ dry_run: boolean }>().dry_run).toBe(true);
  });

  it('the dry run sends only the free GET', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    pool.intercept({ path: '/public/v1/discovery/exclusion-lists/', method: 'GET' }).reply(200, [{ id: 3, name: 'x', platform: 'instagram' }], JSON_HEADERS);
    const res = await runCli(['search', '--platform', 'instagram', '--exclude-list', '3', '--dry-run', '--json'], { env: mockEnv, dispatcher: agent });
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
    ['sideways', /^error: Invalid --order 'sideways': use asc or desc, together with --sort\.\n.*e\.g\. --sort engagement_rate --order desc\n$/],
    ['ASC', /^error: --order needs --sort\.\n.*e\.g\. --sort engagement_rate --order asc\n$/],
  ])('--order %s: the hint never repeats a bad value', async (order, message) => {
    const { agent, env: mockEnv } = mockApi();
    const res = await runCli(['search', '--platform', 'instagram', '--order', order], { env: mockEnv, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.split('\n').slice(1).join('\n')).not.toMatch(/sideways/);
  });
});
