import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { csvObjects, parseCsv, tempFile } from './helpers.js';

const sb = useSandbox({ seed: 31, credits: 1000 });

function recordingApi() {
  const api = mockApi({ recorder: true });
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  api.pool
    .intercept({ path: (p) => p.startsWith('/public/v1/creators/enrich/email/'), method: 'POST' })
    .reply(
      200,
      (opts) => {
        calls.push({ path: opts.path, body: JSON.parse(String(opts.body)) });
        return { result: { email: 'x', instagram: { username: 'x' } }, credits_cost: 0.05 };
      },
      JSON_HEADERS,
    )
    .persist();
  return { ...api, calls };
}

describe('enrich email', () => {
  it('basic sends only the lowercased email', async () => {
    const api = recordingApi();
    const res = await runCli(['enrich', 'email', ' Ann@Example.COM ', '--json'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(0);
    expect(api.calls).toEqual([{ path: '/public/v1/creators/enrich/email/', body: { email: 'ann@example.com' } }]);
  });

  it('advanced sends min_followers and exclude_platforms as an array', async () => {
    const api = recordingApi();
    const res = await runCli(
      [
        'enrich',
        'email',
        'a@b.co',
        '--mode',
        'advanced',
        '--min-followers',
        '5000',
        '--exclude-platforms',
        'TikTok, youtube',
      ],
      { env: api.env, dispatcher: api.agent },
    );
    expect(res.code).toBe(0);
    expect(api.calls).toEqual([
      {
        path: '/public/v1/creators/enrich/email/advanced/',
        body: { email: 'a@b.co', min_followers: 5000, exclude_platforms: ['tiktok', 'youtube'] },
      },
    ]);
  });

  it.each([
    [['not-an-email'], /Invalid email address 'not-an-email'/],
    [['a@b.co', '--min-followers', '10'], /apply to --mode advanced/],
    [['a@b.co', '--mode', 'advanced', '--min-followers', 'many'], /--min-followers/],
    [
      ['a@b.co', '--mode', 'advanced', '--exclude-platforms', 'myspace'],
      /Unknown platform in --exclude-platforms 'myspace'/,
    ],
    [[], /No email given/],
  ])('refuses %j with exit 2, sending nothing', async (argv, message) => {
    const api = recordingApi();
    const res = await runCli(['enrich', 'email', ...argv], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(api.calls).toHaveLength(0);
  });

  it("a dry run quotes basic at what the sandbox charges (0.05, the contract's price), and a budget of 0.05 pays for one", async () => {
    const creator = sb
      .get()
      .state.creators.list('tiktok')
      .find((c) => c.email)!;
    const dry = await runCli(['enrich', 'email', creator.email!, '--dry-run', '--json'], { env: sandboxEnv(sb.get()) });
    expect(dry.json()).toMatchObject({ worst_case_credits: 0.05, cost_basis: '1 email x 0.05' });
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(['enrich', 'email', creator.email!, '--max-credits', '0.05', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code, res.stderr).toBe(0);
    const rec = res.json<Record<string, any>>();
    expect(rec.result.tiktok.username).toBe(creator.profile.username);
    expect(rec.credits_cost).toBe(0.05);
    expect(sb.get().state.ledger.usedMilli - before).toBe(
      dry.json<{ worst_case_credits: number }>().worst_case_credits * 1000,
    );
    const two = await runCli(['enrich', 'email', creator.email!, 'x@example.com', '--dry-run', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(two.json()).toMatchObject({ worst_case_credits: 0.1, cost_basis: '2 emails x 0.05' });
  });

  it('an invalid address is never sent, so a dry run does not price it: the quote is the charge (arguments and a file)', async () => {
    const creator = sb
      .get()
      .state.creators.list('youtube')
      .find((c) => c.email)!;
    const { dir, path } = tempFile('mixed.csv', `email\n${creator.email}\nbroken\nalso-broken@\n`);
    for (const argv of [
      ['enrich', 'email', creator.email!, 'broken', '--no-store'],
      ['enrich', 'email', '--input', path, '--no-store'],
    ]) {
      const dry = await runCli([...argv, '--dry-run', '--json'], { env: sandboxEnv(sb.get()), cwd: dir });
      expect(dry.code, dry.stderr).toBe(0);
      const plan = dry.json<{ worst_case_credits: number; cost_basis: string }>();
      expect(plan.cost_basis).toMatch(/^1 email x 0\.05 \(\d invalid emails?, not sent\)$/);
      const before = sb.get().state.ledger.usedMilli;
      const res = await runCli([...argv, '--json'], { env: sandboxEnv(sb.get()), cwd: dir });
      expect(res.code).toBe(3);
      expect(sb.get().state.ledger.usedMilli - before).toBe(plan.worst_case_credits * 1000);
    }
  });

  it('a CSV of emails: detected column, bad and unknown rows reported, exit 3', async () => {
    const creators = sb
      .get()
      .state.creators.list('instagram')
      .filter((c) => c.email)
      .slice(0, 2);
    const { dir, path } = tempFile(
      'leads.csv',
      `name,work_email\nA,${creators[0]!.email}\nB,nobody@nowhere.example\nC,broken\nD,${creators[1]!.email!.toUpperCase()}\n`,
    );
    const res = await runCli(['enrich', 'email', '--input', path], { env: sandboxEnv(sb.get()), cwd: dir });
    expect(res.code).toBe(3);
    const [header] = parseCsv(res.stdout);
    expect(header!.slice(0, 5)).toEqual(['name', 'work_email', 'result.email', 'result.full_name', 'result.platforms']);
    expect(header!.slice(-5)).toEqual(['result_json', 'credits_cost', 'status', 'error', 'source']);
    const rows = csvObjects(res.stdout);
    expect(rows.map((r) => r.status)).toEqual(['ok', 'not_found', 'error', 'ok']);
    expect(rows[2]!.error).toMatch(/Invalid email address 'broken'/);
    expect(rows[3]!['result.email']).toBe(creators[1]!.email);
  });
});
