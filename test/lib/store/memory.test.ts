import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { answerKey, chargedMilli, PurchaseMemoryImpl } from '../../../src/lib/store/memory.js';
import { openSqliteStore } from '../../../src/lib/store/sqlite.js';
import { storedAt, type HttpResponse, type RequestOptions } from '../../../src/lib/http/types.js';
import { CliError } from '../../../src/lib/errors.js';
import { parseJson } from '../../../src/lib/exact-json.js';
import { all } from '../../helpers/store-records.js';
import { tempDir } from '../../helpers/temp.js';

const BASE = 'http://127.0.0.1:8787/';
const enrich = (handle: string, extra: Record<string, unknown> = {}): RequestOptions => ({
  method: 'POST',
  path: 'creators/enrich/handle/raw',
  body: { handle, platform: 'instagram', ...extra },
  purchase: { kind: 'creator', platform: 'instagram', subject: handle.toLowerCase() },
});

async function memory(
  maxAge = { creator: 14 * 86_400_000, page: 86_400_000 },
  now = () => 1_000_000_000_000,
  o: { file?: string; maxAnswerBytes?: number } = {},
) {
  const store = await openSqliteStore({ file: o.file ?? join(tempDir('creators-memory-'), 'm.db') });
  const m = new PurchaseMemoryImpl({
    store,
    baseUrl: BASE,
    profile: 'default',
    command: 'enrich handle',
    maxAge,
    now,
    sleep: async () => {},
    maxAnswerBytes: o.maxAnswerBytes,
  });
  return { store, m };
}

const overlap = (creators: string[]): RequestOptions => ({
  method: 'POST',
  path: 'creators/audience/overlap',
  body: { platform: 'instagram', creators },
  purchase: { kind: 'creator', platform: 'instagram' },
});

function answer(data: unknown): (() => Promise<HttpResponse<unknown>>) & { calls: () => number } {
  let calls = 0;
  const send = async () => {
    calls++;
    return { status: 200, headers: {}, data: JSON.parse(JSON.stringify(data)) as unknown, url: BASE };
  };
  return Object.assign(send, { calls: () => calls });
}

