/**
 * The purchase memory over a real store file: the same record asked for again while the first request
 * is on its way is bought once, in one run (a bulk input naming a creator twice) as across runs.
 * The network is a counting stand-in; the store is SQLite.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpResponse, RequestOptions } from '../../../src/lib/http/types.js';
import { PurchaseMemoryImpl } from '../../../src/lib/store/memory.js';
import { openSqliteStore, type SqliteStore } from '../../../src/lib/store/sqlite.js';
import { tempDir } from '../../helpers/temp.js';

const opened: SqliteStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function memory(maxAgeMs = 14 * 86_400_000): Promise<PurchaseMemoryImpl> {
  const store = await openSqliteStore({ file: join(tempDir('creators-memory-'), 'store.db') });
  opened.push(store);
  return new PurchaseMemoryImpl({
    store,
    baseUrl: 'http://127.0.0.1:1/',
    profile: 'default',
    command: 'enrich handle',
    maxAge: { creator: maxAgeMs, page: maxAgeMs },
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
}

function enrich(handle: string): RequestOptions {
  return {
    method: 'POST',
    path: '/public/v1/creators/enrich/handle/raw/',
    body: { handle, platform: 'instagram' },
    purchase: { kind: 'creator', platform: 'instagram', subject: handle.replace(/^@/, '').toLowerCase() },
  };
}

/** A wire that answers after `ms` and counts what it was sent (what the service would charge). */
function wire(ms = 30) {
  const sent: string[] = [];
  return {
    sent,
    send: (handle: string) => async (): Promise<HttpResponse<unknown>> => {
      sent.push(handle);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return {
        status: 200,
        headers: {},
        url: '',
        data: { result: { instagram: { username: handle.toLowerCase() } }, credits_cost: 0.03 },
      };
    },
  };
}

describe('one run asking for the same record twice at once', () => {
  it.each([
    ['within the freshness window', 14 * 86_400_000],
    ['with --max-age 0 (--restart)', 0],
  ])('%s: one request is sent; the others get its answer from the store at 0 credits', async (_what, maxAge) => {
    const m = await memory(maxAge);
    const w = wire();
    const handles = ['theowang', 'theowang', '@TheoWang', 'samuelkhan', 'samuelkhan'];
    const answers = await Promise.all(handles.map((h) => m.request(enrich(h), w.send(h))));
    expect(w.sent.sort()).toEqual(['samuelkhan', 'theowang']);
    expect(
      answers.map((a) => (a.data as { result: { instagram: { username: string } } }).result.instagram.username),
    ).toEqual(['theowang', 'theowang', 'theowang', 'samuelkhan', 'samuelkhan']);
    expect(answers.filter((a) => a.storedAt !== undefined)).toHaveLength(3);
    expect(m.spentMilli).toBe(60);
  });

  it('when the first request fails (nothing kept), the one waiting sends its own', async () => {
    const m = await memory();
    let calls = 0;
    const failing = async (): Promise<HttpResponse<unknown>> => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('connection reset');
    };
    const w = wire();
    const [first, second] = await Promise.allSettled([
      m.request(enrich('ann'), failing),
      m.request(enrich('ann'), w.send('ann')),
    ]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('fulfilled');
    expect(calls).toBe(1);
    expect(w.sent).toEqual(['ann']);
  });
});
