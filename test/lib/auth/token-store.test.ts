import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../src/lib/config.js';
import { AuthError, NetworkError } from '../../../src/lib/errors.js';
import {
  ensureFreshLogin,
  lockPath,
  readLogin,
  saveLogin,
  STALE_LOCK_MS,
  type RefreshDeps,
} from '../../../src/lib/auth/token-store.js';
import { withLock as sharedWithLock } from '../../../src/lib/io/lock.js';
import type { TokenResponse } from '../../../src/lib/auth/oauth.js';
import { tempConfigDir } from '../../helpers/run-cli.js';

const NOW = 1_800_000_000_000;

async function setup(expiresIn = 30_000) {
  const configDir = tempConfigDir();
  const open = () => ConfigStore.open({ env: {}, configDir }, 'default');
  const store = await open();
  saveLogin(store, { access_token: 'at_0', refresh_token: 'rt_0', client_id: 'c1', expires_at: NOW + expiresIn });
  return { store, open };
}

/** A fake token endpoint with the server's rotation: a refresh token works once. */
function fakeServer() {
  let n = 0;
  const live = new Set(['rt_0']);
  const calls: string[] = [];
  const refresh = async (login: { refresh_token?: string | undefined }): Promise<TokenResponse> => {
    calls.push(login.refresh_token as string);
    await new Promise((r) => setTimeout(r, 5));
    if (!live.delete(login.refresh_token as string))
      throw new AuthError('Could not refresh the login (HTTP 400): invalid_grant.', { code: 'invalid_grant' });
    n += 1;
    live.add(`rt_${n}`);
    return { access_token: `at_${n}`, refresh_token: `rt_${n}`, expires_in: 3600 };
  };
  return { refresh, calls };
}

function deps(store: ConfigStore, refresh: RefreshDeps['refresh']): RefreshDeps {
  return { store, now: () => NOW, sleep: async () => {}, refresh };
}

describe('ensureFreshLogin', () => {
  it('returns a token with time left as is', async () => {
    const { store } = await setup(10 * 60_000);
    const server = fakeServer();
    expect((await ensureFreshLogin(deps(store, server.refresh))).access_token).toBe('at_0');
    expect(server.calls).toEqual([]);
  });

  it('refreshes within the margin and saves the rotated pair', async () => {
    const { store } = await setup();
    const server = fakeServer();
    const login = await ensureFreshLogin(deps(store, server.refresh));
    expect(login).toMatchObject({
      access_token: 'at_1',
      refresh_token: 'rt_1',
      client_id: 'c1',
      expires_at: NOW + 3600_000,
    });
    expect(readLogin(store)?.access_token).toBe('at_1');
    expect(existsSync(lockPath(store))).toBe(false);
  });

  it('two stores (two processes) refreshing at once: one refresh, both get the new pair', async () => {
    const { store, open } = await setup();
    const other = await open();
    const server = fakeServer();
    const [a, b] = await Promise.all([
      ensureFreshLogin(deps(store, server.refresh)),
      ensureFreshLogin(deps(other, server.refresh)),
    ]);
    expect(server.calls).toEqual(['rt_0']);
    expect(a.access_token).toBe('at_1');
    expect(b.access_token).toBe('at_1');
  });

  it('a 401 on the current token forces a refresh; on an older one it does not', async () => {
    const { store } = await setup(10 * 60_000);
    const server = fakeServer();
    expect((await ensureFreshLogin(deps(store, server.refresh), { rejected: 'at_0' })).access_token).toBe('at_1');
    expect((await ensureFreshLogin(deps(store, server.refresh), { rejected: 'at_0' })).access_token).toBe('at_1');
    expect(server.calls).toEqual(['rt_0']);
  });

  it('invalid_grant becomes "log in again" (exit 4)', async () => {
    const { store } = await setup();
    const err = await ensureFreshLogin(
      deps(store, async () => {
        throw new AuthError('Could not refresh the login (HTTP 400): invalid_grant.', { code: 'invalid_grant' });
      }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).message).toMatch(/expired or was revoked/);
    expect((err as AuthError).hint).toMatch(/creators login/);
  });

  it('a network failure keeps a token that is close to expiry but still valid', async () => {
    const { store } = await setup(30_000);
    const login = await ensureFreshLogin(
      deps(store, async () => {
        throw new NetworkError('Cannot connect');
      }),
    );
    expect(login.access_token).toBe('at_0');
  });

  it('without a refresh token an expiring login asks to log in again', async () => {
    const { store } = await setup();
    saveLogin(store, { access_token: 'at_0', expires_at: NOW });
    await expect(ensureFreshLogin(deps(store, fakeServer().refresh))).rejects.toThrow(/cannot be refreshed/);
  });
});

/** The login's use of the one lock: stale after 30 s unrenewed, renewed every `renewEveryMs`. */
function withLock<T>(
  path: string,
  ports: { sleep: () => Promise<void> },
  fn: () => Promise<T>,
  renewEveryMs?: number,
): Promise<T> {
  return sharedWithLock(
    path,
    ports,
    { staleAfterMs: STALE_LOCK_MS, waitMs: 2 * STALE_LOCK_MS, renewEveryMs, timedOut: () => new Error('timed out') },
    fn,
  );
}

describe('the login lock', () => {
  it('renews the lock while held, so a slow refresh is not taken for a crashed one', async () => {
    const { store } = await setup();
    const path = lockPath(store);
    const at = () => (JSON.parse(readFileSync(path, 'utf8')) as { at: number; pid: number }).at;
    const result = await withLock(
      path,
      { sleep: async () => {} },
      async () => {
        const first = at();
        // Wait (on real renewals, every 5 ms here) until the time in the lock moves on.
        while (at() === first) await new Promise((r) => setTimeout(r, 5));
        expect(at()).toBeGreaterThan(first);
        expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
        return 'ran';
      },
      5,
    );
    expect(result).toBe('ran');
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a lock left by a dead process', async () => {
    const { store } = await setup();
    const path = lockPath(store);
    writeFileSync(
      path,
      JSON.stringify({ id: 'x', pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), at: Date.now() }),
    );
    expect(await withLock(path, { sleep: async () => {} }, async () => 'ran')).toBe('ran');
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a lock of a pid reused after a reboot and a dangling symbolic link at once (the one lock, lib/io/lock.ts)', async () => {
    const { store } = await setup();
    const path = lockPath(store);
    // pid 1 always runs; this lock, fresh by its time, was written before the machine last booted.
    writeFileSync(
      path,
      JSON.stringify({
        id: 'x',
        pid: 1,
        host: (await import('node:os')).hostname(),
        at: Date.now(),
        boot: 'an-earlier-boot',
      }),
    );
    expect(await withLock(path, { sleep: async () => {} }, async () => 'ran')).toBe('ran');
    symlinkSync(`${path}.gone`, path);
    expect(await withLock(path, { sleep: async () => {} }, async () => 'ran')).toBe('ran');
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a lock older than the stale timeout', async () => {
    const { store } = await setup();
    const path = lockPath(store);
    writeFileSync(path, JSON.stringify({ id: 'x', pid: process.pid, host: 'elsewhere', at: Date.now() - 60_000 }));
    expect(await withLock(path, { sleep: async () => {} }, async () => 'ran')).toBe('ran');
  });
});