describe('purchase memory keys', () => {
  it('a key is the one earlier builds wrote (pinned): stores made before keep answering', () => {
    // Each key as the build before the direct canonical text computed it (sorted copy, stringifyJson, createHash).
    const reqs: [Pick<RequestOptions, 'path' | 'query' | 'body'>, string][] = [
      [
        { path: 'creators/enrich/handle/raw', body: { handle: 'Noah_Paws', platform: 'instagram' } },
        '37081a358397c96b45cf4673e1aacd760f6c7712804a5cd081cdf01695fc4c21',
      ],
      [
        {
          path: 'creators/enrich/handle/full',
          body: {
            platform: 'tiktok',
            handle: '@ella',
            email_required: 'preferred',
            include_lookalikes: false,
            include_audience_data: true,
          },
        },
        '178df1cd1fb123341e309339ef3f3e00d3eee3424819cf95f125c993d5b46faf',
      ],
      [
        {
          path: 'creators/discover',
          query: { page: 2, limit: 50 },
          body: {
            platform: 'youtube',
            filters: {
              followers: { min: 1000, max: null },
              exclude_handles: ['Zed', 'amy', 'zed'],
              keywords: ['cats', 'dogs'],
              nested: [{ b: 1, a: [2, { d: 'x', c: undefined }] }],
            },
            paging: parseJson('{"cursor": 123456789012345678901234}'),
          },
        },
        '53d4f1015276fe3d70551fd0d6dc4dd392b617881f5a5b8ff5ddd72040670b1d',
      ],
      [
        { path: 'creators/audience/overlap', body: { platform: 'instagram', creators: ['b_b', '@A_a'] } },
        '57c22271a7e797c529b8f0eade492c999279a29502a51865ad668727f6742455',
      ],
      [
        {
          path: 'creators/similar',
          body: {
            platform: 'instagram',
            filter_key: 'url',
            filter_value: 'https://www.instagram.com/Noah_Paws/',
            ünï: 'çödé "q" \\ \n',
            emoji: '😀',
          },
        },
        '9386fddc12ca520a6cb83851a439368bff5dd181d82d1d25a42c018e1b03983a',
      ],
    ];
    // Schema 5 keeps a key's first 32 hex digits (and cuts the keys of older stores to them when it migrates).
    for (const [req, key] of reqs) expect(answerKey(BASE, req)).toBe(key.slice(0, 32));
  });

  it('one creator is one key however the handle is written; options, routes and servers are not', () => {
    const k = answerKey(BASE, enrich('noah_paws'));
    expect(answerKey(BASE, enrich('@Noah_Paws'))).toBe(k);
    expect(answerKey(BASE, enrich('https://www.instagram.com/noah_paws/'))).toBe(k);
    // Key order of the body does not matter; a value does.
    expect(answerKey(BASE, { ...enrich('x'), body: { platform: 'instagram', handle: 'noah_paws' } })).toBe(k);
    expect(answerKey(BASE, enrich('noah_paws', { platform: 'tiktok' }))).not.toBe(k);
    expect(answerKey(BASE, { ...enrich('noah_paws'), path: 'creators/enrich/handle/full' })).not.toBe(k);
    expect(answerKey('https://api-dashboard.influencers.club/', enrich('noah_paws'))).not.toBe(k);
  });

  it('one overlap pair is one key whatever the order or spelling of its creators; another set is another', () => {
    const k = answerKey(BASE, overlap(['noah_paws', 'theellastrong']));
    expect(answerKey(BASE, overlap(['theellastrong', 'noah_paws']))).toBe(k);
    expect(answerKey(BASE, overlap(['@Noah_Paws', 'theellastrong']))).toBe(k);
    expect(answerKey(BASE, overlap(['https://www.instagram.com/theellastrong/', 'noah_paws']))).toBe(k);
    expect(answerKey(BASE, overlap(['noah_paws', 'theellastrong', 'hannahclutch']))).not.toBe(k);
    expect(
      answerKey(BASE, {
        ...overlap(['noah_paws', 'theellastrong']),
        body: { platform: 'tiktok', creators: ['noah_paws', 'theellastrong'] },
      }),
    ).not.toBe(k);
  });

  it('what an answer cost: its own credits_cost, else the price table (Discovery per creator returned), nothing found is free', () => {
    expect(chargedMilli(enrich('a'), { result: { x: 1 }, credits_cost: 0.03 }, true)).toBe(30);
    expect(chargedMilli(enrich('a'), { result: null }, false)).toBe(0);
    expect(chargedMilli({ path: 'discovery' }, { accounts: [{}, {}, {}] }, true)).toBe(30);
    expect(
      chargedMilli({ path: 'discovery', query: { return_filter_values: 'true' } }, { accounts: [{}, {}] }, true),
    ).toBe(60);
    expect(chargedMilli({ path: 'creators/content/details' }, { result: { a: 1 } }, true)).toBe(30);
    expect(chargedMilli({ path: 'accounts/tokens' }, { id: 1 }, true)).toBeUndefined();
  });
});

