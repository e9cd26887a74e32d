/**
 * Paid answers the store could not take (lib/store/memory.ts `keep`, lib/store/outbox.ts): a real SQLite
 * store behind a stand-in whose commits fail as a locked, full or lost store's do (fault injection around
 * a real database, not a mock of one). The answer is returned all the same (it was paid for), it is in the
 * outbox on disk before it is returned, nothing more is bought, and the next run (a new memory) puts it in
 * the store before buying: each charge logged once, whatever is loaded twice.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BusyError, CliError, EXIT } from '../../../src/lib/errors.js';
import type { RequestOptions } from '../../../src/lib/http/types.js';
import { answerKey, PurchaseMemoryImpl } from '../../../src/lib/store/memory.js';
import { appendOutbox, drainOutbox, outboxEntries, outboxFile } from '../../../src/lib/store/outbox.js';
import { openSqliteStore } from '../../../src/lib/store/sqlite.js';
import type { SpendEntry, Store } from '../../../src/lib/store/types.js';
import { tempDir } from '../../helpers/temp.js';

const BASE = 'http://127.0.0.1:8787/';
const enrich = (handle: string): RequestOptions => ({
  method: 'POST',
  path: 'creators/enrich/handle/raw',
  body: { handle, platform: 'instagram' },
  purchase: { kind: 'creator', platform: 'instagram', subject: handle },
});
/** A sender that counts what the service charged. */
function service() {
  const charged: string[] = [];
  const send = (handle: string) => async () => {
    charged.push(handle);
    return {
      status: 200,
      headers: {},
      data: { result: { instagram: { username: handle } }, credits_cost: 0.03 } as unknown,
      url: BASE,
    };
  };
  return { charged, send };
}
const busy = () =>
  new BusyError(
    'The store /x/default.db stayed locked by another process past the busy timeout; nothing more was sent.',
    { code: 'store_busy' },
  );
const unreachable = () =>
  new CliError('Cannot reach the team store at db:5432 (ECONNRESET).', EXIT.ERROR, { code: 'store_unreachable' });

/** A real store whose commits and loads fail while `refusing()` says so; `groups` counts the commits tried. */
async function refusing(fault: () => Error, refuse = true) {
  const real = await openSqliteStore({ file: join(tempDir('creators-outbox-'), 'store.db') });
  const state = { refuse, groups: [] as number[], delayMs: 0 };
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'commit' || prop === 'commitMany' || prop === 'load') {
        return async (...args: unknown[]) => {
          if (prop === 'commitMany') state.groups.push((args[0] as unknown[]).length);
          if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
          if (state.refuse) throw fault();
          return (target[prop] as (...a: unknown[]) => Promise<unknown>)(...args);
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, real, state };
}

function memoryOn(store: Store, outbox: string | undefined, now = 1_800_000_000_000): PurchaseMemoryImpl {
  return new PurchaseMemoryImpl({
    store,
    baseUrl: BASE,
    profile: 'default',
    command: 'enrich handle',
    maxAge: { creator: 86_400_000, page: 86_400_000 },
    now: () => now,
    sleep: async () => {},
    outbox,
  });
}

async function spendOf(store: Store): Promise<SpendEntry[]> {
  const out: SpendEntry[] = [];
  for await (const e of store.spend({})) out.push(e);
  return out;
}

const newOutbox = () => outboxFile(join(tempDir('creators-outbox-cfg-'), 'config'), 'default');

