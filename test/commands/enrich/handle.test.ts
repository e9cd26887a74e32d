import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { csvObjects, parseCsv, tempFile } from './helpers.js';

const sb = useSandbox({ seed: 21, credits: 5000 });
const handles = (n: number, from = 0) =>
  sb
    .get()
    .state.creators.list('instagram')
    .slice(from, from + n)
    .map((c) => c.profile.username);

/** A MockAgent that answers every enrichment call found and records the request bodies. */
function recordingApi(status = 200, reply: unknown = { result: { instagram: { username: 'x' } }, credits_cost: 1 }) {
  const api = mockApi({ recorder: true });
  const bodies: Record<string, unknown>[] = [];
  const paths: string[] = [];
  api.pool
    .intercept({ path: (p) => p.startsWith('/public/v1/creators/enrich/'), method: 'POST' })
    .reply(
      status,
      (opts) => {
        bodies.push(JSON.parse(String(opts.body)));
        paths.push(opts.path);
        return reply as object;
      },
      JSON_HEADERS,
    )
    .persist();
  return { ...api, bodies, paths };
}

describe('enrich handle: requests', () => {
  it.each([
    ['raw', [], { handle: 'nasa', platform: 'instagram' }],
    ['profile', [], { handle: 'nasa', platform: 'instagram', email_required: 'preferred' }],
    ['analytics', ['--lookalikes'], { handle: 'nasa', platform: 'instagram', include_lookalikes: true }],
    [
      'full',
      [],
      {
        handle: 'nasa',
        platform: 'instagram',
        email_required: 'preferred',
        include_lookalikes: false,
        include_audience_data: false,
      },
    ],
    [
      'full',
      ['--audience', '--email-required', 'must_have'],
      {
        handle: 'nasa',
        platform: 'instagram',
        email_required: 'must_have',
        include_lookalikes: false,
        include_audience_data: true,
      },
    ],
  ])('%s %j sends exactly the fields of the mode', async (mode, extra, body) => {
    const api = recordingApi();
    const res = await runCli(
      ['enrich', 'handle', ' nasa ', '--platform', 'Instagram', '--mode', mode, ...extra, '--json'],
      { env: api.env, dispatcher: api.agent },
    );
    expect(res.code).toBe(0);
    expect(api.paths).toEqual([`/public/v1/creators/enrich/handle/${mode}/`]);
    expect(api.bodies).toEqual([body]);
  });

  it.each([
    [['--platform', 'snapchat', '--mode', 'analytics'], /analytics mode does not support snapchat/],
    [['--platform', 'linkedin', '--mode', 'analytics'], /analytics mode does not support linkedin/],
    [['--platform', 'myspace'], /Unknown platform/],
    [['--mode', 'raw', '--platform', 'instagram', '--audience'], /--audience applies/],
    [['--mode', 'raw', '--platform', 'instagram', '--lookalikes'], /--lookalikes applies/],
    [['--mode', 'analytics', '--platform', 'instagram', '--email-required', 'must_have'], /--email-required applies/],
    [['--mode', 'deep', '--platform', 'instagram'], /deep/],
    [['--concurrency', '65', '--platform', 'instagram'], /concurrency/],
    [[], /--platform is required/],
  ])('refuses %j with exit 2, sending nothing', async (flags, message) => {
    const api = recordingApi();
    const res = await runCli(['enrich', 'handle', 'nasa', ...flags], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(api.bodies).toHaveLength(0);
  });

  it('full on linkedin (the spec lists it, the official clients do not) is sent with a notice, not refused', async () => {
    const api = recordingApi();
    const res = await runCli(['enrich', 'handle', 'satyanadella', '--platform', 'linkedin', '--json'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(0);
    expect(api.paths).toEqual(['/public/v1/creators/enrich/handle/full/']);
    expect(api.bodies[0]).toMatchObject({ handle: 'satyanadella', platform: 'linkedin' });
    expect(res.stderr).toMatch(
      /The spec lists linkedin for full enrichment .* it may refuse it \(a refusal is an error, which is free\)/,
    );
  });

  it('the sandbox refuses full on linkedin as the official clients say: an error, and free', async () => {
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(['enrich', 'handle', 'someone', '--platform', 'linkedin', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).not.toBe(0);
    expect(res.code).not.toBe(2);
    expect(res.stderr).toMatch(/not available for platform 'linkedin'/);
    expect(sb.get().state.ledger.usedMilli).toBe(before);
  });

  it('without a platform, the hint lists the platforms of the mode asked for', async () => {
    const api = recordingApi();
    const res = await runCli(['enrich', 'handle', 'nasa', '--mode', 'analytics'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /^error: --platform is required\.\nUse one of: instagram, youtube, tiktok, twitch, twitter, onlyfans \(or set a default/,
    );
    expect(api.bodies).toHaveLength(0);
  });

  it('refuses a handle over 200 characters (single value) before sending', async () => {
    const api = recordingApi();
    const res = await runCli(['enrich', 'handle', 'x'.repeat(201), '--platform', 'instagram'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(2);
    expect(api.bodies).toHaveLength(0);
  });

  it('reports the server disagreeing about a platform clearly (exit 1)', async () => {
    const api = recordingApi(400, { error: "analytics enrichment is not available for platform 'twitch'." });
    const res = await runCli(['enrich', 'handle', 'nasa', '--platform', 'twitch', '--mode', 'analytics'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /The service refused twitch for analytics enrichment: .*not available for platform 'twitch'/,
    );
    expect(api.bodies).toHaveLength(1);
  });
});

describe('enrich handle: against the sandbox', () => {
  it('one handle prints one JSON object with the nested result and charges 1', async () => {
    const [h] = handles(1);
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(['enrich', 'handle', h!, '--platform', 'instagram', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    const rec = res.json<Record<string, any>>();
    expect(rec).toMatchObject({ handle: h, status: 'ok', credits_cost: 1, error: null });
    expect(rec.result.instagram.username).toBe(h);
    expect(sb.get().state.ledger.usedMilli - before).toBe(1000);
  });

  it('a handle with no data is not_found, exit 0, free, with a notice', async () => {
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(['enrich', 'handle', 'missing_nobody', '--platform', 'instagram', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ status: 'not_found', result: null, credits_cost: 0 });
    expect(res.stderr).toMatch(/No data found for 'missing_nobody' \(not charged\)/);
    expect(sb.get().state.ledger.usedMilli).toBe(before);
  });

  it('must_have without an email costs nothing and is not_found', async () => {
    const noEmail = sb
      .get()
      .state.creators.list('instagram')
      .find((c) => !c.email)!;
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(
      [
        'enrich',
        'handle',
        noEmail.profile.username,
        '--platform',
        'instagram',
        '--mode',
        'profile',
        '--email-required',
        'must_have',
        '--json',
      ],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ status: 'not_found' });
    expect(sb.get().state.ledger.usedMilli).toBe(before);
  });

  it('several handles print an array in argument order, not_found included', async () => {
    const hs = handles(3, 10);
    const res = await runCli(
      ['enrich', 'handle', hs[0]!, 'missing_a', hs[1]!, hs[2]!, '--platform', 'instagram', '--mode', 'raw', '--json'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    const list = res.json<Record<string, unknown>[]>();
    expect(list.map((r) => r.handle)).toEqual([hs[0], 'missing_a', hs[1], hs[2]]);
    expect(list.map((r) => r.status)).toEqual(['ok', 'not_found', 'ok', 'ok']);
  });

  it('a CSV keeps every input column in order, adds fixed result columns, status and error', async () => {
    const hs = handles(4, 20);
    const csv = `id,"Name, full",username,notes\n1,"A, a",${hs[0]},x\n2,B,missing_b,"multi\nline"\n3,C,,blank\n4,D,${hs[1]},y\n`;
    const { dir, path } = tempFile('in.csv', csv);
    const res = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', path, '-o', `${dir}/out.csv`],
      { env: sandboxEnv(sb.get()), cwd: dir },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    const text = readFileSync(`${dir}/out.csv`, 'utf8');
    const [header] = parseCsv(text);
    expect(header).toEqual([
      'id',
      'Name, full',
      'username',
      'notes',
      'result.instagram.username',
      'result.instagram.userid',
      'result.instagram.full_name',
      'result.instagram.follower_count',
      'result.instagram.engagement_percent',
      'result.email',
      'result_json',
      'credits_cost',
      'status',
      'error',
      'source',
    ]);
    const rows = csvObjects(text);
    expect(rows.map((r) => r.id)).toEqual(['1', '2', '3', '4']);
    expect(rows.map((r) => r.status)).toEqual(['ok', 'not_found', 'skipped', 'ok']);
    expect(rows[1]!.notes).toBe('multi\nline');
    expect(rows[0]!['result.instagram.username']).toBe(hs[0]);
    expect(JSON.parse(rows[0]!.result_json!).instagram.username).toBe(hs[0]);
    expect(rows[0]!.credits_cost).toBe('0.03');
    expect(readdirSync(dir).sort()).toEqual(['in.csv', 'out.csv']);
  });

  it('an input column named like an output column keeps its own value (re-enriching an earlier output)', async () => {
    const hs = handles(1, 25);
    const { dir, path } = tempFile('in.csv', `handle,status,error\n${hs[0]},earlier,old error\n`);
    const res = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', path, '--format', 'csv'],
      { env: sandboxEnv(sb.get()), cwd: dir },
    );
    expect(res.code).toBe(0);
    const [header, row] = parseCsv(res.stdout);
    expect(header!.slice(0, 3)).toEqual(['handle', 'status', 'error']);
    expect(header!.slice(-4)).toEqual(['credits_cost', 'status', 'error', 'source']);
    expect(row!.slice(0, 3)).toEqual([hs[0], 'earlier', 'old error']);
    expect(row!.slice(-3)).toEqual(['ok', '', 'api']);
    // --fields names the run's own column when a name appears twice.
    const picked = await runCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        path,
        '--format',
        'csv',
        '--fields',
        'handle,status',
      ],
      { env: sandboxEnv(sb.get()), cwd: dir },
    );
    expect(parseCsv(picked.stdout)).toEqual([
      ['handle', 'status'],
      [hs[0], 'ok'],
    ]);
  });

  it('detects the handle column by content when no header name matches, and --column names it', async () => {
    const hs = handles(2, 30);
    const { dir, path } = tempFile('in.csv', `who,mail\n${hs[0]},a@example.com\n${hs[1]},b@example.com\n`);
    const res = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', path, '--format', 'jsonl'],
      { env: sandboxEnv(sb.get()), cwd: dir },
    );
    expect(res.code).toBe(0);
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.status)).toEqual(['ok', 'ok']);
    const bad = await runCli(['enrich', 'handle', '--platform', 'instagram', '--input', path, '--column', 'nope'], {
      env: sandboxEnv(sb.get()),
      cwd: dir,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Column 'nope' is not in the input/);
  });

  it('reads a headerless list of @handles from stdin', async () => {
    const hs = handles(2, 40);
    const res = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', '-', '--format', 'csv'],
      { env: sandboxEnv(sb.get()), stdin: `@${hs[0]}\n@${hs[1]}\n` },
    );
    expect(res.code).toBe(0);
    const rows = csvObjects(res.stdout);
    expect(rows.map((r) => [r.handle, r.status])).toEqual([
      [`@${hs[0]}`, 'ok'],
      [`@${hs[1]}`, 'ok'],
    ]);
  });

  it('an unreadable or malformed input is exit 2 before anything is sent', async () => {
    const before = sb.get().state.ledger.usedMilli;
    const missing = await runCli(['enrich', 'handle', '--platform', 'instagram', '--input', '/nonexistent/in.csv'], {
      env: sandboxEnv(sb.get()),
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file/);
    const { path } = tempFile('bad.csv', `handle\n"unclosed\n`);
    const bad = await runCli(['enrich', 'handle', '--platform', 'instagram', '--input', path], {
      env: sandboxEnv(sb.get()),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not valid CSV/);
    const both = await runCli(['enrich', 'handle', 'x', '--platform', 'instagram', '--input', path], {
      env: sandboxEnv(sb.get()),
    });
    expect(both.code).toBe(2);
    expect(sb.get().state.ledger.usedMilli).toBe(before);
  });
});

describe('enrich handle: money gate', () => {
  it('--dry-run prints rows x price from a counting pass and sends nothing', async () => {
    const { path } = tempFile('in.csv', `handle\na\nb\n\nc\n`);
    const api = recordingApi();
    const res = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--mode', 'analytics', '--input', path, '--dry-run', '--json'],
      { env: api.env, dispatcher: api.agent },
    );
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({
      dry_run: true,
      method: 'POST',
      worst_case_credits: 2.4,
      cost_basis: '3 handles x 0.8',
      body: { handle: 'a', platform: 'instagram', include_lookalikes: false },
    });
    expect(api.bodies).toHaveLength(0);
  });

  it('--max-credits refuses (exit 5) when rows x price is over budget', async () => {
    const api = recordingApi();
    const res = await runCli(['enrich', 'handle', 'a', 'b', 'c', '--platform', 'instagram', '--max-credits', '2.5'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/Worst-case cost 3 credits exceeds --max-credits 2.5/);
    expect(api.bodies).toHaveLength(0);
  });

  it('stdin under a budget is spooled and counted; --max-rows bounds it without counting', async () => {
    const api = recordingApi();
    const stdin = 'handle\na\nb\nc\nd\n';
    const counted = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--input', '-', '--dry-run', '--json'],
      { env: api.env, dispatcher: api.agent, stdin },
    );
    expect(counted.json()).toMatchObject({ worst_case_credits: 4, cost_basis: '4 handles x 1' });
    const bounded = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--input', '-', '--max-rows', '2', '--dry-run', '--json'],
      { env: api.env, dispatcher: api.agent, stdin },
    );
    expect(bounded.json()).toMatchObject({ worst_case_credits: 2 });
    const refused = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--input', '-', '--max-credits', '3'],
      { env: api.env, dispatcher: api.agent, stdin },
    );
    expect(refused.code).toBe(5);
    expect(api.bodies).toHaveLength(0);
  });
});
