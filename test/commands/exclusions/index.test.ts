import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { tempDir } from '../../helpers/temp.js';

type List = { id: number; name: string; platform: string; is_default: boolean; handle_count: number };

const sb = useSandbox({ seed: 24 });
const env = () => sandboxEnv(sb.get());

describe('creators exclusions', () => {
  it('create, list (with --platform), get, rename, delete', async () => {
    const a = (
      await runCli(['exclusions', 'create', 'Competitors', '--platform', 'instagram', '--json'], { env: env() })
    ).json<List>();
    expect(a).toMatchObject({ name: 'Competitors', platform: 'instagram', is_default: false, handle_count: 0 });
    await runCli(['exclusions', 'create', 'Seen', '--platform', 'tiktok'], { env: env() });
    const ig = (await runCli(['exclusions', 'list', '--platform', 'instagram', '--json'], { env: env() })).json<
      List[]
    >();
    expect(ig.every((l) => l.platform === 'instagram')).toBe(true);
    expect(ig.map((l) => l.id)).toContain(a.id);
    const all = (await runCli(['exclusions', 'ls', '--json'], { env: env() })).json<List[]>();
    expect(all.some((l) => l.platform === 'tiktok')).toBe(true);
    const table = await runCli(['exclusions', 'get', String(a.id), '--no-color'], { env: env(), tty: true });
    expect(table.stdout).toMatch(/│ name\s+│ Competitors/);
    const renamed = (
      await runCli(['exclusions', 'rename', String(a.id), 'Rivals', '--json'], { env: env() })
    ).json<List>();
    expect(renamed.name).toBe('Rivals');
    const noTty = await runCli(['exclusions', 'delete', String(a.id)], { env: env() });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toMatch(
      /^error: Confirmation needed: Delete exclusion list \d+ and all its handles\?\n.*--yes/,
    );
    const del = await runCli(['exclusions', 'rm', String(a.id), '--yes'], { env: env() });
    expect(del.code).toBe(0);
    expect(del.stderr).toBe(`Deleted exclusion list ${a.id}.\n`);
    const gone = await runCli(['exclusions', 'get', String(a.id)], { env: env() });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error: Request failed \(HTTP 404\): Exclusion list not found\./);
  });

  it('add and remove from arguments, a file and stdin; entries pages and --all', async () => {
    const l = (
      await runCli(['exclusions', 'create', 'Big', '--platform', 'youtube', '--json'], { env: env() })
    ).json<List>();
    const dir = tempDir('creators-excl-');
    writeFileSync(join(dir, 'h.txt'), 'handle\ncarol\n@Dave\n\n# note\ncarol\n');
    const added = await runCli(
      ['exclusions', 'add', String(l.id), 'alice', 'https://www.youtube.com/@Bob', '--file', 'h.txt', '--json'],
      { env: env(), cwd: dir },
    );
    expect(added.code).toBe(0);
    expect(added.stderr).toBe('Added 4 handles (1 request).\n');
    expect(added.json<List>().handle_count).toBe(4);
    await runCli(['exclusions', 'add', String(l.id), '--file', '-'], { env: env(), stdin: 'erin\nfrank\n' });
    const page = await runCli(['exclusions', 'entries', String(l.id), '--limit', '2', '--offset', '1', '--json'], {
      env: env(),
    });
    expect(page.json()).toEqual([{ handle: 'bob' }, { handle: 'carol' }]);
    expect(page.stderr).toBe('Showing 2 of 6 handles; add --all for every page.\n');
    const all = await runCli(['exclusions', 'entries', String(l.id), '--limit', '4', '--all', '--format', 'csv'], {
      env: env(),
    });
    expect(all.stdout).toBe('handle\nalice\nbob\ncarol\ndave\nerin\nfrank\n');
    const removed = await runCli(['exclusions', 'remove', String(l.id), 'ALICE', '@bob', '--json'], { env: env() });
    expect(removed.json<List>().handle_count).toBe(4);
  });

  it('default:<platform> lists are created on first access and take entries', async () => {
    const got = (await runCli(['exclusions', 'get', 'default:Twitch', '--json'], { env: env() })).json<List>();
    expect(got).toMatchObject({ platform: 'twitch', is_default: true });
    await runCli(['exclusions', 'add', 'default:twitch', 'zed'], { env: env() });
    expect((await runCli(['exclusions', 'entries', 'default:twitch', '--json'], { env: env() })).json()).toEqual([
      { handle: 'zed' },
    ]);
  });

  it.each([
    [['exclusions', 'get', 'abc'], /Invalid exclusion list 'abc'/],
    [['exclusions', 'get', 'default:myspace'], /Unknown platform 'myspace'/],
    [['exclusions', 'rename', 'default:instagram', 'x'], /default exclusion list cannot be renamed/],
    [['exclusions', 'delete', 'default:instagram', '--yes'], /default exclusion list cannot be deleted/],
    [['exclusions', 'create', 'x'], /--platform is required/],
    [['exclusions', 'add', '3'], /No handles to add/],
    [['exclusions', 'entries', '3', '--limit', '2001'], /at most 2000 handles per page/],
  ])('refuses %j with exit 2, sending nothing', async (argv, message) => {
    const { agent, env: mockEnv } = mockApi();
    const res = await runCli(argv as string[], { env: mockEnv, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message as RegExp);
  });

  it('sends more than 10,000 handles in chunks of at most 10,000', async () => {
    const { agent, pool, env: mockEnv } = mockApi();
    const sizes: number[] = [];
    const reply = (opts: { body?: unknown }) => {
      sizes.push((JSON.parse(String(opts.body)) as { handles: string[] }).handles.length);
      return {
        statusCode: 200,
        data: { id: 7, name: 'L', platform: 'instagram', handle_count: sizes.reduce((a, b) => a + b, 0) },
        responseOptions: JSON_HEADERS,
      };
    };
    pool.intercept({ path: '/public/v1/discovery/exclusion-lists/7/entries/', method: 'DELETE' }).reply(reply).times(3);
    const handles = Array.from({ length: 20_001 }, (_, i) => `h${i}`).join('\n');
    const res = await runCli(['exclusions', 'remove', '7', '--file', '-', '--json'], {
      env: mockEnv,
      dispatcher: agent,
      stdin: handles,
    });
    expect(res.code).toBe(0);
    expect(sizes).toEqual([10_000, 10_000, 1]);
    expect(res.stderr).toBe('Removed 20,001 handles (3 requests).\n');
    agent.assertNoPendingInterceptors();
  });

  it('--dry-run shows the first request and sends nothing', async () => {
    const { agent, env: mockEnv } = mockApi();
    const res = await runCli(['exclusions', 'add', '5', 'a', 'b', '--dry-run', '--json'], {
      env: mockEnv,
      dispatcher: agent,
    });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ method: 'POST', body: { handles: ['a', 'b'] }, worst_case_credits: 0 });
  });
});

