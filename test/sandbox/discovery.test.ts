import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { configure } from '../../src/sandbox/state.js';
import { call, start } from './helpers.js';

type Page = {
  total: number;
  limit: number;
  credits_left: string;
  accounts: { user_id: string; profile: Record<string, unknown>; [k: string]: unknown }[];
  [k: string]: unknown;
};

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ seed: 7 });
});
afterAll(() => sb.close());

const post = (path: string, body: unknown) => call(sb, path, { method: 'POST', body: JSON.stringify(body) });
const search = (body: Record<string, unknown>, q = '') =>
  post(`/public/v1/discovery/${q}`, { platform: 'instagram', ...body });
const used = () => sb.state.ledger.usedMilli;

describe('sandbox Discovery search', () => {
  it('answers {total, limit, credits_left (string), accounts} and charges 0.01 per creator', async () => {
    const before = used();
    const res = await search({ paging: { limit: 5, page: 0 } });
    expect(res.status).toBe(200);
    const page = res.body as Page;
    expect(page.limit).toBe(5);
    expect(page.accounts).toHaveLength(5);
    expect(typeof page.credits_left).toBe('string');
    expect(page.total).toBe(12_000);
    expect(Object.keys(page.accounts[0]!.profile)).toEqual(
      expect.arrayContaining(['username', 'full_name', 'picture', 'followers', 'engagement_percent']),
    );
    expect(used() - before).toBe(50);
    expect(page).not.toHaveProperty('applied_filters');
  });

  it('pages from base 0: page 1 is the second page, no overlap', async () => {
    const a = (await search({ paging: { limit: 4, page: 0 } })).body as Page;
    const b = (await search({ paging: { limit: 4, page: 1 } })).body as Page;
    const ids = new Set([...a.accounts, ...b.accounts].map((x) => x.user_id));
    expect(ids.size).toBe(8);
  });

  it('honours the page base option: with base 1, page 0 is a 400 and page 1 is the first page', async () => {
    const base0 = (await search({ paging: { limit: 3, page: 0 } })).body as Page;
    configure(sb.state, { pageBase: 1 });
    try {
      const bad = await search({ paging: { limit: 3, page: 0 } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: { paging: { page: ['Ensure this value is greater than or equal to 1.'] } } });
      const first = (await search({ paging: { limit: 3, page: 1 } })).body as Page;
      expect(first.accounts).toEqual(base0.accounts);
    } finally {
      configure(sb.state, { pageBase: 0 });
    }
  });

  it('refuses a limit above 50 and a removed exclude_previous, charging nothing', async () => {
    const before = used();
    expect((await search({ paging: { limit: 51, page: 0 } })).status).toBe(400);
    const removed = await search({ exclude_previous: true });
    expect(removed.status).toBe(400);
    expect(JSON.stringify(removed.body)).toContain('exclude_previous');
    expect((await search({ filters: { exclude_previous: true } })).status).toBe(400);
    expect(used()).toBe(before);
  });

  it('filters by the platform follower key and ignores another platform key', async () => {
    const yt = (
      await post('/public/v1/discovery/', {
        platform: 'youtube',
        filters: { number_of_subscribers: { min: 1_000_000 } },
        paging: { limit: 50 },
      })
    ).body as Page;
    expect(yt.total).toBeGreaterThan(0);
    expect(yt.total).toBeLessThan(12_000);
    for (const a of yt.accounts) expect(a.profile.followers as number).toBeGreaterThanOrEqual(1_000_000);
    const ignored = (
      await post('/public/v1/discovery/', {
        platform: 'youtube',
        filters: { number_of_followers: { min: 1_000_000 } },
        paging: { limit: 1 },
      })
    ).body as Page;
    expect(ignored.total).toBe(12_000);
  });

  it('answers a malformed range with the nested filter error', async () => {
    const res = await search({ filters: { engagement_percent: { min: 'lots' } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { filters: { engagement_percent: ['A valid number is required.'] } } });
  });

  it('sorts and validates sorts per platform', async () => {
    const page = (await search({ sort: { sort_by: 'number_of_followers', sort_order: 'desc' }, paging: { limit: 10 } }))
      .body as Page;
    const followers = page.accounts.map((a) => a.profile.followers as number);
    expect(followers).toEqual([...followers].sort((x, y) => y - x));
    expect((await search({ sort: { sort_by: 'relevancy', sort_order: 'asc' } })).status).toBe(400);
    expect(
      (
        await post('/public/v1/discovery/', {
          platform: 'twitch',
          sort: { sort_by: 'growth_rate', sort_order: 'desc' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await post('/public/v1/discovery/', {
          platform: 'onlyfans',
          sort: { sort_by: 'number_of_followers', sort_order: 'desc' },
        })
      ).status,
    ).toBe(400);
  });

  it('adds matched_filters at 0.03 per creator with return_filter_values=true', async () => {
    const before = used();
    const page = (
      await search({ filters: { engagement_percent: { min: 3 } }, paging: { limit: 2 } }, '?return_filter_values=true')
    ).body as Page;
    expect(used() - before).toBe(60);
    for (const a of page.accounts) {
      expect(a.matched_filters).toEqual({ engagement_percent: a.profile.engagement_percent });
      expect(a.profile.engagement_percent as number).toBeGreaterThanOrEqual(3);
    }
  });

  it('maps nlp_search to filters and echoes applied_filters and nlp_search; explicit filters win', async () => {
    const page = (
      await search({
        nlp_search: 'Fitness creators in Germany with over 10k followers',
        filters: { niche: 'Beauty' },
        paging: { limit: 3 },
      })
    ).body as Page;
    expect(page.nlp_search).toBe('Fitness creators in Germany with over 10k followers');
    expect(page.applied_filters).toEqual({
      niche: 'Beauty',
      location: ['Germany'],
      number_of_followers: { min: 10_000 },
    });
  });

  it('charges nothing for an empty page', async () => {
    const before = used();
    const page = (await search({ filters: { number_of_followers: { min: 1e12 } } })).body as Page;
    expect(page.accounts).toEqual([]);
    expect(page.total).toBe(0);
    expect(used()).toBe(before);
  });

  it('applies exclude_handles with handle normalisation (case, @, profile URL)', async () => {
    const first = (await search({ paging: { limit: 3 } })).body as Page;
    const [a, b, c] = first.accounts.map((x) => x.profile.username as string);
    const page = (
      await search({
        filters: { exclude_handles: [a!.toUpperCase(), `@${b}`, `https://www.instagram.com/${c}/`] },
        paging: { limit: 3 },
      })
    ).body as Page;
    const names = page.accounts.map((x) => x.profile.username);
    expect(names).not.toContain(a);
    expect(names).not.toContain(b);
    expect(names).not.toContain(c);
    expect(page.total).toBe(11_997);
  });
});

describe('sandbox similar creators', () => {
  it('returns creators of the reference niche with similarity_score, best first, never the reference', async () => {
    const ref = ((await search({ paging: { limit: 1 } })).body as Page).accounts[0]!;
    const res = await post('/public/v1/discovery/creators/similar/', {
      platform: 'instagram',
      filter_key: 'url',
      filter_value: `https://www.instagram.com/${String(ref.profile.username)}/`,
      paging: { limit: 10, page: 0 },
    });
    expect(res.status).toBe(200);
    const page = res.body as Page;
    const scores = page.accounts.map((a) => a.similarity_score as number);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(page.accounts.map((a) => a.user_id)).not.toContain(ref.user_id);
    const byId = await post('/public/v1/discovery/creators/similar/', {
      platform: 'instagram',
      filter_key: 'id',
      filter_value: ref.user_id,
      paging: { limit: 10, page: 0 },
    });
    expect((byId.body as Page).accounts).toEqual(page.accounts);
  });

  it('answers 404 for an unknown creator, charging nothing', async () => {
    const before = used();
    const res = await post('/public/v1/discovery/creators/similar/', {
      platform: 'instagram',
      filter_key: 'username',
      filter_value: 'no_such_creator_zz',
    });
    expect(res.status).toBe(404);
    expect(used()).toBe(before);
  });
});

describe('sandbox Discovery limits', () => {
  it('daily limit: 429 daily_limit_exceeded with retry_after to UTC midnight, nothing charged', async () => {
    const now = Date.parse('2026-11-22T23:00:00Z');
    const s = await start({ seed: 7, dailyDiscoveryLimit: 0.1, now: () => now });
    try {
      const body = JSON.stringify({ platform: 'tiktok', paging: { limit: 10, page: 0 } });
      expect((await call(s, '/public/v1/discovery/', { method: 'POST', body })).status).toBe(200);
      const before = s.state.ledger.usedMilli;
      const res = await call(s, '/public/v1/discovery/', { method: 'POST', body });
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ error_code: 'daily_limit_exceeded', retry_after: 3600 });
      expect(s.state.ledger.usedMilli).toBe(before);
    } finally {
      await s.close();
    }
  });

  it('fair-use cap: 429 fair_use_cap_reached on both endpoints once the unique creators are used up', async () => {
    const s = await start({ seed: 7, fairUseCap: 5 });
    try {
      const ok = await call(s, '/public/v1/discovery/', {
        method: 'POST',
        body: JSON.stringify({ platform: 'twitch', paging: { limit: 5 } }),
      });
      expect(ok.status).toBe(200);
      const again = await call(s, '/public/v1/discovery/', {
        method: 'POST',
        body: JSON.stringify({ platform: 'twitch', paging: { limit: 5, page: 1 } }),
      });
      expect(again.status).toBe(429);
      expect(again.body).toMatchObject({ error_code: 'fair_use_cap_reached' });
      const ref = (ok.body as Page).accounts[0]!.profile.username as string;
      const sim = await call(s, '/public/v1/discovery/creators/similar/', {
        method: 'POST',
        body: JSON.stringify({ platform: 'twitch', filter_key: 'username', filter_value: ref }),
      });
      expect(sim.status).toBe(429);
      expect(sim.body).toMatchObject({ error_code: 'fair_use_cap_reached' });
    } finally {
      await s.close();
    }
  });
});
