import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { call, L, useClockedSandbox } from './helpers.js';

const sb = useClockedSandbox({ seed: 9, credits: 500 });
const env = (): Record<string, string> => sandboxEnv(sb.get());

describe('creators listening campaigns', () => {
  it('create --days shows creators x days x 0.3 first and honours --max-credits (exit 5, nothing sent)', async () => {
    const argv = [
      'listening',
      'campaigns',
      'create',
      '--name',
      'Spring',
      '--days',
      '30',
      '--platform',
      'instagram',
      'c_a',
      'c_b',
      'c_c',
    ];
    const refused = await runCli([...argv, '--max-credits', '20'], { env: env() });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('Estimated monitoring cost: 3 creators x 30 days x 0.3 = 27 credits');
    expect(refused.stderr).toContain('Worst-case cost 27 credits exceeds --max-credits 20');
    expect((await call(sb.get(), 'GET', `${L}/campaign/`)).body.count).toBe(0);
    const ok = await runCli([...argv, '--max-credits', '30', '--json'], { env: env() });
    expect(ok.code).toBe(0);
    expect(ok.json<Record<string, unknown>>()).toMatchObject({
      name: 'Spring',
      days: 30,
      creators_count: 3,
      status: 'active',
    });
  });

  it("update --days estimates from the campaign's creators; --dry-run sends nothing", async () => {
    const c = await call(sb.get(), 'POST', `${L}/campaign/`, {
      name: 'Extend',
      days: 5,
      creators: ['tiktok:e1', 'tiktok:e2'],
    });
    const id = String(c.body.id);
    const dry = await runCli(['listening', 'campaigns', 'update', id, '--days', '60', '--dry-run', '--json'], {
      env: env(),
    });
    expect(dry.code).toBe(0);
    expect(dry.json<Record<string, unknown>>()).toMatchObject({
      dry_run: true,
      method: 'PATCH',
      worst_case_credits: 36,
      body: { days: 60 },
    });
    expect((await call(sb.get(), 'GET', `${L}/campaign/${id}/`)).body.days).toBe(5);
    const done = await runCli(['listening', 'campaigns', 'update', id, '--days', '60', '--json'], { env: env() });
    expect(done.json<Record<string, unknown>>().days).toBe(60);
    expect(done.stderr).toContain('2 creators x 60 days x 0.3 = 36 credits');
    const bad = await runCli(['listening', 'campaigns', 'update', id, '--days', '0'], { env: env() });
    expect(bad.code).toBe(2);
  });

  it('creators add/remove, overview, content, archive (confirmed)', async () => {
    const c = await call(sb.get(), 'POST', `${L}/campaign/`, { name: 'Feed', days: 10, creators: ['youtube:f1'] });
    const id = String(c.body.id);
    const add = await runCli(
      ['listening', 'campaigns', 'add-creators', id, '--platform', 'youtube', 'f2', 'f3', '--json'],
      { env: env() },
    );
    expect(add.json<Record<string, unknown>>()).toMatchObject({ added: 2, creators_count: 3 });
    const noYes = await runCli(['listening', 'campaigns', 'remove-creators', id, 'youtube:f3'], { env: env() });
    expect(noYes.code).toBe(2);
    const rm = await runCli(['listening', 'campaigns', 'remove-creators', id, 'youtube:f3', '--yes', '--json'], {
      env: env(),
    });
    expect(rm.json<Record<string, unknown>>()).toMatchObject({ removed: 1, creators_count: 2 });
    sb.advance(8 * 3_600_000);
    const overview = await runCli(['listening', 'campaigns', 'overview', id, '--json'], { env: env() });
    const o = overview.json<{ totals: { posts: number }; posts: unknown[] }>();
    expect(o.totals.posts).toBeGreaterThan(0);
    const table = await runCli(['listening', 'campaigns', 'overview', id], { env: env(), tty: true });
    expect(table.stdout).toMatch(/\n(\x1b\[1m)?(Top \d+ posts by EMV, of \d+|Posts)(\x1b\[22m)?\n┌/);
    const content = await runCli(['listening', 'campaigns', 'content', id, '--format', 'jsonl'], { env: env() });
    expect(content.stdout.trim().split('\n')).toHaveLength(o.totals.posts);
    const creators = await runCli(['listening', 'campaigns', 'creators', id, '--json'], { env: env() });
    expect(creators.json<unknown[]>()).toHaveLength(2);
    const archive = await runCli(['listening', 'campaigns', 'archive', id, '--yes', '--json'], { env: env() });
    expect(archive.code).toBe(0);
    expect(archive.json<Record<string, unknown>>().status).toBe('archived');
    const list = await runCli(['listening', 'campaigns', 'list', '--json'], { env: env() });
    expect(list.json<{ id: number; status: string }[]>().find((x) => String(x.id) === id)?.status).toBe('archived');
  });

  it('--body - reads the body from stdin; a non-object body is a usage error', async () => {
    const res = await runCli(['listening', 'campaigns', 'create', '--body', '-', '--json'], {
      env: env(),
      stdin: '{"name": "Piped", "brief": {"goal": "awareness"}}',
    });
    expect(res.code).toBe(0);
    expect(res.json<Record<string, unknown>>()).toMatchObject({ name: 'Piped', brief: { goal: 'awareness' } });
    const bad = await runCli(['listening', 'campaigns', 'create', '--body', '-'], { env: env(), stdin: '[1, 2]' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must hold a JSON object');
  });

  it('add-creators prices the days the campaign has left, so --max-credits refuses (exit 5, nothing sent)', async () => {
    // Created at the test clock's "now" (2026-11-22 10:00): 10 days, ends 2026-12-02.
    const c = await call(sb.get(), 'POST', `${L}/campaign/`, { name: 'Left', days: 10, creators: ['instagram:a1'] });
    const id = String(c.body.id);
    const now = (): number => sb.now();
    const argv = ['listening', 'campaigns', 'add-creators', id, 'instagram:b1', 'instagram:b2'];
    const refused = await runCli([...argv, '--max-credits', '1'], { env: env(), now });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(
      `Estimated monitoring cost: 2 creators x 10 days x 0.3 (days left in campaign ${id}, ends 2026-12-02) = 6 credits`,
    );
    expect(refused.stderr).toContain('Worst-case cost 6 credits exceeds --max-credits 1');
    expect((await call(sb.get(), 'GET', `${L}/campaign/${id}/`)).body.creators_count).toBe(1);
    // Four days on, six are left.
    sb.advance(4 * 86_400_000);
    const dry = await runCli([...argv, '--dry-run', '--json'], { env: env(), now });
    expect(dry.json<Record<string, unknown>>()).toMatchObject({
      dry_run: true,
      method: 'POST',
      worst_case_credits: 3.6,
    });
    expect((await call(sb.get(), 'GET', `${L}/campaign/${id}/`)).body.creators_count).toBe(1);
    const ok = await runCli([...argv, '--max-credits', '3.6', '--json'], { env: env(), now });
    expect(ok.code).toBe(0);
    expect(ok.json<Record<string, unknown>>()).toMatchObject({ added: 2, creators_count: 3 });
  });

  it('add-creators to an open-ended campaign is priced per day; resume prices the days left', async () => {
    const now = (): number => sb.now();
    const open = await call(sb.get(), 'POST', `${L}/campaign/`, { name: 'Open' });
    const add = await runCli(
      ['listening', 'campaigns', 'add-creators', String(open.body.id), 'instagram:o1', '--dry-run', '--json'],
      { env: env(), now },
    );
    expect(add.json<Record<string, unknown>>()).toMatchObject({
      worst_case_credits: 0.3,
      cost_basis: '1 creator x 0.3 per day, open-ended (one day checked)',
    });
    const c = await call(sb.get(), 'POST', `${L}/campaign/`, {
      name: 'Resume',
      days: 5,
      creators: ['youtube:r1', 'youtube:r2'],
    });
    const id = String(c.body.id);
    await call(sb.get(), 'PATCH', `${L}/campaign/${id}/`, { status: 'paused' });
    const resume = await runCli(['listening', 'campaigns', 'update', id, '--resume', '--max-credits', '2'], {
      env: env(),
      now,
    });
    expect(resume.code).toBe(5);
    expect(resume.stderr).toContain('2 creators x 5 days x 0.3 (days left in campaign');
    expect((await call(sb.get(), 'GET', `${L}/campaign/${id}/`)).body.status).toBe('paused');
  });

  it('overview on a 60-column terminal keeps the creator of each post whole', async () => {
    const handle = 'a_rather_long_channel_handle_x';
    const c = await call(sb.get(), 'POST', `${L}/campaign/`, {
      name: 'Narrow',
      days: 10,
      creators: [`youtube:${handle}`],
    });
    sb.advance(8 * 3_600_000);
    const res = await runCli(['listening', 'campaigns', 'overview', String(c.body.id), '--no-color'], {
      env: env(),
      tty: true,
      columns: 60,
    });
    expect(res.code).toBe(0);
    const posts = res.stdout.slice(res.stdout.search(/\n(Top \d+ posts by EMV, of \d+|Posts)\n/));
    expect(posts).toContain(`│ ${handle} │`);
    for (const line of posts.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(60);
  });
});
