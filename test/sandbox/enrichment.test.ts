import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, start } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ seed: 11, credits: 100 });
});
afterAll(() => sb.close());

const post = (path: string, body: unknown) =>
  call(sb, `/public/v1/${path}`, { method: 'POST', body: JSON.stringify(body) });
const used = () => sb.state.ledger.usedMilli;
const ig = () => sb.state.creators.list('instagram');

describe('sandbox handle enrichment', () => {
  it.each([
    ['raw', 30],
    ['profile', 200],
    ['analytics', 800],
    ['full', 1000],
  ])('%s answers the fixture envelope and charges its price', async (mode, milli) => {
    const creator = ig()[3]!;
    const before = used();
    const res = await post(`creators/enrich/handle/${mode}/`, {
      handle: `@${creator.profile.username}`,
      platform: 'instagram',
    });
    expect(res.status).toBe(200);
    const body = res.body as { result: Record<string, Record<string, unknown>>; credits_cost: number };
    expect(body.credits_cost).toBe(milli / 1000);
    expect(body.result.instagram!.username).toBe(creator.profile.username);
    expect(used() - before).toBe(milli);
  });

  it('full adds audience data and lookalikes only when asked', async () => {
    const handle = ig()[4]!.profile.username;
    const plain = (
      await post('creators/enrich/handle/full/', { handle, platform: 'instagram', include_lookalikes: false })
    ).body as { result: Record<string, any> };
    expect(plain.result.instagram.audience).toBeUndefined();
    expect(plain.result.lookalikes).toBeUndefined();
    const rich = (
      await post('creators/enrich/handle/full/', {
        handle,
        platform: 'instagram',
        include_lookalikes: true,
        include_audience_data: true,
      })
    ).body as { result: Record<string, any> };
    expect(rich.result.instagram.audience.audience_followers.success).toBe(true);
    expect(Array.isArray(rich.result.instagram.past_sponsors)).toBe(true);
    expect(Array.isArray(rich.result.lookalikes)).toBe(true);
  });

  it("audience slices carry notable_users and audience_lookalikes in the contract's shape, for every creator, the same on every call", async () => {
    // Two of the nine sections the official MCP client reads; they were [] for 30 of 30 creators.
    const keys = [
      'user_id',
      'username',
      'picture',
      'followers',
      'fullname',
      'url',
      'is_verified',
      'engagements',
      'stats',
      'geo',
    ];
    const known = new Set(sb.state.creators.list('instagram').map((c) => c.user_id));
    for (const creator of ig().slice(0, 30)) {
      const body = (
        await post('creators/enrich/handle/full/', {
          handle: creator.profile.username,
          platform: 'instagram',
          include_audience_data: true,
        })
      ).body as { result: Record<string, any> };
      const data = body.result.instagram.audience.audience_followers.data;
      expect(data.notable_users.length, creator.profile.username).toBeGreaterThan(0);
      expect(data.audience_lookalikes.length, creator.profile.username).toBeGreaterThan(0);
      for (const user of [...data.notable_users, ...data.audience_lookalikes]) {
        expect(Object.keys(user)).toEqual(expect.arrayContaining(keys));
        expect(known.has(user.user_id) && user.user_id !== creator.user_id).toBe(true);
        expect(user.stats[0].post_type).toBe('all');
        expect(user.geo.country.code).toMatch(/^[A-Z]{2}$/);
      }
      const followers = data.notable_users.map((u: { followers: number }) => u.followers);
      expect(followers).toEqual([...followers].sort((a, b) => b - a));
      const scores = data.audience_lookalikes.map((u: { score: number }) => u.score);
      expect(scores.every((x: number) => x > 0 && x <= 1)).toBe(true);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(data.notable_users[0].score).toBeUndefined();
    }
    const handle = ig()[7]!.profile.username;
    const twice = await Promise.all(
      [1, 2].map(
        async () =>
          (await post('creators/enrich/handle/analytics/', { handle, platform: 'instagram' })).body as {
            result: Record<string, any>;
          },
      ),
    );
    expect(twice[0]!.result.instagram.audience.audience_likers.data.audience_lookalikes.length).toBeGreaterThan(0);
    expect(twice[0]!.result.instagram.audience).toEqual(twice[1]!.result.instagram.audience);
  });

  it('an unknown handle is not found and free', async () => {
    const before = used();
    const res = await post('creators/enrich/handle/full/', { handle: 'missing_person_123', platform: 'instagram' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: null, credits_cost: 0, status: 'not_found' });
    expect(used()).toBe(before);
  });

  it('email_required=must_have without an email returns nothing and charges nothing', async () => {
    const noEmail = ig().find((c) => !c.email)!;
    const before = used();
    const res = await post('creators/enrich/handle/profile/', {
      handle: noEmail.profile.username,
      platform: 'instagram',
      email_required: 'must_have',
    });
    expect(res.body).toMatchObject({ result: null, status: 'not_found', credits_cost: 0 });
    expect(used()).toBe(before);
    const withEmail = ig().find((c) => c.email)!;
    const ok = await post('creators/enrich/handle/profile/', {
      handle: withEmail.profile.username,
      platform: 'instagram',
      email_required: 'must_have',
    });
    expect((ok.body as { result: { email: string } }).result.email).toBe(withEmail.email);
  });

  it('analytics on a scraper-only platform is a 400 and free', async () => {
    const before = used();
    const res = await post('creators/enrich/handle/analytics/', { handle: 'someone', platform: 'snapchat' });
    expect(res.status).toBe(400);
    expect(String((res.body as { error: string }).error)).toMatch(/snapchat/);
    expect(used()).toBe(before);
  });

  it('full refuses linkedin; raw takes it', async () => {
    expect((await post('creators/enrich/handle/full/', { handle: 'someone', platform: 'linkedin' })).status).toBe(400);
    expect((await post('creators/enrich/handle/raw/', { handle: 'someone', platform: 'linkedin' })).status).toBe(200);
  });

  it('validates the body with field errors', async () => {
    const res = await post('creators/enrich/handle/full/', {
      platform: 'myspace',
      email_required: 'maybe',
      include_lookalikes: 'x',
    });
    expect(res.status).toBe(400);
    expect(Object.keys((res.body as { error: Record<string, unknown> }).error).sort()).toEqual([
      'email_required',
      'handle',
      'include_lookalikes',
      'platform',
    ]);
  });

  it('refuses (402) and records nothing when the balance cannot pay', async () => {
    const small = await start({ seed: 11, credits: 0.5 });
    try {
      const res = await call(small, '/public/v1/creators/enrich/handle/full/', {
        method: 'POST',
        body: JSON.stringify({
          handle: small.state.creators.list('instagram')[0]!.profile.username,
          platform: 'instagram',
        }),
      });
      expect(res.status).toBe(402);
      expect(small.state.ledger.charges).toHaveLength(0);
    } finally {
      await small.close();
    }
  });
});

