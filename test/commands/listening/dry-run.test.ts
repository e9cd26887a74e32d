import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { call, L, useClockedSandbox } from './helpers.js';
import { tempDir } from '../../helpers/temp.js';

const sb = useClockedSandbox({ seed: 21, credits: 100 });
const env = (): Record<string, string> => sandboxEnv(sb.get());

interface PrintedPlan {
  dry_run: boolean;
  method: string;
  url: string;
  body: unknown;
  worst_case_credits: number | null;
  cost_basis: string | null;
}

/**
 * Every state-changing listening verb passes the money gate: under --dry-run it prints the plan
 * (through lib/output, so -o receives it) and sends nothing that changes state.
 */
describe('listening --dry-run: the plan, and nothing changed', () => {
  it('subscriptions create / update / add-creators / delete', async () => {
    const sub = await call(sb.get(), 'POST', `${L}/subscription/`, {
      name: 'Dry',
      creators: ['instagram:d1', 'instagram:d2'],
    });
    const id = String(sub.body.id);
    const before = (await call(sb.get(), 'GET', `${L}/subscription/`)).body.count as number;
    const cases: [string[], Partial<PrintedPlan>, string][] = [
      [
        ['create', '--name', 'New', '--platform', 'tiktok', 'n1'],
        {
          method: 'POST',
          worst_case_credits: 0.3,
          body: { name: 'New', creators: [{ platform: 'tiktok', platform_id: 'n1' }] },
        },
        '/subscription/',
      ],
      [
        ['update', id, '--name', 'Renamed'],
        { method: 'PATCH', worst_case_credits: 0, body: { name: 'Renamed' } },
        `/subscription/${id}/`,
      ],
      [
        ['update', id, '--resume'],
        {
          method: 'PATCH',
          worst_case_credits: 0.6,
          cost_basis: '2 creators x 0.3 per day, open-ended (one day checked)',
        },
        `/subscription/${id}/`,
      ],
      [
        ['add-creators', id, 'youtube:d3'],
        { method: 'POST', worst_case_credits: 0.3 },
        `/subscription/${id}/creators/`,
      ],
      [['delete', id], { method: 'DELETE', worst_case_credits: 0, body: null }, `/subscription/${id}/`],
    ];
    for (const [argv, plan, path] of cases) {
      const res = await runCli(['listening', 'subscriptions', ...argv, '--dry-run', '--json'], { env: env() });
      expect(res.code, argv.join(' ')).toBe(0);
      const printed = res.json<PrintedPlan>();
      expect(printed, argv.join(' ')).toMatchObject({ dry_run: true, ...plan });
      expect(printed.url).toBe(`${sb.get().url}${L}${path}`);
      // The estimate is the plan's to say under --dry-run: no notice on stderr.
      expect(res.stderr).not.toContain('Estimated monitoring cost');
    }
    const after = await call(sb.get(), 'GET', `${L}/subscription/${id}/`);
    expect(after.body).toMatchObject({ name: 'Dry', creators_count: 2, status: 'active' });
    expect((await call(sb.get(), 'GET', `${L}/subscription/`)).body.count).toBe(before);
  });

  it('campaigns create / update / add-creators / remove-creators / archive', async () => {
    const c = await call(sb.get(), 'POST', `${L}/campaign/`, { name: 'DryC', days: 10, creators: ['instagram:c1'] });
    const id = String(c.body.id);
    const before = (await call(sb.get(), 'GET', `${L}/campaign/`)).body.count as number;
    const cases: [string[], Partial<PrintedPlan>, string][] = [
      [
        ['create', '--name', 'N', '--days', '3', 'instagram:x1', 'instagram:x2'],
        { method: 'POST', worst_case_credits: 1.8 },
        '/campaign/',
      ],
      [['update', id, '--name', 'Renamed'], { method: 'PATCH', worst_case_credits: 0 }, `/campaign/${id}/`],
      [['update', id, '--days', '20'], { method: 'PATCH', worst_case_credits: 6 }, `/campaign/${id}/`],
      [['add-creators', id, 'instagram:c2'], { method: 'POST', worst_case_credits: 3 }, `/campaign/${id}/creators/`],
      [
        ['remove-creators', id, 'instagram:c1'],
        { method: 'DELETE', worst_case_credits: 0, body: { creators: [{ platform: 'instagram', platform_id: 'c1' }] } },
        `/campaign/${id}/creators/`,
      ],
      [['archive', id], { method: 'DELETE', worst_case_credits: 0 }, `/campaign/${id}/`],
    ];
    for (const [argv, plan, path] of cases) {
      const res = await runCli(['listening', 'campaigns', ...argv, '--dry-run', '--json'], {
        env: env(),
        now: () => sb.now(),
      });
      expect(res.code, argv.join(' ')).toBe(0);
      const printed = res.json<PrintedPlan>();
      expect(printed, argv.join(' ')).toMatchObject({ dry_run: true, ...plan });
      expect(printed.url).toBe(`${sb.get().url}${L}${path}`);
    }
    const after = await call(sb.get(), 'GET', `${L}/campaign/${id}/`);
    expect(after.body).toMatchObject({ name: 'DryC', days: 10, creators_count: 1, status: 'active' });
    expect((await call(sb.get(), 'GET', `${L}/campaign/`)).body.count).toBe(before);
  });

  it('the plan goes to -o like data', async () => {
    const dir = tempDir('creators-dry-o-');
    const file = join(dir, 'plan.json');
    const res = await runCli(
      ['listening', 'subscriptions', 'create', '--name', 'ToFile', 'instagram:f1', '--dry-run', '-o', file],
      { env: env() },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      dry_run: true,
      method: 'POST',
      worst_case_credits: 0.3,
    });
  });
});

describe('monitoring of an unknown number of creators', () => {
  const CAMPAIGN = '/public/v1/social/listening/campaign/7/';

  it('is priced null: --dry-run says so, --max-credits refuses (exit 5, nothing sent)', async () => {
    // The campaign read does not say how many creators it follows.
    const { agent, pool, env: mockEnv } = mockApi();
    pool.intercept({ path: CAMPAIGN, method: 'GET' }).reply(200, { id: 7, name: 'x', days: 5 }, JSON_HEADERS).times(2);
    const dry = await runCli(['listening', 'campaigns', 'update', '7', '--resume', '--dry-run', '--json'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(dry.code).toBe(0);
    expect(dry.json<PrintedPlan>()).toMatchObject({ dry_run: true, method: 'PATCH', worst_case_credits: null });
    const capped = await runCli(['listening', 'campaigns', 'update', '7', '--resume', '--max-credits', '5'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(capped.code).toBe(5);
    expect(capped.stderr).toContain('cannot be known in advance');
  });
});
