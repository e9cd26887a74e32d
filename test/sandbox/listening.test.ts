import { describe, expect, it } from 'vitest';
import { call, L, START, subscribe, useClockedSandbox } from '../commands/listening/helpers.js';

const HOUR = 3_600_000;
const sb = useClockedSandbox({ seed: 7, credits: 100 });

describe('sandbox: social listening', () => {
  it('subscriptions: create, get, list, patch, 404, validation', async () => {
    const s = sb.get();
    const created = await call(s, 'POST', `${L}/subscription/`, {
      name: 'Launch',
      event_types: ['new_post'],
      creators: [{ platform: 'instagram', platform_id: '@Alpha' }, 'tiktok:beta'],
      custom_field: { keep: true },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Launch',
      status: 'active',
      event_types: ['new_post'],
      creators_count: 2,
      custom_field: { keep: true },
    });
    const id = created.body.id;
    expect((await call(s, 'GET', `${L}/subscription/${id}/`)).body.name).toBe('Launch');
    const list = await call(s, 'GET', `${L}/subscription/`);
    expect(list.body).toMatchObject({ count: expect.any(Number), next: null, previous: null });
    const patched = await call(s, 'PATCH', `${L}/subscription/${id}/`, { name: 'Renamed' });
    expect(patched.body.name).toBe('Renamed');
    expect((await call(s, 'GET', `${L}/subscription/999/`)).status).toBe(404);
    const bad = await call(s, 'POST', `${L}/subscription/`, { name: 'x', event_types: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.event_types[0]).toContain('nope');
    const badCreator = await call(s, 'POST', `${L}/subscription/`, {
      name: 'x',
      creators: [{ platform: 'myspace', platform_id: 'a' }],
    });
    expect(badCreator.status).toBe(400);
    const creators = await call(s, 'GET', `${L}/subscription/${id}/creators/`);
    expect(creators.body.results.map((c: any) => `${c.platform}:${c.platform_id}`)).toEqual([
      'instagram:alpha',
      'tiktok:beta',
    ]);
  });

  it('generates events over sandbox time, deterministic, with paging links and filters', async () => {
    const s = sb.get();
    const id = await subscribe(s, 'Gen', ['gen_one', 'gen_two', 'gen_three']);
    sb.advance(3 * HOUR);
    const page = await call(s, 'GET', `${L}/events/?subscription_id=${id}&page_size=5`);
    expect(page.status).toBe(200);
    expect(page.body.count).toBeGreaterThan(10);
    expect(page.body.previous).toBeNull();
    expect(page.body.next).toMatch(new RegExp(`^${s.url}/public/v1/social/listening/events/\\?.*page=2`));
    expect(page.body.next).toContain(`subscription_id=${id}`);
    const e = page.body.results[0];
    expect(Object.keys(e)).toEqual(
      expect.arrayContaining([
        'id',
        'event_type',
        'event_value',
        'creator',
        'date_occurance',
        'created_at',
        'delivery_status',
        'latency_seconds',
        'retries',
      ]),
    );
    expect(['new_post', 'bio_change', 'follower_threshold']).toContain(e.event_type);
    expect(typeof e.retries).toBe('string');
    // newest first by default
    const ids = page.body.results.map((r: any) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const second = await call(s, 'GET', page.body.next.replace(s.url, ''));
    expect(second.body.previous).toContain('page=1');
    const posts = await call(s, 'GET', `${L}/events/?event_type=new_post&page_size=100`);
    expect(posts.body.results.every((r: any) => r.event_type === 'new_post')).toBe(true);
    const one = await call(s, 'GET', `${L}/events/?creator=gen_two&page_size=100`);
    expect(one.body.results.every((r: any) => r.creator.platform_id === 'gen_two')).toBe(true);
    const detail = await call(s, 'GET', `${L}/events/${e.id}/`);
    expect(Array.isArray(detail.body.delivery_history)).toBe(true);
    expect(detail.body.delivery_history.length).toBeGreaterThan(0);
  });

  it('events list errors: 400 bad page size, 404 past the end, 422 unknown type, 401 without a key', async () => {
    const s = sb.get();
    expect((await call(s, 'GET', `${L}/events/?page_size=0`)).status).toBe(400);
    expect((await call(s, 'GET', `${L}/events/?page_size=101`)).status).toBe(400);
    expect((await call(s, 'GET', `${L}/events/?page=abc`)).status).toBe(400);
    const past = await call(s, 'GET', `${L}/events/?page=9999`);
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.' });
    const bad = await call(s, 'GET', `${L}/events/?event_type=unknown_kind`);
    expect(bad.status).toBe(422);
    expect((await fetch(`${s.url}${L}/events/`)).status).toBe(401);
  });

  it('bills 0.3 per distinct creator per day and pauses when the day cannot be paid', async () => {
    const s = sb.get();
    // A fresh world for this test: a second sandbox would be cleaner, but ids and time are independent here.
    await call(s, 'POST', '/_sandbox/config', { credits: 10 });
    const before = s.state.ledger.usedMilli;
    const a = await subscribe(s, 'Bill A', ['bill_x', 'bill_y']);
    await subscribe(s, 'Bill B', ['bill_y', 'bill_z']);
    // bill_x, bill_y, bill_z: three distinct creators, 0.9 credits today (bill_y once).
    expect(s.state.ledger.usedMilli - before).toBe(900);
    const usage = await call(s, 'GET', `${L}/usage/`);
    expect(usage.body.monitored_creators).toBeGreaterThanOrEqual(3);
    // Not enough for tomorrow: monitoring pauses at the day boundary.
    await call(s, 'POST', '/_sandbox/config', { credits: 0.5 });
    sb.advance(24 * HOUR);
    const paused = await call(s, 'GET', `${L}/subscription/${a}/`);
    expect(paused.body).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits' });
    const refused = await call(s, 'PATCH', `${L}/subscription/${a}/`, { status: 'active' });
    expect(refused.status).toBe(402);
    await call(s, 'POST', '/_sandbox/config', { credits: 100 });
    const resumed = await call(s, 'PATCH', `${L}/subscription/${a}/`, { status: 'active' });
    expect(resumed.status).toBe(200);
    expect(resumed.body.status).toBe('active');
  });

  it('campaigns: archive, creators add/remove, overview and content', async () => {
    const s = sb.get();
    const c = await call(s, 'POST', `${L}/campaign/`, {
      name: 'Spring',
      days: 10,
      creators: ['youtube:camp_a', 'youtube:camp_b'],
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ days: 10, creators_count: 2, status: 'active' });
    const id = c.body.id;
    sb.advance(6 * HOUR);
    const removed = await call(s, 'DELETE', `${L}/campaign/${id}/creators/`, {
      creators: ['youtube:camp_b', 'youtube:nobody'],
    });
    expect(removed.body).toEqual({ removed: 1, not_found: 1, creators_count: 1 });
    const overview = await call(s, 'GET', `${L}/campaign/${id}/overview/`);
    expect(overview.body.totals.posts).toBeGreaterThan(0);
    expect(overview.body.trends_7d).toHaveLength(7);
    const content = await call(s, 'GET', `${L}/campaign/${id}/content/`);
    expect(content.body.count).toBe(overview.body.totals.posts);
    const archived = await call(s, 'DELETE', `${L}/campaign/${id}/`);
    expect(archived.body.status).toBe('archived');
    expect((await call(s, 'POST', `${L}/campaign/${id}/creators/`, { creators: ['youtube:x'] })).status).toBe(400);
  });

  it('the control surface moves time and changes the list order', async () => {
    const s = sb.get();
    const before = (await call(s, 'GET', '/_sandbox/listening')).body;
    const after = (await call(s, 'POST', '/_sandbox/listening/advance', { minutes: 30 })).body;
    expect(Date.parse(after.now) - Date.parse(before.now)).toBe(30 * 60_000);
    await call(s, 'POST', '/_sandbox/listening/config', { order: 'asc' });
    const page = await call(s, 'GET', `${L}/events/?page_size=5`);
    expect(page.body.results[0].id).toBe(1);
    await call(s, 'POST', '/_sandbox/listening/config', { order: 'desc' });
    expect(START).toBeGreaterThan(0);
  });
});

describe('sandbox: a seeded backlog', () => {
  it('POST /_sandbox/listening/seed appends events of a subscription; pages of either order read them by id', async () => {
    const sub = await subscribe(sb.get(), 'seeded', ['seed_a', 'seed_b']);
    const before = (await call(sb.get(), 'GET', '/_sandbox/listening')).body.events as number;
    expect((await call(sb.get(), 'POST', '/_sandbox/listening/seed', { events: 0, subscription_id: sub })).status).toBe(
      400,
    );
    expect(
      (await call(sb.get(), 'POST', '/_sandbox/listening/seed', { events: 5, subscription_id: 99_999 })).status,
    ).toBe(400);
    const seeded = await call(sb.get(), 'POST', '/_sandbox/listening/seed', { events: 250, subscription_id: sub });
    expect(seeded.status).toBe(200);
    expect(seeded.body.events).toBe(before + 250);
    const ids = async (order: 'asc' | 'desc', page: number): Promise<number[]> => {
      await call(sb.get(), 'POST', '/_sandbox/listening/config', { order });
      const res = await call(sb.get(), 'GET', `${L}/events/?subscription_id=${sub}&page_size=100&page=${page}`);
      expect(res.body.count).toBe(250);
      return res.body.results.map((e: { id: number }) => e.id);
    };
    expect(await ids('asc', 1)).toEqual(Array.from({ length: 100 }, (_, i) => before + 1 + i));
    expect(await ids('asc', 3)).toEqual(Array.from({ length: 50 }, (_, i) => before + 201 + i));
    expect(await ids('desc', 1)).toEqual(Array.from({ length: 100 }, (_, i) => before + 250 - i));
    expect(await ids('desc', 3)).toEqual(Array.from({ length: 50 }, (_, i) => before + 50 - i));
    await call(sb.get(), 'POST', '/_sandbox/listening/config', { order: 'desc' });
    const one = await call(sb.get(), 'GET', `${L}/events/${before + 1}/`);
    expect(one.body).toMatchObject({
      id: before + 1,
      subscription_id: sub,
      creator: { platform: 'instagram', platform_id: 'seed_a' },
    });
    expect(Date.parse(one.body.date_occurance)).toBeLessThan(Date.parse(one.body.created_at));
  });
});
