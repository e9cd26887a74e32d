import { describe, expect, it } from 'vitest';
import { exitHoldsSettled, holdExit, pendingExitHolds } from '../../../src/lib/io/exit-holds.js';
import { ConfigStore } from '../../../src/lib/config.js';
import { ensureFreshLogin, readLogin, saveLogin } from '../../../src/lib/auth/token-store.js';
import { tempConfigDir } from '../../helpers/run-cli.js';

describe('exit holds (what a forced exit waits for)', () => {
  it('a hold is pending while its work runs and released when it settles, even by failing', async () => {
    let finish!: () => void;
    const work = holdExit('the thing', () => new Promise<number>((r) => (finish = () => r(7))));
    expect(pendingExitHolds()).toEqual(['the thing']);
    const settled = exitHoldsSettled();
    finish();
    expect(await work).toBe(7);
    await settled;
    expect(pendingExitHolds()).toEqual([]);
    await expect(holdExit('failing', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(pendingExitHolds()).toEqual([]);
  });

  it('a login refresh holds the exit from its request until the new pair is stored', async () => {
    const configDir = tempConfigDir();
    const store = await ConfigStore.open({ env: {}, configDir }, 'default');
    const now = 1_800_000_000_000;
    saveLogin(store, { access_token: 'at_0', refresh_token: 'rt_0', client_id: 'c1', expires_at: now + 30_000 });
    const seenDuringRefresh: string[][] = [];
    const login = await ensureFreshLogin({
      store,
      now: () => now,
      sleep: async () => {},
      refresh: async () => {
        seenDuringRefresh.push(pendingExitHolds());
        return { access_token: 'at_1', refresh_token: 'rt_1', expires_in: 3600 };
      },
    });
    expect(seenDuringRefresh).toEqual([['the refreshed login']]);
    expect(login.refresh_token).toBe('rt_1');
    expect(readLogin(store)?.refresh_token).toBe('rt_1');
    expect(pendingExitHolds()).toEqual([]);
  });
});