describe('a paid answer the store cannot take', () => {
  it.each([
    ['busy past its timeout', busy],
    ['out of reach', unreachable],
  ])(
    'store %s: the answer is returned and on disk in the outbox (0600), nothing more is bought; the next run puts it in the store and pays nothing for it',
    async (_what, fault) => {
      const { store, real, state } = await refusing(fault);
      const outbox = newOutbox();
      const svc = service();
      const m = memoryOn(store, outbox);
      const [ann, bob] = await Promise.all(['ann', 'bob'].map((h) => m.request(enrich(h), svc.send(h))));
      expect(ann?.data).toMatchObject({ result: { instagram: { username: 'ann' } } });
      expect(bob?.data).toMatchObject({ result: { instagram: { username: 'bob' } } });
      expect(m.failure).toBeInstanceOf(CliError);
      await expect(m.request(enrich('cid'), svc.send('cid'))).rejects.toBe(m.failure);
      expect(svc.charged.sort()).toEqual(['ann', 'bob']);
      // On disk, private, one line per answer with its charge.
      expect(statSync(outbox).mode & 0o777).toBe(0o600);
      const lines = readFileSync(outbox, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { answer: { subject: string }; spend: { creditsMilli: number } });
      expect(lines.map((l) => [l.answer.subject, l.spend.creditsMilli]).sort()).toEqual([
        ['ann', 30],
        ['bob', 30],
      ]);
      // Still refused at the end: the line names them, the outbox and what the next run does.
      const line = await m.settle();
      expect(line).toMatch(
        /^The store could not take 2 paid answers \(instagram:(ann|bob), instagram:(ann|bob)\); they are kept in the outbox /,
      );
      expect(line).toContain(
        `${outbox}, and the next run puts them in the store before it buys anything, so they are not bought again.`,
      );
      expect(await m.settle()).toBeUndefined();
      // The drain the store refused put its lines back where the line says they are.
      expect(readdirSync(dirname(outbox))).toEqual(['default.outbox.jsonl']);
      expect(outboxEntries(outbox)).toHaveLength(2);

      // The next run: the store takes them (the drain app/factory/store.ts does first), and ann is answered from it.
      state.refuse = false;
      expect(await drainOutbox(outbox, store, 'next')).toEqual({ lines: 2, answers: 2, spend: 2 });
      expect(existsSync(outbox)).toBe(false);
      expect(readdirSync(dirname(outbox))).toEqual([]);
      const next = memoryOn(store, outbox, 1_800_000_060_000);
      const again = await next.request(enrich('ann'), svc.send('ann'));
      expect(again.storedAt).toBe(1_800_000_000_000);
      expect(svc.charged).toHaveLength(2);
      expect((await spendOf(real)).map((e) => e.creditsMilli)).toEqual([30, 30]);
      await real.close();
    },
  );

  it('the store answers again by the end of the run: the outbox goes into it at once, and the line says so', async () => {
    const { store, real, state } = await refusing(unreachable);
    const outbox = newOutbox();
    const svc = service();
    const m = memoryOn(store, outbox);
    await m.request(enrich('ann'), svc.send('ann'));
    state.refuse = false;
    expect(await m.settle()).toBe(
      'The store could not take 1 paid answer (instagram:ann) when it arrived; it is kept in it now.',
    );
    expect(existsSync(outbox)).toBe(false);
    expect((await real.stats()).spend).toMatchObject({ entries: 1, creditsMilli: 30 });
    await real.close();
  });

  it('the outbox cannot be written either: the line says the answer is in the output only, and why', async () => {
    const { store, real } = await refusing(busy);
    const cfg = tempDir('creators-outbox-cfg-');
    // A file where the store folder should be.
    writeFileSync(join(cfg, 'store'), 'not a folder');
    const m = memoryOn(store, outboxFile(cfg, 'default'));
    await m.request(enrich('ann'), service().send('ann'));
    expect(await m.settle()).toMatch(
      /^The store could not take 1 paid answer \(instagram:ann\) nor the outbox .*default\.outbox\.jsonl \(.*\): it is in this run's output only\.$/,
    );
    await real.close();
  });
});