describe('creators exclusions entries --all with slow pages', () => {
  // Each entries reply: [arrival, reply] in wall time, from the sandbox's log line (`GET .../entries/?... 200 401ms`).
  const spans: [number, number][] = [];
  const slow = useSandbox({
    seed: 24,
    latency: 'default=400ms',
    log: (line) => {
      const m = /^GET \S+\/entries\/\S* 200 (\d+)ms$/.exec(line);
      if (m) spans.push([Date.now() - Number(m[1]), Date.now()]);
    },
  });

  it('the offsets left (from the total) go out several at once; the output is the page-by-page one, in order', async () => {
    const env = sandboxEnv(slow.get(), { CREATORS_RATE_LIMIT: '600' });
    const l = (
      await runCli(['exclusions', 'create', 'Many', '--platform', 'instagram', '--json'], { env })
    ).json<List>();
    const handles = Array.from({ length: 20 }, (_, i) => `h${String(i).padStart(2, '0')}`);
    expect((await runCli(['exclusions', 'add', String(l.id), ...handles], { env })).code).toBe(0);
    const argv = ['exclusions', 'entries', String(l.id), '--limit', '3', '--all', '--format', 'csv'];
    // The test clock stands still: no latency is seen, page by page.
    const sequential = await runCli(argv, { env });
    spans.length = 0;
    // The real clock: 400 ms a page at 600/min is a window of about 5.
    const concurrent = await runCli(argv, { env, now: Date.now });
    expect(sequential.code).toBe(0);
    expect(sequential.stdout).toBe(`handle\n${handles.join('\n')}\n`);
    expect(concurrent.stdout).toBe(sequential.stdout);
    let peak = 0;
    for (const [at] of spans) peak = Math.max(peak, spans.filter(([a, b]) => a <= at && at < b).length);
    expect(peak).toBeGreaterThan(1);
  });
});
