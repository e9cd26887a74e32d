import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, list, start } from './helpers.js';
import { BRANDS } from '../../src/sandbox/data/brands.js';

const BASE = '/public/v1/discovery/classifier';

/** Every dictionary path, with the key fields each entry must carry. */
const ROUTES: Array<[string, string[]]> = [
  ['languages/', ['abbr', 'name']],
  ['locations/instagram/', ['id', 'name', 'type', 'country_code', 'country']],
  ['brands/', ['username', 'name', 'cleaned_name']],
  ['yt-topics/', ['id', 'name', 'sub_topics']],
  ['games/', ['id', 'name', 'genre']],
  ['audience-brand-categories/', ['id', 'name']],
  ['audience-brand-names/', ['id', 'name']],
  ['audience-interests/', ['id', 'name']],
  ['audience-locations/', ['id', 'name', 'type']],
  ['niche/', ['id', 'name']],
  ['sub-niche/', ['id', 'name', 'niche']],
];

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ credits: 5 });
});
afterAll(() => sb.close());

const names = (entries: Record<string, unknown>[]): string[] => entries.map((e) => String(e.name));

describe('dictionary routes', () => {
  it.each(ROUTES)('%s answers a non-empty JSON array of entries', async (path, keys) => {
    const entries = await list(sb, `${BASE}/${path}`);
    expect(entries.length).toBeGreaterThan(5);
    for (const entry of entries) for (const key of keys) expect(entry).toHaveProperty(key);
  });

  it('are free', async () => {
    for (const [path] of ROUTES) await list(sb, `${BASE}/${path}`);
    expect(sb.state.ledger.usedMilli).toBe(0);
    expect(sb.state.ledger.balanceMilli).toBe(5000);
  });

  it.each(ROUTES)('%s rejects a limit outside 1..100', async (path) => {
    for (const limit of ['0', '101', '-3']) {
      const res = await call(sb, `${BASE}/${path}?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { limit: ['Ensure this value is between 1 and 100.'] } });
    }
  });

  it('rejects a limit or offset that is not an integer', async () => {
    expect((await call(sb, `${BASE}/brands/?limit=ten`)).body).toEqual({
      error: { limit: ['A valid integer is required.'] },
    });
    expect((await call(sb, `${BASE}/brands/?offset=-1`)).body).toEqual({
      error: { offset: ['Ensure this value is greater than or equal to 0.'] },
    });
  });

  it('pages with offset and limit without gaps or overlaps', async () => {
    const all = await list(sb, `${BASE}/audience-locations/?limit=100`);
    const first = await list(sb, `${BASE}/audience-locations/?limit=30`);
    const second = await list(sb, `${BASE}/audience-locations/?limit=30&offset=30`);
    expect([...first, ...second]).toEqual(all.slice(0, 60));
    expect(await list(sb, `${BASE}/audience-locations/?offset=100000`)).toEqual([]);
  });

  it('defaults paged lists to 50 and returns short lists whole', async () => {
    expect(await list(sb, `${BASE}/brands/`)).toHaveLength(50);
    expect(await list(sb, `${BASE}/locations/youtube/`)).toHaveLength(50);
    expect((await list(sb, `${BASE}/games/`)).length).toBeGreaterThan(100);
    expect((await list(sb, `${BASE}/sub-niche/`)).length).toBeGreaterThan(100);
    expect(await list(sb, `${BASE}/games/?limit=7`)).toHaveLength(7);
  });

  it('searches case-insensitively, prefix matches first', async () => {
    const langs = await list(sb, `${BASE}/languages/?search=EN`);
    expect(langs[0]).toEqual({ abbr: 'en', name: 'English' });
    expect(names(langs)).toContain('Armenian'); // substring match, after the prefix ones
    expect(names(langs).indexOf('English')).toBeLessThan(names(langs).indexOf('Armenian'));
    const cities = await list(sb, `${BASE}/audience-locations/?search=san&limit=100`);
    expect(cities.length).toBeGreaterThan(3);
    for (const c of cities) expect(String(c.name).toLowerCase()).toContain('san');
    expect(await list(sb, `${BASE}/niche/?search=zzzz`)).toEqual([]);
  });

  it('brands: exact=true matches the handle, exact=false part of the cleaned name', async () => {
    const exact = await list(sb, `${BASE}/brands/?search=nike`);
    expect(exact[0]).toMatchObject({ username: 'nike', name: 'Nike', cleaned_name: 'nike' });
    // Exact means the handle only: not every handle that starts with it.
    expect((await list(sb, `${BASE}/brands/?search=@Nike&exact=true`)).map((b) => b.username)).toEqual(['nike']);
    const lumen = BRANDS.filter((b) => b.username.startsWith('lumen'));
    expect(lumen.length).toBeGreaterThan(2);
    expect(await list(sb, `${BASE}/brands/?search=@${lumen[0]!.username}&exact=true`)).toEqual([lumen[0]]);
    expect(await list(sb, `${BASE}/brands/?search=lume&exact=true`)).toEqual([]);
    expect(await list(sb, `${BASE}/brands/?search=coffee&exact=true`)).toEqual([]);
    const partial = await list(sb, `${BASE}/brands/?search=Coffee&exact=false&limit=100`);
    expect(partial.length).toBeGreaterThan(5);
    for (const b of partial) expect(String(b.cleaned_name)).toContain('coffee');
    expect((await list(sb, `${BASE}/brands/?search=a&exact=false&limit=100`)).length).toBe(100);
    expect((await call(sb, `${BASE}/brands/?exact=maybe`)).status).toBe(400);
  });

  it('locations: any Discovery platform, values differ by platform, others 400', async () => {
    const twitch = await list(sb, `${BASE}/locations/twitch/?limit=100`);
    expect(new Set(twitch.map((l) => l.type))).toEqual(new Set(['country']));
    const ig = await list(sb, `${BASE}/locations/instagram/?search=california`);
    expect(ig[0]).toMatchObject({ name: 'California', type: 'state', country_code: 'US' });
    for (const p of ['youtube', 'tiktok', 'twitter', 'onlyfans']) await list(sb, `${BASE}/locations/${p}/`);
    const bad = await call(sb, `${BASE}/locations/myspace/`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "Unsupported platform 'myspace'." });
  });

  it('yt-topics: hierarchical, search reaches sub-topics', async () => {
    const music = await list(sb, `${BASE}/yt-topics/?search=jazz`);
    expect(music).toHaveLength(1);
    expect(music[0]).toMatchObject({ name: 'Music', sub_topics: [{ name: 'Jazz' }] });
    const gaming = await list(sb, `${BASE}/yt-topics/?search=gaming`);
    expect((gaming[0]?.sub_topics as unknown[]).length).toBeGreaterThan(5);
  });

  it('sub-niche entries name their parent niche, which the niche list knows', async () => {
    const niches = new Set(names(await list(sb, `${BASE}/niche/`)));
    const subs = await list(sb, `${BASE}/sub-niche/`);
    for (const s of subs) expect(niches.has(String(s.niche))).toBe(true);
    const fitness = await list(sb, `${BASE}/sub-niche/?search=fitness`);
    expect(names(fitness)).toContain('Yoga');
  });

  it('need the API key', async () => {
    expect((await call(sb, `${BASE}/languages/`, { auth: null })).status).toBe(401);
  });
});
