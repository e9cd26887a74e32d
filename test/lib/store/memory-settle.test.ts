/**
 * Paid answers a team store out of reach missed (lib/store/memory.ts `settle`): a real SQLite store
 * behind a stand-in that refuses commits as an unreachable server does (fault injection around a real
 * database, not a mock of one). The answer is returned all the same (it was paid for), nothing more is
 * bought, and at the end the missed answers are committed once the store answers again, or into the
 * local store, and one line says which.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from '../../../src/lib/errors.js';
import type { RequestOptions } from '../../../src/lib/http/client.js';
import { PurchaseMemoryImpl } from '../../../src/lib/store/memory.js';
import { openSqliteStore } from '../../../src/lib/store/sqlite.js';
import type { Store } from '../../../src/lib/store/types.js';
import { tempDir } from '../../helpers/temp.js';

const BASE = 'http://127.0.0.1:8787/';
const enrich = (handle: string): RequestOptions => ({
  method: 'POST',
  path: 'creators/enrich/handle/raw',
  body: { handle, platform: 'instagram' },
  purchase: { kind: 'creator', platform: 'instagram', subject: handle },
});
const send = (handle: string) => async () => ({ status: 200, headers: {}, data: { result: { instagram: { username: handle } }, credits_cost: 0.03 } as unknown, url: BASE });
const unreachable = () => new CliError('Cannot reach the team store at db:5432 (ECONNRESET).', EXIT.ERROR, { code: 'store_unreachable' });

/** A real store whose next `failures` commits fail as an unreachable server's would. */
async function flaky(failures: number): Promise<{ store: Store; real: Store; left: () => number }> {
  const real = await openSqliteStore({ file: join(tempDir('creators-settle-'), 'team.db') });
  let left = failures;
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'commit') {
        return async (...args: Parameters<Store['commit']>) => {
          if (left > 0) {
            left--;
            throw unreachable();
          }
          return target.commit(...args);
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, real, left: () => left };
}

function memoryOn(store: Store): PurchaseMemoryImpl {
  return new PurchaseMemoryImpl({ store, baseUrl: BASE, profile: 'default', command: 'enrich handle', maxAge: { creator: 86_400_000, page: 86_400_000 }, now: () => 1_800_000_000_000, sleep: async () => {} });
}

describe('answers a team store out of reach missed', () => {
  it('the paid answer is returned, nothing more is bought, and once the store answers it is committed with its charge (one line says so)', async () => {
    const { store, real } = await flaky(1);
    const m = memoryOn(store);
    const res = await m.request(enrich('ann'), send('ann'));
    expect(res.data).toMatchObject({ result: { instagram: { username: 'ann' } } });
    expect(m.failure).toBeInstanceOf(CliError);
    await expect(m.request(enrich('bob'), send('bob'))).rejects.toBe(m.failure);
    const line = await m.settle(async () => undefined);
    expect(line).toBe('The team store was out of reach for part of this run; 1 paid answer (instagram:ann) it missed is kept in it now.');
    expect((await real.stats()).answers[0]).toMatchObject({ kind: 'creator', count: 1 });
    expect((await real.stats()).spend).toMatchObject({ entries: 1, creditsMilli: 30 });
    // Said once: nothing left to settle.
    expect(await m.settle(async () => undefined)).toBeUndefined();
  });

  it('a store still out of reach: the answers go to the local store, named, with store push to copy them', async () => {
    const { store, real } = await flaky(100);
    const local = await openSqliteStore({ file: join(tempDir('creators-settle-'), 'local.db') });
    const m = memoryOn(store);
    await Promise.all(['ann', 'bob'].map((h) => m.request(enrich(h), send(h)).catch(() => undefined)));
    const line = await m.settle(async () => ({ store: local, where: '/home/me/.config/creators/store/default.db' }));
    expect(line).toMatch(/^The team store is out of reach: 2 paid answers \(instagram:(ann|bob), instagram:(ann|bob)\) are kept in the local store \/home\/me\/\.config\/creators\/store\/default\.db; `creators store push` copies them into the team store once it is back\.$/);
    expect((await local.stats()).spend).toMatchObject({ entries: 2, creditsMilli: 60 });
    expect((await real.stats()).answers).toEqual([]);
    // Pushed later, each charge is logged once in the team store, however often it is pushed.
    const entries = (await local.dumpSpend(undefined, 10)).map((x) => x.entry);
    expect(await real.load(await local.dumpAnswers(undefined, 10), entries)).toEqual({ answers: 2, spend: 2 });
    expect(await real.load(await local.dumpAnswers(undefined, 10), entries)).toEqual({ answers: 0, spend: 0 });
    await local.close();
    await real.close();
  });

  it('neither store takes them: the line says they are in the output only', async () => {
    const { store, real } = await flaky(100);
    const m = memoryOn(store);
    await m.request(enrich('ann'), send('ann'));
    expect(await m.settle(async () => undefined)).toBe('The team store is out of reach and the local store could not take it: 1 paid answer (instagram:ann) is in this run\'s output only.');
    await real.close();
  });
});
