import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const sb = useSandbox();

describe('creators api', () => {
  it('GETs a path with -f as query parameters', async () => {
    const res = await runCli(
      [
        'api',
        'discovery/classifier/brands',
        '-X',
        'GET',
        '-f',
        'search=a',
        '-f',
        'exact=false',
        '-f',
        'limit=2',
        '--json',
      ],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    const list = res.json<unknown[]>();
    expect(list).toHaveLength(2);
  });

  it('POSTs typed, nested -f fields as JSON', async () => {
    const { agent, pool, env } = mockApi();
    let sent: unknown;
    pool.intercept({ path: '/public/v1/discovery/exclusion-lists/', method: 'POST' }).reply(
      201,
      (opts) => {
        sent = JSON.parse(String(opts.body));
        return { id: 1 };
      },
      JSON_HEADERS,
    );
    const res = await runCli(
      [
        'api',
        'discovery/exclusion-lists',
        '-f',
        'name=vips',
        '-f',
        'platform=instagram',
        '-f',
        'meta.count=3',
        '-f',
        'meta.on=true',
        '-f',
        'tags=a,b',
        '--json',
      ],
      {
        env,
        dispatcher: agent,
      },
    );
    expect(res.code).toBe(0);
    expect(sent).toEqual({ name: 'vips', platform: 'instagram', meta: { count: 3, on: true }, tags: ['a', 'b'] });
    expect(res.json()).toEqual({ id: 1 });
  });

  it('refuses a malformed -f (exit 2) without sending', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['api', 'discovery/', '-f', 'no-equals-sign'], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Malformed -f 'no-equals-sign': expected key=value/);
  });

  it('refuses an unreadable --input file (exit 2)', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['api', 'discovery/', '--input', '/nonexistent/body.json'], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe("error: Cannot read --input file '/nonexistent/body.json': no such file.\n");
  });

  it('refuses malformed JSON in --input (exit 2)', async () => {
    const { agent, env } = mockApi();
    const dir = tempDir('creators-api-');
    writeFileSync(join(dir, 'body.json'), '{"platform": ');
    const res = await runCli(['api', 'discovery/', '--input', join(dir, 'body.json')], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/is not valid JSON/);
  });

  it('reads --input from stdin', async () => {
    const { agent, pool, env } = mockApi();
    let sent: unknown;
    pool.intercept({ path: '/public/v1/discovery/exclusion-lists/', method: 'POST' }).reply(
      201,
      (o) => {
        sent = JSON.parse(String(o.body));
        return { id: 2 };
      },
      JSON_HEADERS,
    );
    const res = await runCli(['api', 'discovery/exclusion-lists', '--input', '-', '--json'], {
      env,
      dispatcher: agent,
      stdin: '{"name":"x","platform":"tiktok"}',
    });
    expect(res.code).toBe(0);
    expect(sent).toEqual({ name: 'x', platform: 'tiktok' });
  });

  it('--dry-run prints the request and worst-case cost and sends nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(
      ['api', 'creators/enrich/handle/full', '-f', 'handle=nasa', '-f', 'platform=instagram', '--dry-run', '--json'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    const plan = res.json<Record<string, unknown>>();
    expect(plan).toMatchObject({
      dry_run: true,
      method: 'POST',
      url: 'https://api.test/public/v1/creators/enrich/handle/full/',
      worst_case_credits: 1,
    });
  });

  it('--max-credits refuses a request whose worst case is higher (exit 5), sending nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['api', 'discovery', '--input', '-', '--max-credits', '0.2'], {
      env,
      dispatcher: agent,
      stdin: JSON.stringify({ platform: 'instagram', paging: { limit: 50, page: 0 } }),
    });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/^error: Worst-case cost 0\.5 credits exceeds --max-credits 0\.2; nothing was sent\./);
  });

  it('refuses an unknown method (exit 2)', async () => {
    const res = await runCli(['api', 'accounts/credits', '-X', 'FETCH']);
    expect(res.code).toBe(2);
  });

  it('--paginate follows next links and streams every item as jsonl', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/social/listening/events/', method: 'GET' }).reply(
      200,
      {
        count: 3,
        next: 'https://api.test/public/v1/social/listening/events/?page=2',
        previous: null,
        results: [{ id: 1 }, { id: 2 }],
      },
      JSON_HEADERS,
    );
    pool
      .intercept({ path: '/public/v1/social/listening/events/?page=2', method: 'GET' })
      .reply(200, { count: 3, next: null, previous: 'x', results: [{ id: 3 }] }, JSON_HEADERS);
    const res = await runCli(['api', 'social/listening/events', '--paginate', '--format', 'jsonl'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(
      res.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([1, 2, 3]);
  });

  it('--paginate follows offset pages', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/discovery/exclusion-lists/4/entries/', method: 'GET' })
      .reply(200, { total: 3, offset: 0, limit: 2, handles: ['a', 'b'] }, JSON_HEADERS);
    pool
      .intercept({ path: '/public/v1/discovery/exclusion-lists/4/entries/?offset=2&limit=2', method: 'GET' })
      .reply(200, { total: 3, offset: 2, limit: 2, handles: ['c'] }, JSON_HEADERS);
    const res = await runCli(['api', 'discovery/exclusion-lists/4/entries', '--paginate', '--json'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(res.json()).toEqual([{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
  });
});

describe('creators api and --max-credits on routes whose cost is not known', () => {
  it('refuses an unpriced write under a budget (exit 5), sending nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['api', 'some/new/route', '-f', 'x=1', '--max-credits', '5'], { env, dispatcher: agent });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(
      /^error: The cost of POST \/public\/v1\/some\/new\/route\/ cannot be known in advance, so --max-credits 5 cannot bound it; nothing was sent\./,
    );
  });

  it('prices a campaign from its creators and days, and refuses it over budget', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(
      [
        'api',
        'social/listening/campaign',
        '-f',
        'name=x',
        '-f',
        'days=365',
        '-f',
        'creators=instagram:nasa,instagram:esa',
        '--max-credits',
        '0',
        '--json',
      ],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(5);
    expect(res.errorJson().error.message).toContain('Worst-case cost 219 credits exceeds --max-credits 0');
  });

  it('still sends an unpriced write without a budget, with a warning', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/some/new/route/', method: 'POST' }).reply(200, { ok: true }, JSON_HEADERS);
    const res = await runCli(['api', 'some/new/route', '-f', 'x=1', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('warning: The cost of POST /public/v1/some/new/route/ is not known in advance.');
  });

  it('--dry-run shows the body as it would be sent (emails not masked, secrets redacted)', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(
      ['api', 'creators/enrich/email', '-f', 'email=jane.doe@example.com', '-f', 'token=abc', '--dry-run', '--json'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.json<{ body: Record<string, string> }>().body).toEqual({
      email: 'jane.doe@example.com',
      token: 'REDACTED',
    });
  });
});

describe('creators api: the price reads the query of the path', () => {
  const args = [
    'api',
    'discovery?return_filter_values=true',
    '-X',
    'POST',
    '-f',
    'platform=instagram',
    '-f',
    'paging.limit=10',
  ];

  it('--dry-run prices a POST with return_filter_values=true at 0.03 a creator', async () => {
    const { agent, env } = mockApi();
    const res = await runCli([...args, '--dry-run', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({
      dry_run: true,
      method: 'POST',
      url: 'https://api.test/public/v1/discovery/?return_filter_values=true',
      worst_case_credits: 0.3,
      cost_basis: '10 creators x 1 page x 0.03',
    });
  });

  it('--max-credits refuses it when 0.03 a creator is over budget (exit 5), sending nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli([...args, '--max-credits', '0.2'], { env, dispatcher: agent });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/^error: Worst-case cost 0\.3 credits exceeds --max-credits 0\.2; nothing was sent\./);
  });

  it("against the sandbox, the dry run's worst case is what the request is charged", async () => {
    const env = sandboxEnv(sb.get());
    const dry = await runCli([...args, '--dry-run', '--json'], { env });
    expect(dry.code).toBe(0);
    const before = (await runCli(['credits', '--json'], { env })).json<{ credits_available: number }>()
      .credits_available;
    const sent = await runCli([...args, '--max-credits', '0.3', '--json'], { env });
    expect(sent.code).toBe(0);
    const after = (await runCli(['credits', '--json'], { env })).json<{ credits_available: number }>()
      .credits_available;
    expect(Math.round((before - after) * 1000) / 1000).toBe(
      dry.json<{ worst_case_credits: number }>().worst_case_credits,
    );
  });
});

describe('creators api --dry-run sends nothing', () => {
  it('a GET prints its plan (free) and sends nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(
      ['api', 'discovery/classifier/brands', '-X', 'GET', '-f', 'search=nike', '--dry-run', '--json'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({
      dry_run: true,
      method: 'GET',
      url: 'https://api.test/public/v1/discovery/classifier/brands/?search=nike',
      body: null,
      worst_case_credits: 0,
      cost_basis: null,
    });
  });

  it("--paginate prints the first request's plan and sends nothing", async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['api', 'social/listening/events', '--paginate', '--dry-run', '--json'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({
      dry_run: true,
      method: 'GET',
      url: 'https://api.test/public/v1/social/listening/events/',
      worst_case_credits: 0,
    });
  });

  it('a write prints its plan to -o and sends nothing', async () => {
    const { agent, env } = mockApi();
    const dir = tempDir('creators-api-');
    const res = await runCli(
      [
        'api',
        'discovery/exclusion-lists',
        '-f',
        'name=x',
        '-f',
        'platform=instagram',
        '--dry-run',
        '-o',
        join(dir, 'plan.json'),
      ],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'))).toMatchObject({
      dry_run: true,
      method: 'POST',
      body: { name: 'x', platform: 'instagram' },
      worst_case_credits: 0,
    });
  });
});

describe('confirmation before expensive runs', () => {
  const args = ['api', 'discovery', '--input', '-', '--json'];
  const body = JSON.stringify({ platform: 'instagram', paging: { limit: 50, page: 0 } });

  it('is not asked without a terminal (scripts rely on --max-credits)', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(200, { accounts: [] }, JSON_HEADERS);
    const res = await runCli([...args], { env, dispatcher: agent, stdin: body });
    expect(res.code).toBe(0);
  });

  it('on a terminal, a worst case above confirm-above asks, and "no" sends nothing', async () => {
    const { agent, env } = mockApi();
    const configDir = (await import('../helpers/run-cli.js')).tempConfigDir();
    await runCli(['config', 'set', 'confirm-above', '0.1'], { configDir });
    // stdin is the terminal here: the body comes from -f fields instead.
    const res = await runCli(['api', 'discovery', '-f', 'platform=instagram', '-f', 'paging.limit=50'], {
      env,
      dispatcher: agent,
      tty: true,
      configDir,
      stdin: 'n\n',
      stdinTTY: true,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('This may cost up to 0.5 credits (50 creators x 1 page x 0.01). Continue? [y/N] ');
    expect(res.stderr).toContain('Nothing was sent.');
  });
});
