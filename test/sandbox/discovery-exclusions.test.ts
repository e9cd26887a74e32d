import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, list, start } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start({ seed: 7 });
});
afterAll(() => sb.close());

const BASE = '/public/v1/discovery/exclusion-lists';
const send = (method: string, path: string, body?: unknown) =>
  call(sb, path, { method, body: body === undefined ? undefined : JSON.stringify(body) });

describe('sandbox exclusion lists (api-contract §11)', () => {
  it('creates, reads, renames and deletes a list in the published shapes', async () => {
    const created = await send('POST', `${BASE}/`, { name: 'Competitors', platform: 'instagram' });
    expect(created.status).toBe(201);
    const obj = created.body as Record<string, unknown>;
    expect(Object.keys(obj).sort()).toEqual([
      'created_at',
      'handle_count',
      'id',
      'is_default',
      'name',
      'platform',
      'updated_at',
    ]);
    expect(obj).toMatchObject({ name: 'Competitors', platform: 'instagram', is_default: false, handle_count: 0 });
    const dup = await send('POST', `${BASE}/`, { name: 'competitors', platform: 'instagram' });
    expect(dup.body).toEqual({ error: { name: ['A list with this name already exists for this platform.'] } });
    expect((await send('GET', `${BASE}/${obj.id}/`)).body).toEqual(obj);
    const renamed = await send('PATCH', `${BASE}/${obj.id}/`, { name: 'Rivals' });
    expect((renamed.body as Record<string, unknown>).name).toBe('Rivals');
    expect((await list(sb, `${BASE}/`)).map((l) => l.id)).toContain(obj.id);
    const del = await send('DELETE', `${BASE}/${obj.id}/`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    const gone = await send('GET', `${BASE}/${obj.id}/`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'Exclusion list not found.' });
  });

  it('adds (normalised) and removes handles, DELETE with a body, and pages them alphabetically', async () => {
    const id = ((await send('POST', `${BASE}/`, { name: 'Seen', platform: 'tiktok' })).body as { id: number }).id;
    const added = await send('POST', `${BASE}/${id}/entries/`, {
      handles: ['@Zed', 'https://www.tiktok.com/@amy', 'bob', 'BOB'],
    });
    expect((added.body as Record<string, unknown>).handle_count).toBe(3);
    const page = await send('GET', `${BASE}/${id}/entries/?offset=1&limit=1`);
    expect(page.body).toEqual({ total: 3, offset: 1, limit: 1, handles: ['bob'] });
    const removed = await send('DELETE', `${BASE}/${id}/entries/`, { handles: ['@ZED', 'missing'] });
    expect((removed.body as Record<string, unknown>).handle_count).toBe(2);
    expect((await send('POST', `${BASE}/${id}/entries/`, { handles: [] })).status).toBe(400);
  });

  it('creates the default list of a platform on first access; it cannot be renamed or deleted', async () => {
    const first = await send('GET', `${BASE}/default/youtube/`);
    expect(first.status).toBe(200);
    const obj = first.body as Record<string, unknown>;
    expect(obj).toMatchObject({ platform: 'youtube', is_default: true, handle_count: 0 });
    expect(((await send('GET', `${BASE}/default/youtube/`)).body as Record<string, unknown>).id).toBe(obj.id);
    await send('POST', `${BASE}/default/youtube/entries/`, { handles: ['x'] });
    expect((await send('GET', `${BASE}/default/youtube/entries/`)).body).toMatchObject({ total: 1, handles: ['x'] });
    expect((await send('PATCH', `${BASE}/${obj.id}/`, { name: 'n' })).body).toEqual({
      error: ['The default exclusion list cannot be renamed.'],
    });
    expect((await send('DELETE', `${BASE}/${obj.id}/`)).status).toBe(400);
    expect((await send('GET', `${BASE}/default/myspace/`)).status).toBe(404);
  });

  it('applies lists to Discovery: by id, default list, all lists; other-platform ids are skipped silently', async () => {
    const search = async (filters: Record<string, unknown>) =>
      (await send('POST', '/public/v1/discovery/', { platform: 'twitter', filters, paging: { limit: 5 } })).body as {
        total: number;
        accounts: { profile: { username: string } }[];
      };
    const top = (await search({})).accounts.map((a) => a.profile.username);
    const id = ((await send('POST', `${BASE}/`, { name: 'Top', platform: 'twitter' })).body as { id: number }).id;
    await send('POST', `${BASE}/${id}/entries/`, { handles: top.slice(0, 2) });
    await send('POST', `${BASE}/default/twitter/entries/`, { handles: top.slice(2, 3) });
    const other = ((await send('POST', `${BASE}/`, { name: 'Other', platform: 'instagram' })).body as { id: number })
      .id;
    expect((await search({ exclude_list: [id] })).total).toBe(11_998);
    expect((await search({ exclude_default_list: true })).total).toBe(11_999);
    expect((await search({ exclude_all_lists: true })).total).toBe(11_997);
    expect((await search({ exclude_list: [other, 99999] })).total).toBe(12_000);
  });
});