describe('sandbox email enrichment', () => {
  it('basic finds the creators of an address (0.05) and advanced filters (2)', async () => {
    const creator = ig().find((c) => c.email)!;
    const before = used();
    const basic = await post('creators/enrich/email/', { email: creator.email!.toUpperCase() });
    expect((basic.body as { result: Record<string, any> }).result.instagram.username).toBe(creator.profile.username);
    expect(used() - before).toBe(50);
    const adv = await post('creators/enrich/email/advanced/', {
      email: creator.email,
      exclude_platforms: ['instagram'],
      min_followers: 0,
    });
    const body = adv.body as { result: Record<string, unknown> | null };
    expect(body.result?.instagram).toBeUndefined();
    const huge = await post('creators/enrich/email/advanced/', { email: creator.email, min_followers: 10_000_000_000 });
    expect(huge.body).toMatchObject({ result: null, status: 'not_found', credits_cost: 0 });
  });

  it('an unknown address is free; a malformed one is a 400', async () => {
    const before = used();
    expect((await post('creators/enrich/email/', { email: 'test@example.com' })).body).toMatchObject({
      status: 'not_found',
    });
    expect(used()).toBe(before);
    expect((await post('creators/enrich/email/', { email: 'not-an-email' })).status).toBe(400);
    expect(
      (await post('creators/enrich/email/advanced/', { email: 'a@b.co', exclude_platforms: 'instagram' })).status,
    ).toBe(400);
  });
});

describe('sandbox post details', () => {
  it('answers data, transcript and audio at 0.03 each', async () => {
    for (const kind of ['data', 'transcript', 'audio']) {
      const before = used();
      const res = await post('creators/content/details/', {
        platform: 'tiktok',
        post_id: '7301234567890',
        content_type: kind,
      });
      expect(res.status).toBe(200);
      expect((res.body as { result: { post_id: string } }).result.post_id).toBe('7301234567890');
      expect(used() - before).toBe(30);
    }
  });

  it('pages comments with next_token -> pagination_token until the end', async () => {
    let token: string | undefined;
    let total = 0;
    let pages = 0;
    do {
      const res = await post('creators/content/details/', {
        platform: 'instagram',
        post_id: 'Cabc123',
        content_type: 'comments',
        ...(token ? { pagination_token: token } : {}),
      });
      const body = res.body as { result: { comments: unknown[] } | null; next_token: string | null };
      total += body.result?.comments.length ?? 0;
      token = body.next_token ?? undefined;
      pages++;
    } while (token && pages < 20);
    const expected = (await import('../../src/sandbox/enrichment/posts.js')).commentCount(11, 'instagram', 'Cabc123');
    expect(total).toBe(expected);
  });

  it('refuses YouTube audio, a URL as id and a bad cursor; unknown posts are free', async () => {
    expect(
      (await post('creators/content/details/', { platform: 'youtube', post_id: 'dQw4w9WgXcQ', content_type: 'audio' }))
        .status,
    ).toBe(400);
    expect(
      (await post('creators/content/details/', { platform: 'instagram', post_id: 'https://instagram.com/p/x/' }))
        .status,
    ).toBe(400);
    expect(
      (
        await post('creators/content/details/', {
          platform: 'instagram',
          post_id: 'abc',
          content_type: 'comments',
          pagination_token: 'zzz',
        })
      ).status,
    ).toBe(400);
    const before = used();
    expect(
      (await post('creators/content/details/', { platform: 'instagram', post_id: 'missing123' })).body,
    ).toMatchObject({ status: 'not_found', credits_cost: 0 });
    expect(used()).toBe(before);
  });

  it('accepts the content kind under `type` too', async () => {
    const res = await post('creators/content/details/', {
      platform: 'youtube',
      post_id: 'dQw4w9WgXcQ',
      type: 'transcript',
    });
    expect((res.body as { result: Record<string, unknown> }).result.segments).toBeDefined();
  });
});
