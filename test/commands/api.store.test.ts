/**
 * `creators api` and the purchase memory (issue 38, item 4): a POST to a paid route a verb knows is keyed as
 * that verb keys it (route, query, body), so the same raw call is bought once, a raw call's answer serves the
 * verb and the verb's serves the raw call, each at 0 credits with the store's notice on stderr. A route no
 * verb knows is never stored; `--no-store` raw purchases are in the spend log.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mediaCount } from '../../src/sandbox/enrichment/creator-posts.js';
import { rawRequestPlan } from '../../src/lib/api/raw-plan.js';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { useStoreWorlds } from '../helpers/store-world.js';
import { tempDir } from '../helpers/temp.js';

const worlds = useStoreWorlds(38);

/** The store's notice: a raw call's (`1 of 1 paid request answered from the store`) or a verb's (`In the store`). */
const FROM_STORE =
  /(1 of 1 paid request answered from the store|In the store) \(bought within (14 days|24 hours)\): 0 credits/;

/** The spend log's total of the run's API, read without a credential. */
async function spendOf(w: Awaited<ReturnType<typeof worlds>>): Promise<{ credits: number; requests: number }> {
  const res = await runCli(['spend', '--json'], { env: { CREATORS_BASE_URL: w.sandbox.url }, configDir: w.configDir });
  expect(res.code, res.stderr).toBe(0);
  const rows = res.json<Array<{ credits: number; requests: number }>>();
  return rows.at(-1) ?? { credits: 0, requests: 0 };
}

