/** Sandbox: creator posts, connected socials and audience overlap follow the spec's rules and agree with the enrichment records. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { postCount } from '../../src/sandbox/enrichment/creator-posts.js';
import { call, start } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ seed: 42, credits: 1000 });
});
afterAll(async () => {
  await sb.close();
});

const post = (path: string, body: unknown) => call(sb, path, { method: 'POST', body: JSON.stringify(body) });
const used = () => sb.state.ledger.usedMilli;
type Obj = Record<string, any>;

describe('POST /creators/content/posts/', () => {
  it('pages by next_token through exactly the creator posts, the first ones being its full record post_data', async () => {
    const full = await post('/public/v1/creators/enrich/handle/full/', { platform: 'instagram', handle: 'noah_paws' });
    const postData = ((full.body as Obj).result.instagram.post_data as Obj[]).map((p) => p.post_id);
    const creator = sb.state.creators.find('instagram', 'noah_paws')!;
    const before = used();
    const ids: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await post('/public/v1/creators/content/posts/', {
        platform: 'instagram',
        handle: 'noah_paws',
        count: 50,
        ...(token ? { pagination_token: token } : {}),
      });
      expect(res.status).toBe(200);
      const body = res.body as Obj;
      expect(body.credits_cost).toBe(0.03);
      // Instagram pages are a fixed 12, whatever count says.
      expect(body.result.posts.length).toBeLessThanOrEqual(12);
      ids.push(...body.result.posts.map((p: Obj) => p.post_id));
      token = body.next_token ?? undefined;
      pages++;
    } while (token);
    expect(ids).toHaveLength(postCount(creator));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, postData.length)).toEqual(postData);
    expect(used() - before).toBe(pages * 30);
  });

  it('TikTok takes count up to 35; more is a 400, as is a platform without posts; an unknown creator is free', async () => {
    const ok = await post('/public/v1/creators/content/posts/', {
      platform: 'tiktok',
      handle: 'themaxtech',
      count: 35,
    });
    expect((ok.body as Obj).result.posts).toHaveLength(35);
    const before = used();
    expect(
      (await post('/public/v1/creators/content/posts/', { platform: 'tiktok', handle: 'themaxtech', count: 36 }))
        .status,
    ).toBe(400);
    expect(
      (await post('/public/v1/creators/content/posts/', { platform: 'twitter', handle: 'themaxtech' })).status,
    ).toBe(400);
    expect(
      (
        await post('/public/v1/creators/content/posts/', {
          platform: 'tiktok',
          handle: 'themaxtech',
          pagination_token: 'garbage',
        })
      ).status,
    ).toBe(400);
    const missing = await post('/public/v1/creators/content/posts/', { platform: 'youtube', handle: 'missing_person' });
    expect(missing.body).toMatchObject({ result: null, credits_cost: 0, status: 'not_found' });
    expect(used()).toBe(before);
  });
});

describe('POST /creators/socials/', () => {
  it("lists the creator's other platforms, as its profile record does, for 0.5", async () => {
    const profile = await post('/public/v1/creators/enrich/handle/profile/', {
      platform: 'instagram',
      handle: 'noah_paws',
    });
    const before = used();
    const res = await post('/public/v1/creators/socials/', { platform: 'instagram', handle: '@Noah_Paws' });
    expect(res.status).toBe(200);
    const body = res.body as Obj;
    expect(body.credits_cost).toBe(0.5);
    expect(body.result.socials.map((s: Obj) => s.platform)).toEqual((profile.body as Obj).result.other_platforms);
    expect(used() - before).toBe(500);
  });

  it('nothing found is free; a platform outside the eleven is a 400', async () => {
    const before = used();
    const res = await post('/public/v1/creators/socials/', { platform: 'tiktok', handle: 'missing_x' });
    expect(res.body).toMatchObject({ result: null, credits_cost: 0, status: 'not_found' });
    expect((await post('/public/v1/creators/socials/', { platform: 'myspace', handle: 'x' })).status).toBe(400);
    // A creator with no other platform has nothing to return, so nothing is charged.
    const lonely = sb.state.creators.list('instagram').find((c) => c.other_platforms.length === 0)!;
    expect(
      (await post('/public/v1/creators/socials/', { platform: 'instagram', handle: lonely.profile.username })).body,
    ).toMatchObject({ status: 'not_found', credits_cost: 0 });
    expect(used()).toBe(before);
  });
});

describe('POST /creators/audience/overlap/', () => {
  it('answers consistent figures for 1 credit: unique % in 0..100, overlapping the rest, total unique <= total followers', async () => {
    const handles = sb.state.creators
      .list('youtube')
      .slice(0, 10)
      .map((c) => c.profile.username);
    const before = used();
    const res = await post('/public/v1/creators/audience/overlap/', { platform: 'youtube', creators: handles });
    expect(res.status).toBe(200);
    const body = res.body as Obj;
    expect(body).toMatchObject({ credits_cost: 1, success: true, status: true });
    expect(typeof body.credits_left).toBe('number');
    expect(body.details).toHaveLength(10);
    let sum = 0;
    for (const d of body.details as Obj[]) {
      expect(d.unique_percentage).toBeGreaterThanOrEqual(0);
      expect(d.unique_percentage).toBeLessThanOrEqual(100);
      expect(d.unique_percentage + d.overlapping_percentage).toBeCloseTo(100, 5);
      expect(d.followers).toBe(sb.state.creators.find('youtube', d.username)!.profile.followers);
      sum += d.followers;
    }
    expect(body.basics.total_followers).toBe(sum);
    expect(body.basics.total_unique_followers).toBeLessThanOrEqual(sum);
    expect(used() - before).toBe(1000);
  });

  it('refuses 1 or 11 creators, repeats and other platforms with 400; an unknown creator is free', async () => {
    const before = used();
    const names = sb.state.creators
      .list('instagram')
      .slice(0, 11)
      .map((c) => c.profile.username);
    for (const body of [
      { platform: 'instagram', creators: names.slice(0, 1) },
      { platform: 'instagram', creators: names },
      { platform: 'instagram', creators: [names[0], `@${names[0]!.toUpperCase()}`] },
      { platform: 'twitch', creators: names.slice(0, 2) },
      { platform: 'instagram', creators: names[0] },
    ]) {
      expect((await post('/public/v1/creators/audience/overlap/', body)).status).toBe(400);
    }
    const missing = await post('/public/v1/creators/audience/overlap/', {
      platform: 'instagram',
      creators: [names[0], 'missing_one'],
    });
    expect(missing.body).toMatchObject({ success: false, credits_cost: 0 });
    expect(used()).toBe(before);
  });
});