describe('the outbox drained', () => {
  const line = (i: number) => ({
    answer: {
      key: `k${i}`,
      baseUrl: BASE,
      route: 'creators/enrich/handle/raw',
      kind: 'creator' as const,
      platform: 'instagram',
      subject: `h${i}`,
      request: '{}',
      body: `{"result":{"n":${i}}}`,
      status: 'ok' as const,
      creditsMilli: 30,
      records: 1,
      boughtAt: 1_800_000_000_000 + i,
      profile: 'default',
    },
    creators: [`h${i}`],
    spend: {
      at: 1_800_000_000_000 + i,
      profile: 'default',
      baseUrl: BASE,
      command: 'enrich handle',
      route: 'creators/enrich/handle/raw',
      platform: 'instagram',
      creditsMilli: 30,
      records: 1,
      run: 'r1',
      origin: `r1:k${i}`,
    },
  });

  it('a drain killed between the load and the removal (its copy left behind): the next drain loads it again and logs nothing twice', async () => {
    const outbox = newOutbox();
    const store = await openSqliteStore({ file: join(tempDir('creators-outbox-'), 'store.db') });
    appendOutbox(outbox, [line(1), line(2)]);
    // As a drainer leaves it when killed after its load committed: renamed, loaded, not yet removed.
    const text = readFileSync(outbox, 'utf8');
    expect(
      await store.load(
        [line(1), line(2)].map((l) => ({ answer: l.answer, creators: l.creators })),
        [line(1).spend, line(2).spend],
      ),
    ).toEqual({ answers: 2, spend: 2 });
    writeFileSync(`${outbox}.draining-dead`, text);
    writeFileSync(outbox, '');
    appendOutbox(outbox, [line(3)]);
    expect(await drainOutbox(outbox, store, 'next')).toEqual({ lines: 3, answers: 1, spend: 1 });
    expect(readdirSync(dirname(outbox))).toEqual([]);
    expect((await spendOf(store)).map((e) => e.origin)).toEqual(['r1:k1', 'r1:k2', 'r1:k3']);
    await store.close();
  });

  it('two drainers on one outbox with lines appended meanwhile: every line loaded, each charge logged once', async () => {
    const outbox = newOutbox();
    const file = join(tempDir('creators-outbox-'), 'store.db');
    const [a, b] = [await openSqliteStore({ file }), await openSqliteStore({ file })];
    for (let i = 0; i < 50; i++) appendOutbox(outbox, [line(i)]);
    // Drainer A loads while a writer appends and drainer B starts: B takes what A did not rename.
    const slow: Pick<Store, 'load'> = {
      load: async (answers, spend) => {
        appendOutbox(outbox, [line(100), line(101)]);
        await new Promise((r) => setTimeout(r, 20));
        return a.load(answers, spend);
      },
    };
    const [ra, rb] = await Promise.all([drainOutbox(outbox, slow, 'a'), drainOutbox(outbox, b, 'b')]);
    // Whatever B found after A's rename (maybe A's own copy too) is loaded again, harmlessly.
    expect((ra?.spend ?? 0) + (rb?.spend ?? 0)).toBeLessThanOrEqual(52);
    await drainOutbox(outbox, b, 'c');
    expect(readdirSync(dirname(outbox))).toEqual([]);
    const origins = (await spendOf(b)).map((e) => e.origin);
    expect(origins).toHaveLength(52);
    expect(new Set(origins).size).toBe(52);
    expect((await b.stats()).answers[0]).toMatchObject({ count: 52 });
    await a.close();
    await b.close();
  });

  it('a drainer that moves the outbox after a writer opened it and before it wrote: the writer writes its line again, nothing lost', async () => {
    const outbox = newOutbox();
    const store = await openSqliteStore({ file: join(tempDir('creators-outbox-'), 'store.db') });
    appendOutbox(outbox, [line(1)]);
    let drain: Promise<unknown> | undefined;
    // The drainer renames, reads and loads the file (line 1 only) while the writer holds it open.
    // Then another writer makes a new outbox at the path: the first one's file is no longer the one named there.
    appendOutbox(outbox, [line(2)], {
      afterOpen: () => {
        drain ??= drainOutbox(outbox, store, 'meanwhile');
        appendOutbox(outbox, [line(3)]);
      },
    });
    await drain;
    expect(outboxEntries(outbox).map((e) => e.answer?.key)).toEqual(['k3', 'k2']);
    await drainOutbox(outbox, store, 'next');
    expect((await spendOf(store)).map((e) => e.origin)).toEqual(['r1:k1', 'r1:k2', 'r1:k3']);
    await store.close();
  });

  it('a torn last line (a writer killed mid-write, before its fsync returned) is skipped; the lines before it are read', () => {
    const outbox = newOutbox();
    mkdirSync(dirname(outbox), { recursive: true });
    appendOutbox(outbox, [line(1)]);
    appendFileSync(outbox, '{"v":1,"answer":{"key":');
    expect(outboxEntries(outbox).map((e) => e.answer?.key)).toEqual(['k1']);
  });
});