describe('purchase memory', () => {
  it('a paid answer is kept before it is returned, and the same purchase comes back from the store at once, marked', async () => {
    const { store, m } = await memory();
    const send = answer({
      result: { instagram: { username: 'noah_paws', follower_count: 12345678901234567890 } },
      credits_cost: 0.03,
    });
    const first = await m.request(enrich('noah_paws'), send);
    expect(storedAt(first.data)).toBeUndefined();
    const again = await m.request(enrich('@NOAH_PAWS'), send);
    expect(send.calls()).toBe(1);
    expect(again.storedAt).toBe(1_000_000_000_000);
    expect(storedAt(again.data)).toBe(1_000_000_000_000);
    // The mark is not data: JSON of the answer is unchanged.
    expect(Object.keys(again.data as object)).toEqual(['result', 'credits_cost']);
    expect(m.tally).toMatchObject({ reused: 1, bought: 1 });
    const spend = [];
    for await (const e of store.spend({})) spend.push(e);
    expect(spend).toEqual([
      expect.objectContaining({
        command: 'enrich handle',
        route: 'creators/enrich/handle/raw',
        creditsMilli: 30,
        records: 1,
        platform: 'instagram',
      }),
    ]);
    expect(await store.boughtCreators(BASE, 'instagram', 0)).toEqual(['noah_paws']);
  });

  it('--max-age 0 buys fresh; an answer older than the window is bought again', async () => {
    let t = 1_000_000_000_000;
    const { m } = await memory({ creator: 14 * 86_400_000, page: 86_400_000 }, () => t);
    const send = answer({ result: { a: 1 }, credits_cost: 0.03 });
    await m.request(enrich('a'), send);
    t += 15 * 86_400_000;
    await m.request(enrich('a'), send);
    expect(send.calls()).toBe(2);
    const { m: fresh, store } = await memory({ creator: 0, page: 0 });
    await fresh.request(enrich('b'), send);
    await fresh.request(enrich('b'), send);
    expect(send.calls()).toBe(4);
    expect(await fresh.countStored([enrich('b')])).toBe(0);
    await store.close();
  });

  it('a store that cannot keep a paid answer: the answer is still returned, and no later purchase is sent', async () => {
    const { store, m } = await memory();
    await store.close();
    const send = answer({ result: { a: 1 }, credits_cost: 0.03 });
    const res = await m.request(enrich('a'), send).catch((e: unknown) => e);
    // The first lookup fails before anything is sent (the store is closed): nothing bought.
    expect(send.calls()).toBe(0);
    expect(res).toBeInstanceOf(Error);
  });

  it('another process holding a claim: the request waits for its answer instead of buying its own', async () => {
    const { store, m } = await memory();
    const key = answerKey(BASE, enrich('noah_paws'));
    const other = { run: 'other-run', pid: process.pid, host: m.holder.host };
    expect(await store.claim(key, other)).toBe('claimed');
    const send = answer({ result: { a: 1 }, credits_cost: 0.03 });
    const waiting = m.request(enrich('noah_paws'), send);
    // The other process answers and releases.
    await store.commit(
      {
        key,
        baseUrl: BASE,
        route: 'creators/enrich/handle/raw',
        kind: 'creator',
        platform: 'instagram',
        subject: 'noah_paws',
        request: '{}',
        body: '{"result":{"a":2},"credits_cost":0.03}',
        status: 'ok',
        creditsMilli: 30,
        records: 1,
        boughtAt: 1_000_000_000_000,
        profile: 'default',
      },
      ['noah_paws'],
      undefined,
    );
    await store.release(key, other);
    const res = await waiting;
    expect(send.calls()).toBe(0);
    expect(res.data).toEqual({ result: { a: 2 }, credits_cost: 0.03 });
  });

  it('a free not-found is reused by the run that bought it only; the next run asks again (a charged one is kept 14 days)', async () => {
    const file = join(tempDir('creators-memory-'), 'm.db');
    const { m, store } = await memory(undefined, undefined, { file });
    const nobody = answer({ result: null, credits_cost: 0, status: 'not_found' });
    await m.request(enrich('missing_x'), nobody);
    const again = await m.request(enrich('@Missing_X'), nobody);
    expect(nobody.calls()).toBe(1);
    expect(again.storedAt).toBe(1_000_000_000_000);
    // Bought, and charged, though nothing was found: a purchase like any other.
    const paid = answer({ result: null, credits_cost: 0.03, status: 'not_found' });
    await m.request(enrich('charged_x'), paid);
    await store.close();

    const { m: next } = await memory(undefined, undefined, { file });
    expect(await next.peek(enrich('missing_x'))).toBeUndefined();
    expect(await next.countStored([enrich('missing_x'), enrich('charged_x')])).toBe(1);
    await next.request(enrich('missing_x'), nobody);
    expect(nobody.calls()).toBe(2);
    await next.request(enrich('missing_x'), nobody);
    expect(nobody.calls()).toBe(2);
    expect((await next.request(enrich('charged_x'), paid)).storedAt).toBe(1_000_000_000_000);
    expect(paid.calls()).toBe(1);
  });

  it('answers read ahead (prefetch) are used as read; one missing then and bought since is still not bought twice', async () => {
    const file = join(tempDir('creators-memory-'), 'm.db');
    const { m: first } = await memory(undefined, undefined, { file });
    const send = answer({ result: { instagram: { username: 'a' } }, credits_cost: 0.03 });
    await first.request(enrich('a'), send);
    const { m, store } = await memory(undefined, undefined, { file });
    await m.prefetch([enrich('a'), enrich('b'), enrich('missing_y'), enrich('missing_y')]);
    // Taken as read ahead: the store is not asked again (its row is gone by now).
    await store.forget('instagram', 'a');
    expect((await m.request(enrich('a'), send)).storedAt).toBe(1_000_000_000_000);
    expect(send.calls()).toBe(1);
    // Not held when read ahead, bought by another run since: the claim's own look finds it.
    const other = await memory(undefined, undefined, { file });
    await other.m.request(enrich('b'), send);
    expect(send.calls()).toBe(2);
    expect((await m.request(enrich('b'), send)).storedAt).toBe(1_000_000_000_000);
    expect(send.calls()).toBe(2);
    // A free not-found this run bought is reused by it, though the look ahead found nothing.
    const nobody = answer({ result: null, credits_cost: 0, status: 'not_found' });
    await m.request(enrich('missing_y'), nobody);
    await m.request(enrich('missing_y'), nobody);
    expect(nobody.calls()).toBe(1);
    expect(m.tally).toMatchObject({ reused: 3, bought: 1 });
  });

  it('an answer over the response cap is refused at commit: returned (paid for), not kept, its charge logged, nothing more bought', async () => {
    const { m, store } = await memory(undefined, undefined, { maxAnswerBytes: 200 });
    const big = answer({ result: { instagram: { username: 'noah_paws', bio: 'x'.repeat(300) } }, credits_cost: 0.03 });
    const res = await m.request(enrich('noah_paws'), big);
    expect((res.data as { result: { instagram: { username: string } } }).result.instagram.username).toBe('noah_paws');
    expect(m.failure).toBeInstanceOf(CliError);
    expect(m.failure).toMatchObject({ exitCode: 1, code: 'store_answer_too_large' });
    expect((m.failure as CliError).message).toMatch(
      /^The answer bought for instagram:noah_paws is 3\d\d bytes, over the 200 bytes an answer may be: it was printed but not kept in the store; nothing more was bought\.$/,
    );
    expect(await store.answer(answerKey(BASE, enrich('noah_paws')), 0)).toBeUndefined();
    expect((await all(store.spend({}))).map((e) => e.creditsMilli)).toEqual([30]);
    const next = answer({ result: { a: 1 }, credits_cost: 0.03 });
    await expect(m.request(enrich('other'), next)).rejects.toBe(m.failure);
    expect(next.calls()).toBe(0);
  });

  it('a stored answer over the cap is damaged: named, not read, not bought again', async () => {
    const file = join(tempDir('creators-memory-'), 'm.db');
    const { m, store } = await memory(undefined, undefined, { file });
    const big = answer({ result: { instagram: { username: 'noah_paws', bio: 'x'.repeat(3000) } }, credits_cost: 0.03 });
    await m.request(enrich('noah_paws'), big);
    await store.close();
    const { m: small } = await memory(undefined, undefined, { file, maxAnswerBytes: 1024 });
    const err = await small.request(enrich('noah_paws'), big).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).message).toMatch(
      /^The store's answer for instagram:noah_paws \(key [0-9a-f]{12}, bought 2001-09-09T01:46:40\.000Z\) is damaged: 3\.\d+ KB, over the 1 KB an answer may be \(CREATORS_MAX_RESPONSE_MB\); nothing was bought\./,
    );
    expect(big.calls()).toBe(1);
    await expect(small.peek(enrich('noah_paws'))).rejects.toThrow('is damaged');
  });
});

