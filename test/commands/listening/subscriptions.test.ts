import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { call, L, useClockedSandbox } from './helpers.js';
import { tempDir } from '../../helpers/temp.js';

const sb = useClockedSandbox({ seed: 5, credits: 50 });
const env = (): Record<string, string> => sandboxEnv(sb.get());

describe('creators listening subscriptions', () => {
  it('create with flags, --set and --body; unknown fields pass through to json', async () => {
    const dir = tempDir('creators-sub-');
    writeFileSync(join(dir, 'body.json'), JSON.stringify({ name: 'from file', notes: { team: 'growth' } }));
    const used = sb.get().state.ledger.usedMilli;
    const res = await runCli(
      [
        'listening',
        'subscriptions',
        'create',
        '--body',
        'body.json',
        '--set',
        'priority=2',
        '--name',
        'Launch',
        '--type',
        'new_post,bio_change',
        '--platform',
        'instagram',
        'sub_a',
        'tiktok:sub_b',
        '--json',
      ],
      { env: env(), cwd: dir },
    );
    expect(res.code).toBe(0);
    const sub = res.json<Record<string, unknown>>();
    expect(sub).toMatchObject({
      name: 'Launch',
      event_types: ['new_post', 'bio_change'],
      creators_count: 2,
      notes: { team: 'growth' },
      priority: 2,
    });
    expect(res.stderr).toContain(
      'Estimated monitoring cost: 2 creators x 0.3 = 0.6 credits per day while monitored (open-ended: --max-credits is checked against one day; a creator already monitored costs nothing more).\n',
    );
    expect(sb.get().state.ledger.usedMilli - used).toBe(600);
  });

  it('lists, gets (table shows known fields, json everything), creators, details, export -o', async () => {
    const created = await call(sb.get(), 'POST', `${L}/subscription/`, {
      name: 'Tabled',
      creators: ['youtube:tab_a'],
      extra_field: 'x',
    });
    const id = String(created.body.id);
    const table = await runCli(['listening', 'subscriptions', 'get', id], { env: env(), tty: true });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Tabled');
    expect(table.stdout).not.toContain('extra_field');
    const json = await runCli(['listening', 'subscriptions', 'get', id, '--json'], { env: env() });
    expect(json.json<Record<string, unknown>>().extra_field).toBe('x');
    const list = await runCli(['listening', 'subs', 'ls', '--json'], { env: env() });
    expect(list.json<unknown[]>().length).toBeGreaterThanOrEqual(1);
    const creators = await runCli(['listening', 'subscriptions', 'creators', id, '--format', 'csv'], { env: env() });
    expect(creators.stdout.split('\n')[0]).toBe('platform,platform_id,added_at,events_count');
    sb.advance(3_600_000);
    const details = await runCli(['listening', 'subscriptions', 'details', id, '--json'], { env: env() });
    expect(details.json<Record<string, unknown>>()).toMatchObject({ subscription_id: Number(id), creators_count: 1 });
    const dir = tempDir('creators-exp-');
    const exp = await runCli(['listening', 'subscriptions', 'export', id, '-o', join(dir, 'stats.csv')], {
      env: env(),
    });
    expect(exp.code).toBe(0);
    expect(exp.stdout).toBe('');
    expect(readFileSync(join(dir, 'stats.csv'), 'utf8')).toMatch(/^platform,platform_id,added_at,events,/);
    expect(readdirSync(dir)).toEqual(['stats.csv']);
  });

  it.each([60, 200])(
    'details on a %i-column terminal: creators whole, dates humanised and never cut, lines fit',
    async (columns) => {
      const handle = 'narrow_watch';
      const created = await call(sb.get(), 'POST', `${L}/subscription/`, {
        name: 'Narrow',
        creators: [`instagram:${handle}`],
      });
      const res = await runCli(['listening', 'subscriptions', 'details', String(created.body.id), '--no-color'], {
        env: env(),
        tty: true,
        columns,
      });
      expect(res.code).toBe(0);
      const lines = res.stdout.split('\n');
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns);
      const header = lines.find((line) => line.includes('Creator')) ?? '';
      expect(header).toMatch(/│ Platform +│ Creator +│ Events │ Delivered │ Failed │/);
      expect(res.stdout).toContain(`│ ${handle} │`);
      if (columns === 60) {
        expect(res.stderr.split('\n').join(' ')).toMatch(/note: columns .*New posts.* left out to fit 60 columns/);
      } else {
        // The date the creator was added, as every terminal date: local time with the zone, whole.
        expect(header).toMatch(/│ Last event +│ Added +│ New posts │/);
        expect(res.stdout).toMatch(/│ \d{4}-\d{2}-\d{2} \d{2}:\d{2} [A-Z+\-0-9]+ +│/);
      }
      expect(res.stdout).not.toContain('…');
    },
  );

  it('add-creators honours --max-credits (exit 5, nothing sent) and --dry-run', async () => {
    const created = await call(sb.get(), 'POST', `${L}/subscription/`, { name: 'Budget' });
    const id = String(created.body.id);
    const refused = await runCli(
      [
        'listening',
        'subscriptions',
        'add-creators',
        id,
        '--platform',
        'instagram',
        'b1',
        'b2',
        'b3',
        '--max-credits',
        '0.5',
      ],
      { env: env() },
    );
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('exceeds --max-credits');
    expect((await call(sb.get(), 'GET', `${L}/subscription/${id}/`)).body.creators_count).toBe(0);
    const dry = await runCli(
      ['listening', 'subscriptions', 'add-creators', id, 'instagram:b1', '--dry-run', '--json'],
      { env: env() },
    );
    expect(dry.json<Record<string, unknown>>()).toMatchObject({
      dry_run: true,
      method: 'POST',
      worst_case_credits: 0.3,
      body: { creators: [{ platform: 'instagram', platform_id: 'b1' }] },
    });
    const ok = await runCli(['listening', 'subscriptions', 'add-creators', id, 'instagram:b1', '--json'], {
      env: env(),
    });
    expect(ok.json<Record<string, unknown>>()).toMatchObject({ added: 1, creators_count: 1 });
  });

  it('usage errors before anything is sent: no platform, bad --set, bad --body, bad id, nothing to update', async () => {
    const cases: [string[], RegExp][] = [
      [['listening', 'subscriptions', 'add-creators', '1', 'nohandleplatform'], /No platform for creator/],
      [['listening', 'subscriptions', 'create', '--name', 'x', '--set', 'novalue'], /Malformed --set/],
      [['listening', 'subscriptions', 'create', '--body', '/nonexistent/x.json'], /Cannot read --body file/],
      [['listening', 'subscriptions', 'get', '../1'], /Invalid subscription id/],
      [['listening', 'subscriptions', 'update', '1'], /Nothing to change/],
      [['listening', 'subscriptions', 'create', '--type', 'new_post'], /needs a name/],
      [['listening', 'subscriptions', 'create', '--name', 'x', '--webhook-url', 'ftp://x'], /Invalid --webhook-url/],
    ];
    for (const [argv, message] of cases) {
      const res = await runCli(argv, { env: { CREATORS_BASE_URL: 'http://127.0.0.1:9', CREATORS_API_KEY: 'k' } });
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
    }
  });

  it('delete confirms: exit 2 without a terminal, deletes with --yes', async () => {
    const created = await call(sb.get(), 'POST', `${L}/subscription/`, { name: 'Doomed' });
    const id = String(created.body.id);
    const asked = await runCli(['listening', 'subscriptions', 'delete', id], { env: env() });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('Confirmation needed');
    expect((await call(sb.get(), 'GET', `${L}/subscription/${id}/`)).status).toBe(200);
    const yes = await runCli(['listening', 'subscriptions', 'rm', id, '--yes'], { env: env() });
    expect(yes.code).toBe(0);
    expect(yes.stderr).toContain(`Deleted subscription ${id}.`);
    expect((await call(sb.get(), 'GET', `${L}/subscription/${id}/`)).status).toBe(404);
    const missing = await runCli(['listening', 'subscriptions', 'get', id], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Subscription not found.');
  });

  it('update --pause / --resume; resuming without credits is refused by the server', async () => {
    const created = await call(sb.get(), 'POST', `${L}/subscription/`, {
      name: 'Toggle',
      creators: ['instagram:tog_a'],
    });
    const id = String(created.body.id);
    const paused = await runCli(['listening', 'subscriptions', 'update', id, '--pause', '--json'], { env: env() });
    expect(paused.json<Record<string, unknown>>().status).toBe('paused');
    sb.advance(86_400_000);
    await call(sb.get(), 'POST', '/_sandbox/config', { credits: 0 });
    const refused = await runCli(['listening', 'subscriptions', 'update', id, '--resume'], { env: env() });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Insufficient credits');
    await call(sb.get(), 'POST', '/_sandbox/config', { credits: 50 });
    const resumed = await runCli(['listening', 'subscriptions', 'update', id, '--resume', '--json'], { env: env() });
    expect(resumed.code).toBe(0);
    expect(resumed.json<Record<string, unknown>>().status).toBe('active');
  });
});