describe('creators api buys a known paid route once', () => {
  it('the same enrichment call twice: bought once, the second from the store at 0 credits, the same answer', async () => {
    const w = await worlds();
    const handle = w.sandbox.state.creators.list('instagram')[2]!.profile.username;
    const call = ['api', 'creators/enrich/handle/raw', '-f', `handle=${handle}`, '-f', 'platform=instagram', '--json'];
    const first = w.mark();
    const a = await w.run(call);
    expect(a.code, a.stderr).toBe(0);
    expect(first.since()).toMatchObject({ count: 1, milli: 30 });
    expect(a.stderr).not.toMatch(/from the store/);

    const again = w.mark();
    // Spelt as the service reads it (an @, upper case): one creator, one key.
    const b = await w.run([
      'api',
      '/public/v1/creators/enrich/handle/raw/',
      '-f',
      `handle=@${handle.toUpperCase()}`,
      '-f',
      'platform=instagram',
      '--json',
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(again.since()).toMatchObject({ count: 0, milli: 0 });
    expect(b.json()).toEqual(a.json());
    expect(b.stderr).toMatch(FROM_STORE);
    expect(await spendOf(w)).toMatchObject({ credits: 0.03, requests: 1 });
  });

  it("a raw enrichment serves `enrich handle` later, and the verb's answer serves the raw call", async () => {
    const w = await worlds();
    const [one, two] = w.sandbox.state.creators
      .list('instagram')
      .slice(4, 6)
      .map((c) => c.profile.username);
    const raw = (handle: string) => [
      'api',
      'creators/enrich/handle/raw',
      '-f',
      `handle=${handle}`,
      '-f',
      'platform=instagram',
      '--json',
    ];
    const verb = (handle: string) => ['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw', '--json'];

    const bought = w.mark();
    expect((await w.run(raw(one!))).code).toBe(0);
    expect(bought.since().count).toBe(1);
    const served = w.mark();
    const v = await w.run(verb(one!));
    expect(v.code, v.stderr).toBe(0);
    expect(served.since()).toMatchObject({ count: 0, milli: 0 });
    expect(v.stderr).toMatch(FROM_STORE);

    const verbFirst = w.mark();
    expect((await w.run(verb(two!))).code).toBe(0);
    expect(verbFirst.since().count).toBe(1);
    const rawAfter = w.mark();
    const r = await w.run(raw(two!));
    expect(r.code, r.stderr).toBe(0);
    expect(rawAfter.since()).toMatchObject({ count: 0, milli: 0 });
    expect(r.stderr).toMatch(FROM_STORE);
  });

  it("a search page: the verb's own body sent raw is the page the verb bought (and a stored page passes --max-credits 0)", async () => {
    const w = await worlds();
    const search = ['search', '--platform', 'instagram', '--limit', '5', '--json'];
    const dry = await w.run([...search, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = dry.json<{ body: unknown }>();
    const body = join(tempDir('creators-api-store-'), 'body.json');
    writeFileSync(body, JSON.stringify(plan.body));

    const bought = w.mark();
    const v = await w.run(search);
    expect(v.code, v.stderr).toBe(0);
    expect(bought.since()).toMatchObject({ count: 1, milli: 50 });

    const served = w.mark();
    const r = await w.run(['api', 'discovery', '--input', body, '--max-credits', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(served.since()).toMatchObject({ count: 0, milli: 0 });
    expect(r.stderr).toMatch(FROM_STORE);
    const names = (accounts: Array<{ profile?: { username?: string } }>) => accounts.map((a) => a.profile?.username);
    expect(names(r.json<{ accounts: Array<{ profile?: { username?: string } }> }>().accounts)).toEqual(
      names(v.json<Array<{ profile?: { username?: string } }>>()),
    );

    // The same body with the filter values asked for is another purchase, priced and bought as one.
    const other = w.mark();
    const f = await w.run(['api', 'discovery?return_filter_values=true', '--input', body, '--json']);
    expect(f.code, f.stderr).toBe(0);
    expect(other.since().count).toBe(1);
    expect(f.stderr).not.toMatch(/from the store/);
  });

  it('posts pages bought by `api --paginate` serve `posts --all`, page for page', async () => {
    const w = await worlds();
    const handle = w.sandbox.state.creators.list('instagram').find((c) => mediaCount(c) >= 60)!.profile.username;
    const bought = w.mark();
    const a = await w.run([
      'api',
      'creators/content/posts',
      '-f',
      'platform=instagram',
      '-f',
      `handle=${handle}`,
      '--paginate',
      '--max-pages',
      '2',
      '--format',
      'jsonl',
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(bought.since()).toMatchObject({ count: 2, milli: 60 });

    const served = w.mark();
    const v = await w.run([
      'posts',
      handle,
      '--platform',
      'instagram',
      '--all',
      '--max-pages',
      '2',
      '--format',
      'jsonl',
    ]);
    expect(v.code, v.stderr).toBe(0);
    expect(served.since()).toMatchObject({ count: 0, milli: 0 });
    expect(v.stdout.trim().split('\n')).toHaveLength(a.stdout.trim().split('\n').length);

    // And the raw pages again: from the store too.
    const again = w.mark();
    const b = await w.run([
      'api',
      'creators/content/posts',
      '-f',
      'platform=instagram',
      '-f',
      `handle=${handle}`,
      '--paginate',
      '--max-pages',
      '2',
      '--format',
      'jsonl',
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(again.since().count).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });

  it('--no-store: the raw purchase is paid again, logged in the spend log each time, and not kept', async () => {
    const w = await worlds();
    const handle = w.sandbox.state.creators.list('instagram')[7]!.profile.username;
    const call = [
      'api',
      'creators/enrich/handle/raw',
      '-f',
      `handle=${handle}`,
      '-f',
      'platform=instagram',
      '--no-store',
      '--json',
    ];
    const paid = w.mark();
    for (let i = 0; i < 2; i++) expect((await w.run(call)).code).toBe(0);
    expect(paid.since()).toMatchObject({ count: 2, milli: 60 });
    expect(await spendOf(w)).toMatchObject({ credits: 0.06, requests: 2 });
    const stats = await runCli(['store', 'stats', '--json'], {
      env: { CREATORS_BASE_URL: w.sandbox.url },
      configDir: w.configDir,
    });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.json()).toMatchObject({ answers: { creator: { count: 0 }, page: { count: 0 } } });
  });
});

describe('a route no verb knows is never stored', () => {
  it('has no purchase in its plan, and the same call twice is sent twice', async () => {
    expect(
      rawRequestPlan({ method: 'POST', path: 'creators/enrich/new-thing', body: { handle: 'x' } }).purchase,
    ).toBeUndefined();
    expect(
      rawRequestPlan({
        method: 'POST',
        path: 'creators/enrich/handle/raw',
        body: { handle: 'x', platform: 'instagram' },
      }).purchase,
    ).toEqual({ kind: 'creator', platform: 'instagram', subject: 'x' });
    const { agent, pool, env } = mockApi();
    const configDir = tempConfigDir();
    pool
      .intercept({ path: '/public/v1/creators/enrich/new-thing/', method: 'POST' })
      .reply(200, { result: { ok: true }, credits_cost: 0.01 }, JSON_HEADERS)
      .times(2);
    for (let i = 0; i < 2; i++) {
      const res = await runCli(['api', 'creators/enrich/new-thing', '-f', 'handle=x', '--json'], {
        env,
        dispatcher: agent,
        configDir,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).not.toMatch(/from the store/);
    }
    expect(agent.pendingInterceptors()).toHaveLength(0);
  });
});