describe('a charge with no answer to keep (a raw POST) the store refuses', () => {
  it('waits in the outbox as a spend line, is said, fails the run, and the next run logs it once', async () => {
    const real = await openSqliteStore({ file: join(tempDir('creators-outbox-'), 'store.db') });
    const state = { refuse: true };
    const store = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === 'logSpend' && state.refuse) return async () => Promise.reject(busy());
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const outbox = join(tempDir('creators-outbox-'), 'store', 'default.outbox.jsonl');
    const warned: string[] = [];
    const m = new PurchaseMemoryImpl({
      store,
      baseUrl: BASE,
      profile: 'default',
      command: 'api',
      maxAge: { creator: 86_400_000, page: 86_400_000 },
      now: () => 1_800_000_000_000,
      sleep: async () => {},
      outbox,
      warn: (l) => warned.push(l),
    });
    const raw: RequestOptions = {
      method: 'POST',
      path: 'creators/enrich/handle/raw',
      body: { handle: 'noah_paws', platform: 'instagram' },
    };
    const res = await m.request(raw, async () => ({
      status: 200,
      headers: {},
      data: { result: { instagram: { username: 'noah_paws' } }, credits_cost: 0.03 } as unknown,
      url: BASE,
    }));
    expect(res.status).toBe(200);
    expect(m.failure).toBeInstanceOf(BusyError);
    expect(warned.join('\n')).toContain(`is kept in the outbox ${outbox}`);
    const lines = outboxEntries(outbox);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.spend).toMatchObject({ route: 'creators/enrich/handle/raw', creditsMilli: 30, command: 'api' });
    expect(lines[0]?.answer).toBeUndefined();
    state.refuse = false;
    await drainOutbox(outbox, store, 'next-run');
    await drainOutbox(outbox, store, 'again');
    const spend: SpendEntry[] = [];
    for await (const e of real.spend({})) spend.push(e);
    expect(spend.map((e) => e.creditsMilli)).toEqual([30]);
    await real.close();
  });
});

describe("a dry run's view of the outbox", () => {
  it('counts what waits there as the store would (a free not-found is not held), and passes the size cap on to the store', async () => {
    const { withOutboxAnswers } = await import('../../../src/lib/store/outbox.js');
    const real = await openSqliteStore({ file: join(tempDir('creators-outbox-'), 'store.db') });
    const outbox = join(tempDir('creators-outbox-'), 'default.outbox.jsonl');
    const at = 1_800_000_000_000;
    const base = {
      baseUrl: BASE,
      route: 'creators/enrich/handle/raw',
      kind: 'creator' as const,
      platform: 'instagram',
      request: '{}',
      records: 1,
      boughtAt: at,
      profile: 'default',
    };
    appendOutbox(outbox, [
      {
        answer: { ...base, key: 'paid', subject: 'paid', body: '{"result":{}}', status: 'ok', creditsMilli: 30 },
        creators: ['paid'],
      },
      {
        answer: {
          ...base,
          key: 'nobody',
          subject: 'nobody',
          body: '{}',
          status: 'not_found',
          creditsMilli: 0,
          records: 0,
        },
        creators: [],
      },
    ]);
    await real.commit(
      {
        ...base,
        key: 'big',
        subject: 'big',
        body: JSON.stringify({ x: 'y'.repeat(100) }),
        status: 'ok',
        creditsMilli: 30,
      },
      ['big'],
      undefined,
    );
    const view = withOutboxAnswers(real, outbox);
    expect([...(await view.answered(['paid', 'nobody', 'big'], at - 1))].sort()).toEqual(['big', 'paid']);
    expect(await view.answer('big', at - 1, 10)).toMatchObject({ body: '', bytes: expect.any(Number) });
    await real.close();
  });
  it("a dry run's count before the gate finds the answers waiting in the outbox when the store itself holds none", async () => {
    const { withOutboxAnswers } = await import('../../../src/lib/store/outbox.js');
    const real = await openSqliteStore({ file: join(tempDir('creators-outbox-'), 'store.db') });
    const outbox = join(tempDir('creators-outbox-'), 'default.outbox.jsonl');
    const at = 1_800_000_000_000;
    appendOutbox(outbox, [
      {
        answer: {
          key: answerKey(BASE, enrich('paid')),
          baseUrl: BASE,
          route: 'creators/enrich/handle/raw',
          kind: 'creator',
          platform: 'instagram',
          subject: 'paid',
          request: '{}',
          body: '{"result":{"instagram":{"username":"paid"}}}',
          status: 'ok',
          creditsMilli: 30,
          records: 1,
          boughtAt: at,
          profile: 'default',
        },
        creators: ['paid'],
      },
    ]);
    const m = new PurchaseMemoryImpl({
      store: withOutboxAnswers(real, outbox),
      baseUrl: BASE,
      profile: 'default',
      command: 'enrich handle',
      maxAge: { creator: 86_400_000, page: 86_400_000 },
      now: () => at + 1000,
      sleep: async () => {},
    });
    expect(await m.countStored([enrich('paid'), enrich('other')])).toBe(1);
    await real.close();
  });
});

