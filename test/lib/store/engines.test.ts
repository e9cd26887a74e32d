/**
 * The store's shared test family: one behaviour, two engines. Every test here runs against the SQLite
 * engine (a file in a temp dir) and the PostgreSQL engine (a fresh database on the server `.ci/run`
 * starts; skipped, saying why, without one): answers kept and found within a window, spend logged once
 * per origin, claims, budgets and the pace shared by two connections, and a copy between stores
 * (`store push`) that adds nothing twice. Never a mock of either database.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/lib/store/open.js';
import { AHEAD_MS, HEARTBEAT_MS, SILENT_MS } from '../../../src/lib/store/core.js';
import type { Dialect } from '../../../src/lib/store/dialect.js';
import type { BudgetCheck, Holder, Store } from '../../../src/lib/store/types.js';
import { freshPgDatabase, PG_SKIP, PG_URL } from '../../helpers/pg.js';
import { deadPid } from '../../helpers/spawn-cli.js';
import { all, answer, DAY, me, spend, T0 } from '../../helpers/store-records.js';
import { tempDir } from '../../helpers/temp.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

/** A new empty place for a store, and connections to it. */
interface World {
  /** One connection to a new store. */
  open(): Promise<Store>;
  /** Two connections to one new store (two processes, or two machines). */
  pair(): Promise<[Store, Store]>;
}

async function connect(place: string): Promise<Store> {
  const s = (await openStore({ file: place, env: {}, migrate: true })) as Store;
  opened.push(s);
  return s;
}

const ENGINES: { name: string; skip: string | undefined; place(): Promise<string> }[] = [
  { name: 'sqlite', skip: undefined, place: async () => join(tempDir('creators-store-'), 'store.db') },
  { name: 'postgres', skip: PG_URL ? undefined : PG_SKIP, place: freshPgDatabase },
];