describe('waiting for another machine that holds the same record', () => {
  it('says whom it waits for and until when, and says so when it takes the purchase over from a holder that fell silent', async () => {
    let t = 1_800_000_000_000;
    const file = join(tempDir('creators-memory-'), 'm.db');
    // The other machine claims, then falls silent (its connection closed: no heartbeat any more).
    const far = await openSqliteStore({ file, now: () => t });
    const key = answerKey(BASE, enrich('kai'));
    expect(await far.claim(key, { run: 'far-run', pid: 4242, host: 'build-7' })).toBe('claimed');
    await far.close();
    const store = await openSqliteStore({ file, now: () => t });
    const notices: string[] = [];
    const m = new PurchaseMemoryImpl({
      store,
      baseUrl: BASE,
      profile: 'default',
      command: 'enrich handle',
      maxAge: { creator: 86_400_000, page: 86_400_000 },
      now: () => t,
      sleep: async (ms) => {
        t += ms;
      },
      notice: (line) => notices.push(line),
    });
    const send = answer({ result: { instagram: { username: 'kai' } }, credits_cost: 0.03 });
    await m.request(enrich('kai'), send);
    expect(send.calls()).toBe(1);
    expect(notices).toEqual([
      'Waiting for pid 4242 on build-7, which is buying the same record (instagram:kai), while it answers (it is taken over after 30 s of silence), up to 120 s.',
      'Pid 4242 on build-7 stopped buying instagram:kai (gone, or silent 30 s on another machine): buying it here.',
    ]);
    await store.close();
  });
});