describe('group commit: answers arriving while a commit is under way are kept together in the next one', () => {
  it('twelve answers at once: each returned only once kept, in fewer transactions than answers, each charge once', async () => {
    const { store, real, state } = await refusing(busy, false);
    const svc = service();
    const m = memoryOn(store, newOutbox());
    const handles = Array.from({ length: 12 }, (_, i) => `h${i}`);
    const got = await Promise.all(handles.map((h) => m.request(enrich(h), svc.send(h))));
    expect(
      got.map((r) => (r.data as { result: { instagram: { username: string } } }).result.instagram.username),
    ).toEqual(handles);
    expect(m.failure).toBeUndefined();
    // Ready in one turn of the event loop: one transaction.
    expect(state.groups).toEqual([12]);
    expect((await real.stats()).spend).toMatchObject({ entries: 12, creditsMilli: 360 });
    expect((await real.shared()).filter((e) => e.kind === 'claim')).toEqual([]);
    const again = memoryOn(store, newOutbox(), 1_800_000_060_000);
    for (const h of handles) expect((await again.request(enrich(h), svc.send(h))).storedAt).toBe(1_800_000_000_000);
    expect(svc.charged).toHaveLength(12);
    await real.close();
  });

  it('answers arriving while a slow commit is under way wait for it and go together in the next', async () => {
    const { store, real, state } = await refusing(busy, false);
    state.delayMs = 30;
    const svc = service();
    const m = memoryOn(store, newOutbox());
    const later = (h: string) => async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return svc.send(h)();
    };
    await Promise.all([
      m.request(enrich('first'), svc.send('first')),
      ...['b', 'c', 'd'].map((h) => m.request(enrich(h), later(h))),
    ]);
    expect(state.groups).toEqual([1, 3]);
    expect((await real.stats()).spend).toMatchObject({ entries: 4, creditsMilli: 120 });
    await real.close();
  });

  it('a group the store refuses: every answer in it is returned and in the outbox, none bought again by the next run', async () => {
    const { store, real, state } = await refusing(busy);
    // Refused after a while, as a locked store does.
    state.delayMs = 20;
    const outbox = newOutbox();
    const svc = service();
    const m = memoryOn(store, outbox);
    const handles = Array.from({ length: 8 }, (_, i) => `h${i}`);
    const got = await Promise.all(handles.map((h) => m.request(enrich(h), svc.send(h))));
    expect(got).toHaveLength(8);
    // Arrived in one turn: one group, refused whole.
    expect(state.groups).toEqual([8]);
    state.delayMs = 0;
    expect(m.failure).toBeInstanceOf(CliError);
    expect(
      outboxEntries(outbox)
        .map((e) => e.answer?.subject)
        .sort(),
    ).toEqual(handles);
    state.refuse = false;
    expect(await drainOutbox(outbox, store, 'next')).toEqual({ lines: 8, answers: 8, spend: 8 });
    const next = memoryOn(store, outbox, 1_800_000_060_000);
    for (const h of handles) expect((await next.request(enrich(h), svc.send(h))).storedAt).toBe(1_800_000_000_000);
    expect(svc.charged).toHaveLength(8);
    expect((await spendOf(real)).length).toBe(8);
    await real.close();
  });
});