for (const engine of ENGINES) {
  describe.skipIf(engine.skip !== undefined)(`${engine.name} engine${engine.skip ? ` (${engine.skip})` : ''}`, () => {
    const w: World = {
      open: async () => connect(await engine.place()),
      pair: async () => {
        const place = await engine.place();
        return [await connect(place), await connect(place)];
      },
    };

    describe('answers, spend and creators', () => {
      it('an answer is found within its window and not after it; answered() names the ones held', async () => {
        const s = await w.open();
        await s.commit(answer('a', { boughtAt: T0 }), ['a'], spend('r', 30));
        await s.commit(answer('b', { boughtAt: T0 - 3 * DAY }), ['b'], spend('r', 30, T0 - 3 * DAY));
        expect((await s.answer('a', T0))?.body).toContain('"username":"a"');
        expect(await s.answer('a', T0 + 1)).toBeUndefined();
        expect(await s.answer('b', T0 - DAY)).toBeUndefined();
        expect(await s.answer('missing', 0)).toBeUndefined();
        expect([...(await s.answered(['a', 'b', 'missing'], T0 - 2 * DAY))]).toEqual(['a']);
        expect([...(await s.answered(['a', 'b', 'missing'], 0))].sort()).toEqual(['a', 'b']);
      });

      it('answers() reads many keys in one statement, as answer() reads each: within the window, a body over the cap not read', async () => {
        const s = await w.open();
        await s.commit(answer('a', { boughtAt: T0 }), ['a'], spend('r', 30));
        await s.commit(answer('b', { boughtAt: T0 - 3 * DAY }), ['b'], spend('r', 30, T0 - 3 * DAY));
        const held = await s.answers(['a', 'b', 'missing'], T0 - 2 * DAY);
        expect([...held.keys()]).toEqual(['a']);
        expect(held.get('a')).toEqual(await s.answer('a', T0 - 2 * DAY));
        const all = await s.answers(['a', 'b'], 0, 10);
        expect([...all.keys()].sort()).toEqual(['a', 'b']);
        expect(all.get('b')?.body).toBe('');
        expect(all.get('b')?.bytes).toBeGreaterThan(10);
        expect((await s.answers([], 0)).size).toBe(0);
      });

      it('a new answer under the same key replaces the old one; its spend is logged each time', async () => {
        const s = await w.open();
        await s.commit(answer('a', { boughtAt: T0, body: '{"v":1}' }), ['a'], spend('r1', 30));
        await s.commit(answer('a', { boughtAt: T0 + DAY, body: '{"v":2}' }), ['a'], spend('r2', 30, T0 + DAY));
        expect((await s.answer('a', 0))?.body).toBe('{"v":2}');
        expect((await all(s.list({}))).map((x) => x.key)).toEqual(['a']);
        expect((await all(s.spend({}))).map((e) => e.run)).toEqual(['r1', 'r2']);
        expect(await s.boughtCreators('http://127.0.0.1:1/', 'instagram', T0 + 1)).toEqual(['a']);
      });

      it('a not-found answer is kept (free) without a spend entry; logSpend logs a charge with no answer', async () => {
        const s = await w.open();
        await s.commit(answer('nobody', { status: 'not_found', creditsMilli: 0, records: 0 }), [], undefined);
        expect((await s.answer('nobody', 0))?.status).toBe('not_found');
        await s.logSpend(spend('raw', 50));
        const stats = await s.stats();
        expect(stats.spend).toMatchObject({ entries: 1, creditsMilli: 50 });
        expect(stats.answers).toEqual([
          { kind: 'creator', count: 1, records: 0, creditsMilli: 0, oldest: T0, newest: T0 },
        ]);
      });

      it('answered() never counts a free not-found (remembered for its run only); a charged one counts', async () => {
        const s = await w.open();
        await s.commit(answer('nobody', { status: 'not_found', creditsMilli: 0, records: 0 }), [], undefined);
        await s.commit(answer('charged', { status: 'not_found', creditsMilli: 30, records: 0 }), [], spend('r', 30));
        await s.commit(answer('a'), ['a'], spend('r', 30));
        expect([...(await s.answered(['nobody', 'charged', 'a'], 0))].sort()).toEqual(['a', 'charged']);
      });

      it('holdsAny() says whether a route of a base URL holds an answer a later run reuses (a count needs no keys when not)', async () => {
        const s = await w.open();
        const base = 'http://127.0.0.1:1/';
        const route = 'creators/enrich/handle/raw';
        expect(await s.holdsAny(base, route, 0)).toBe(false);
        await s.commit(answer('nobody', { status: 'not_found', creditsMilli: 0, records: 0 }), [], undefined);
        expect(await s.holdsAny(base, route, 0)).toBe(false);
        await s.commit(answer('a', { boughtAt: T0 - DAY }), ['a'], spend('r', 30, T0 - DAY));
        expect(await s.holdsAny(base, route, 0)).toBe(true);
        expect(await s.holdsAny(base, route, T0 - DAY)).toBe(true);
        expect(await s.holdsAny(base, route, T0 - DAY + 1)).toBe(false);
        expect(await s.holdsAny(base, 'creators/enrich/handle/full', 0)).toBe(false);
        expect(await s.holdsAny('https://api.example/', route, 0)).toBe(false);
      });

      it("answer() leaves a body over maxBytes unread and says its size (the binding aborts on a text past V8's limit)", async () => {
        const s = await w.open();
        const body = JSON.stringify({ result: { text: 'é'.repeat(100) } });
        await s.commit(answer('big', { body }), ['big'], undefined);
        const bytes = Buffer.byteLength(body);
        expect(await s.answer('big', 0, bytes)).toMatchObject({ body, bytes });
        expect(await s.answer('big', 0, bytes - 1)).toMatchObject({ body: '', bytes, boughtAt: T0 });
        expect((await s.answer('big', 0))?.body).toBe(body);
      });

      it('a page remembers the creators it bought, per base URL and platform', async () => {
        const s = await w.open();
        await s.commit(
          answer('page1', { kind: 'page', subject: null, records: 2, route: 'discovery' }),
          ['ann', 'bob'],
          spend('r', 20),
        );
        await s.commit(
          answer('page2', {
            kind: 'page',
            subject: null,
            records: 1,
            route: 'discovery',
            baseUrl: 'https://api.example/',
          }),
          ['cat'],
          undefined,
        );
        await s.commit(answer('yt', { platform: 'youtube', subject: 'dan' }), ['dan'], undefined);
        expect(await s.boughtCreators('http://127.0.0.1:1/', 'instagram', 0)).toEqual(['ann', 'bob']);
        expect(await s.boughtCreators('https://api.example/', 'instagram', 0)).toEqual(['cat']);
        expect(await s.boughtCreators('http://127.0.0.1:1/', 'youtube', 0)).toEqual(['dan']);
      });

      it('list filters by platform, kind and age, newest first', async () => {
        const s = await w.open();
        await s.commit(answer('old', { boughtAt: T0 - 10 * DAY }), [], undefined);
        await s.commit(answer('new', { boughtAt: T0 }), [], undefined);
        await s.commit(answer('yt', { platform: 'youtube', boughtAt: T0 - DAY }), [], undefined);
        await s.commit(answer('pg', { kind: 'page', subject: null, boughtAt: T0 - 2 * DAY }), [], undefined);
        expect((await all(s.list({}))).map((a) => a.key)).toEqual(['new', 'yt', 'pg', 'old']);
        expect((await all(s.list({ platform: 'instagram', kind: 'creator' }))).map((a) => a.key)).toEqual([
          'new',
          'old',
        ]);
        expect((await all(s.list({ since: T0 - 5 * DAY, until: T0 }))).map((a) => a.key)).toEqual(['yt', 'pg']);
      });

      it('prune deletes answers bought before a time (and the creators they bought); the spend log stays', async () => {
        const s = await w.open();
        await s.commit(answer('old', { boughtAt: T0 - 100 * DAY }), ['old'], spend('r', 30, T0 - 100 * DAY));
        await s.commit(answer('new', { boughtAt: T0 }), ['new'], spend('r', 30));
        expect(await s.prune(T0 - 90 * DAY)).toBe(1);
        expect(await s.answer('old', 0)).toBeUndefined();
        expect(await s.answer('new', 0)).toBeDefined();
        expect(await s.boughtCreators('http://127.0.0.1:1/', 'instagram', 0)).toEqual(['new']);
        expect((await s.stats()).spend.entries).toBe(2);
        expect(await s.prune(T0 - 90 * DAY)).toBe(0);
      });

      it("forget deletes a creator's answers on one platform and the pages that bought them", async () => {
        const s = await w.open();
        await s.commit(answer('ann-raw', { subject: 'ann' }), ['ann'], undefined);
        await s.commit(
          answer('ann-full', { subject: 'ann', route: 'creators/enrich/handle/full' }),
          ['ann'],
          undefined,
        );
        await s.commit(answer('ann-yt', { subject: 'ann', platform: 'youtube' }), ['ann'], undefined);
        await s.commit(answer('page', { kind: 'page', subject: null }), ['ann', 'bob'], undefined);
        await s.commit(answer('other-page', { kind: 'page', subject: null }), ['bob'], undefined);
        expect(await s.forget('instagram', 'ann')).toEqual({ creator: 2, page: 1 });
        expect((await all(s.list({}))).map((a) => a.key).sort()).toEqual(['ann-yt', 'other-page']);
        expect(await s.boughtCreators('http://127.0.0.1:1/', 'instagram', 0)).toEqual(['bob']);
        expect(await s.forget('instagram', 'ann')).toEqual({ creator: 0, page: 0 });
      });
    });

    describe('claims', () => {
      /** Moves a claim's or run's last sign of life (the database's clock) by `ms`: a holder that fell silent, or a wrong clock's. */
      const age = async (s: Store, table: 'claims' | 'runs', ms: number) =>
        (s as unknown as { d: Dialect }).d.batch('write', [
          { sql: `UPDATE ${table} SET seen_at = seen_at + ?`, params: [ms] },
        ]);
      const elsewhere = (run: string): Holder => ({
        run,
        pid: process.pid,
        host: `${hostname()}-elsewhere`,
        boot: 'b',
        start: '1',
      });

      it('a live claim holds off another run until released; the holder itself may claim again', async () => {
        const s = await w.open();
        expect(await s.claim('k', me('a'))).toBe('claimed');
        expect(await s.claim('k', me('a'))).toBe('claimed');
        expect(await s.claim('k', me('b'))).toEqual(me('a'));
        // Releasing someone else's claim does nothing.
        await s.release('k', me('b'));
        expect(await s.claim('k', me('b'))).toEqual(me('a'));
        await s.release('k', me('a'));
        expect(await s.claim('k', me('b'))).toBe('claimed');
      });

      it('a claim that looks first: a fresh answer held is returned and nothing is claimed; a free not-found, a stale answer or none: claimed', async () => {
        const s = await w.open();
        const now = Date.now();
        await s.commit(answer('held', { boughtAt: now }), ['held'], spend('r', 30, now));
        const got = await s.claim('held', me('a'), { since: now - DAY });
        expect(got).toMatchObject({ answer: { boughtAt: now, records: 1, status: 'ok' } });
        expect((got as { answer: { body: string } }).answer.body).toContain('"username":"held"');
        expect((await s.shared()).filter((e) => e.kind === 'claim')).toEqual([]);
        // Too old for the window: claimed, to be bought again.
        expect(await s.claim('held', me('a'), { since: now + 1 })).toBe('claimed');
        await s.release('held', me('a'));
        // A free not-found is its own run's only: another run claims it.
        await s.commit(
          answer('nobody', { boughtAt: now, status: 'not_found', creditsMilli: 0, records: 0 }),
          [],
          undefined,
        );
        expect(await s.claim('nobody', me('a'), { since: now - DAY })).toBe('claimed');
        // A body over the cap comes back unread (its size told), for the caller to name.
        expect(await s.claim('held', me('b'), { since: now - DAY, maxBytes: 10 })).toMatchObject({
          answer: { body: '', bytes: answer('held').body.length },
        });
        // A commit that ends its claim: the key is free for the next run at once.
        expect(await s.claim('new', me('a'), { since: now - DAY })).toBe('claimed');
        await s.commit(answer('new', { boughtAt: now }), ['new'], spend('r', 30, now, 'r:new'), me('a'));
        expect((await s.shared()).filter((e) => e.kind === 'claim' && e.id === 'new')).toEqual([]);
      });

      it('a live holder on this host is never taken over however long it is silent (a stopped process)', async () => {
        const s = await w.open();
        expect(await s.claim('k', me('a'))).toBe('claimed');
        await age(s, 'claims', -3_600_000);
        expect(await s.claim('k', me('b'))).toEqual(me('a'));
      });

      it('a holder on another host is respected while it beats, taken over once silent for SILENT_MS or when its time is implausibly ahead', async () => {
        const s = await w.open();
        expect(await s.claim('k', elsewhere('far'))).toBe('claimed');
        expect(await s.claim('k', me('b'))).toEqual(elsewhere('far'));
        await age(s, 'claims', -(SILENT_MS - 5_000));
        expect(await s.claim('k', me('b'))).toEqual(elsewhere('far'));
        await age(s, 'claims', -10_000);
        expect(await s.claim('k', me('b'))).toBe('claimed');
        // A machine whose clock is a day ahead cannot hold a claim for a day.
        expect(await s.claim('j', elsewhere('ahead'))).toBe('claimed');
        await age(s, 'claims', DAY);
        expect(await s.claim('j', me('b'))).toBe('claimed');
      });

      it('a claim of a dead process on this host is taken over at once, as is one of a reused pid (another start time)', async () => {
        const s = await w.open();
        const dead = { run: 'dead', pid: deadPid(), host: hostname() };
        expect(await s.claim('k', dead)).toBe('claimed');
        expect(await s.claim('k', me('b'))).toBe('claimed');
        const reused = { ...me('reused'), start: '1' };
        expect(await s.claim('j', reused)).toBe('claimed');
        expect(await s.claim('j', me('b'))).toBe('claimed');
      });

      it("claims are seen across two connections to one store; endRun drops a run's claims", async () => {
        const [a, b] = await w.pair();
        expect(await a.claim('k', me('a'))).toBe('claimed');
        expect(await b.claim('k', me('b'))).toEqual(me('a'));
        await a.endRun('a');
        expect(await b.claim('k', me('b'))).toBe('claimed');
      });

      it(
        'a holder beats while it holds a claim, so a waiter elsewhere never takes a live claim over',
        async () => {
          const s = await w.open();
          expect(await s.claim('k', me('a'))).toBe('claimed');
          const before = (await s.shared()).find((e) => e.id === 'k')?.seenAt ?? 0;
          await new Promise((r) => setTimeout(r, HEARTBEAT_MS + 1500));
          const after = (await s.shared()).find((e) => e.id === 'k')?.seenAt ?? 0;
          expect(after).toBeGreaterThan(before);
        },
        HEARTBEAT_MS + 10_000,
      );

      it('store doctor lists claims, reservations and paces with their state and clears only the stuck ones', async () => {
        const s = await w.open();
        await s.claim('live', me('a'));
        await s.claim('dead', { run: 'dead', pid: deadPid(), host: hostname() });
        await s.claim('far', elsewhere('far'));
        await age(s, 'claims', -(SILENT_MS + 1000));
        expect(
          await s.reserve(
            { profile: 'default', worstMilli: 10, now: T0, daily: { limitMilli: 1000, since: 0 } },
            { run: 'gone', pid: deadPid(), host: hostname() },
          ),
        ).toBeUndefined();
        await s.pace('acct').take(100, 0, T0);
        await s.pace('skewed').take(100, 0, T0);
        await (s as unknown as { d: Dialect }).d.batch('write', [
          { sql: 'UPDATE pace SET tat = tat + ? WHERE account = ?', params: [DAY, 'skewed'] },
        ]);
        const states = Object.fromEntries((await s.shared()).map((e) => [`${e.kind}:${e.id}`, e.state]));
        expect(states).toEqual({
          'claim:live': 'live',
          'claim:dead': 'dead',
          'claim:far': 'silent',
          'reservation:gone': 'dead',
          'pace:acct': 'live',
          'pace:skewed': 'ahead',
        });
        expect(await s.doctor({ dryRun: true })).toMatchObject({ stuck: 4, cleared: 0 });
        expect((await s.shared()).length).toBe(6);
        expect(await s.doctor()).toMatchObject({ stuck: 4, cleared: 4 });
        const left = Object.fromEntries((await s.shared()).map((e) => [`${e.kind}:${e.id}`, e.state]));
        expect(left).toEqual({ 'claim:live': 'live', 'pace:acct': 'live', 'pace:skewed': 'live' });
      });
    });

    describe('budgets', () => {
      const daily = (worstMilli: number, now = T0): BudgetCheck => ({
        profile: 'default',
        worstMilli,
        now,
        daily: { limitMilli: 1000, since: now - (now % DAY) },
      });

      it('two connections to one store cannot reserve past one budget together', async () => {
        const [a, b] = await w.pair();
        const [ra, rb] = await Promise.all([a.reserve(daily(800), me('a')), b.reserve(daily(800), me('b'))]);
        const refused = [ra, rb].filter((r) => r !== undefined);
        expect(refused).toHaveLength(1);
        expect(refused[0]).toEqual({ period: 'daily', limitMilli: 1000, spentMilli: 0, reservedMilli: 800 });
      });

      it('reservations add up; what a run spent counts once (spent, not also reserved); an ended run frees the rest', async () => {
        const [a, b] = await w.pair();
        expect(await a.reserve(daily(400), me('a'))).toBeUndefined();
        expect(await b.reserve(daily(400), me('b'))).toBeUndefined();
        expect(await b.reserve(daily(400), me('c'))).toMatchObject({ reservedMilli: 800 });
        // Run a spends 300 of its 400: 300 spent + 100 still reserved by a + 400 by b.
        await a.logSpend(spend('a', 300));
        expect(await b.reserve(daily(201), me('c'))).toEqual({
          period: 'daily',
          limitMilli: 1000,
          spentMilli: 300,
          reservedMilli: 500,
        });
        expect(await b.reserve(daily(200), me('c'))).toBeUndefined();
        await b.endRun('c');
        await a.endRun('a');
        expect(await b.reserve(daily(300), me('d'))).toBeUndefined();
      });

      it('the reservation of a run on another host that fell silent is dropped within seconds, not hours', async () => {
        const s = await w.open();
        const far: Holder = { run: 'far', pid: 1, host: `${hostname()}-elsewhere` };
        expect(await s.reserve(daily(900), far)).toBeUndefined();
        expect(await s.reserve(daily(900), me('a'))).toMatchObject({ reservedMilli: 900 });
        await (s as unknown as { d: Dialect }).d.batch('write', [
          { sql: 'UPDATE runs SET seen_at = seen_at - ?', params: [SILENT_MS + 1000] },
        ]);
        expect(await s.reserve(daily(900), me('a'))).toBeUndefined();
      });

      it("the reservation of a dead process on this host is dropped; yesterday's spend does not count today", async () => {
        const s = await w.open();
        const dead = { run: 'dead', pid: deadPid(), host: hostname() };
        expect(await s.reserve(daily(900), dead)).toBeUndefined();
        await s.logSpend(spend('dead', 900, T0 - DAY));
        expect(await s.reserve(daily(1000), me('a'))).toBeUndefined();
      });

      it('a monthly budget counts the whole month', async () => {
        const s = await w.open();
        await s.logSpend(spend('x', 700, T0 - 5 * DAY));
        const monthly = (worstMilli: number): BudgetCheck => ({
          profile: 'default',
          worstMilli,
          now: T0,
          monthly: { limitMilli: 1000, since: T0 - 10 * DAY },
        });
        expect(await s.reserve(monthly(301), me('a'))).toEqual({
          period: 'monthly',
          limitMilli: 1000,
          spentMilli: 700,
          reservedMilli: 0,
        });
        expect(await s.reserve(monthly(300), me('a'))).toBeUndefined();
      });
    });

    describe('the shared pace', () => {
      /** Slots are kept in the database's clock and handed back in the caller's: a few ms pass between two takes. */
      const near = (got: number | undefined, want: number) => {
        expect(got).toBeGreaterThan(want - 250);
        expect(got).toBeLessThanOrEqual(want + 1);
      };

      it('two connections take consecutive slots of one pace', async () => {
        const [a, b] = await w.pair();
        near(await a.pace('acct').take(100, 0, T0), T0);
        near(await b.pace('acct').take(1000, 0, T0), T0 + 100);
        near(await a.pace('acct').take(100, 0, T0), T0 + 1100);
        // Another account has its own pace.
        near(await b.pace('other').take(100, 0, T0), T0);
        // A 429's wait pushes every later slot back.
        await b.pace('acct').delay(5000);
        near(await a.pace('acct').take(100, 0, T0), T0 + 5000);
      });

      it('a pace a wrong clock left a day ahead is repaired, not slept on', async () => {
        const s = await w.open();
        near(await s.pace('acct').take(100, 0, T0), T0);
        await (s as unknown as { d: Dialect }).d.batch('write', [
          { sql: 'UPDATE pace SET tat = tat + ?', params: [DAY] },
        ]);
        near(await s.pace('acct').take(100, 0, T0), T0);
        near(await s.pace('acct').take(100, 0, T0), T0 + 100);
      });

      it('a 429 cannot push the pace further than a wrong clock could', async () => {
        const s = await w.open();
        await s.pace('acct').delay(DAY);
        near(await s.pace('acct').take(100, 0, T0), T0 + AHEAD_MS);
      });
    });

    describe('one charge, one entry; copies add nothing twice', () => {
      it('a spend entry is logged once per origin (a commit retried after a lost answer)', async () => {
        const s = await w.open();
        await s.commit(answer('a'), ['a'], spend('r', 30, T0, 'r:a:1'));
        await s.commit(answer('a'), ['a'], spend('r', 30, T0, 'r:a:1'));
        await s.logSpend(spend('r', 50, T0, 'raw:1'));
        await s.logSpend(spend('r', 50, T0, 'raw:1'));
        await s.logSpend(spend('r', 50));
        await s.logSpend(spend('r', 50));
        expect((await all(s.spend({}))).map((e) => e.creditsMilli)).toEqual([30, 50, 50, 50]);
      });

      it('answers bought in the same millisecond list newest-written first; big numbers come back exactly', async () => {
        const s = await w.open();
        await s.commit(answer('first'), [], undefined);
        await s.commit(answer('second'), [], undefined);
        await s.commit(answer('first', { body: '{"followers":98765432109876543210}' }), [], undefined);
        expect((await all(s.list({}))).map((a) => a.key)).toEqual(['first', 'second']);
        expect((await s.answer('first', 0))?.body).toBe('{"followers":98765432109876543210}');
        expect((await s.answer('second', 0))?.body).toContain('12345678901234567890');
      });

      it('a store lists more answers than one slice holds, in order', async () => {
        const s = await w.open();
        for (let i = 0; i < 1203; i++) await s.commit(answer(`k${i}`, { boughtAt: T0 + i }), [], undefined);
        const keys = (await all(s.list({}))).map((a) => a.key);
        expect(keys).toHaveLength(1203);
        expect(keys[0]).toBe('k1202');
        expect(keys[1202]).toBe('k0');
        expect(new Set(keys).size).toBe(1203);
      });

      it('dump and load copy answers, their creators and the spend log; run twice (or after a stop) they add nothing twice', async () => {
        const [from, to] = [await w.open(), await w.open()];
        expect(await from.storeId()).toMatch(/^[0-9a-f]{32}$/);
        expect(await from.storeId()).not.toBe(await to.storeId());
        await from.commit(answer('ann'), ['ann'], spend('r', 30));
        await from.commit(answer('page', { kind: 'page', subject: null, records: 2 }), ['bob', 'cat'], spend('r', 40));
        await from.logSpend(spend('raw', 50));
        // The target already holds a newer answer for ann: it is kept.
        await to.commit(answer('ann', { boughtAt: T0 + DAY, body: '{"newer":true}' }), ['ann'], undefined);
        const copy = async () => {
          const answers = await from.dumpAnswers(undefined, 100);
          const entries = (await from.dumpSpend(undefined, 100)).map((x) => x.entry);
          return to.load(answers, entries);
        };
        expect(await copy()).toEqual({ answers: 1, spend: 3 });
        expect(await copy()).toEqual({ answers: 0, spend: 0 });
        expect((await to.answer('ann', 0))?.body).toBe('{"newer":true}');
        expect(await to.boughtCreators('http://127.0.0.1:1/', 'instagram', 0)).toEqual(['ann', 'bob', 'cat']);
        expect((await to.stats()).spend).toMatchObject({ entries: 3, creditsMilli: 120 });
        // Slices: after a key, after an entry.
        expect((await from.dumpAnswers('ann', 100)).map((r) => r.answer.key)).toEqual(['page']);
        const [first] = await from.dumpSpend(undefined, 1);
        expect((await from.dumpSpend(first?.id, 100)).map((x) => x.entry.creditsMilli)).toEqual([40, 50]);
      });

      it('two connections claiming one free key at once: exactly one gets it', async () => {
        const [a, b] = await w.pair();
        for (let i = 0; i < 20; i++) {
          const got = await Promise.all([a.claim(`k${i}`, me('a')), b.claim(`k${i}`, me('b'))]);
          expect(got.filter((g) => g === 'claimed')).toHaveLength(1);
        }
      });
    });
  });
}

describe("the README's sqlite3 query", () => {
  it('runs as printed against a store the CLI wrote (answers kept as JSON text, readable by the system sqlite3)', async () => {
    const { spawnSync } = await import('node:child_process');
    const { readFileSync } = await import('node:fs');
    const { BIN } = await import('../../helpers/spawn-cli.js');
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const query = readme
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('sqlite3 "$(creators store path)"'));
    expect(query).toBeDefined();
    const config = tempDir('creators-readme-sqlite3-');
    const s = (await openStore({ file: join(config, 'store', 'default.db'), env: {}, migrate: true })) as Store;
    await s.commit(
      answer('noah_paws', { body: '{"result":{"instagram":{"username":"noah_paws","follower_count":4668}}}' }),
      ['noah_paws'],
      spend('r', 30),
    );
    await s.commit(
      answer('mia_bakes', { body: '{"result":{"instagram":{"username":"mia_bakes","follower_count":91000}}}' }),
      ['mia_bakes'],
      spend('r2', 30),
    );
    await s.close();
    const r = spawnSync('bash', ['-c', `creators() { "${process.execPath}" "${BIN}" "$@"; }\n${query}`], {
      encoding: 'utf8',
      env: { ...process.env, CREATORS_CONFIG_DIR: config, CREATORS_STORE: '' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['mia_bakes|91000', 'noah_paws|4668']);
  });
});
