/**
 * Round trips between the CLI and a team store, counted on the wire by the bench's proxy (bench/pg-proxy.mjs):
 * a purchase makes at most 3 (the look and claim, the pace, the commit with the release), an answer reused from
 * the store none of its own (a bulk run reads each slice's answers in one statement). Measured as the bench does, from bulk runs of n and 2n handles, so the run's fixed cost is
 * taken out. A real PostgreSQL (CREATORS_TEST_PG_URL); skipped, saying why, without one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgProxy, type PgProxy } from '../../bench/pg-proxy.mjs';
import { startSandbox } from '../../src/sandbox/server.js';
import { freshPgDatabase, PG_SKIP, PG_URL } from '../helpers/pg.js';
import { ledgerMark } from '../reliability/helpers.js';
import { tempConfigDir } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe.skipIf(!PG_URL)(`round trips to a team store${PG_URL ? '' : ` (${PG_SKIP})`}`, () => {
  let sandbox: Sandbox;
  let proxy: PgProxy;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 35 });
    proxy = await startPgProxy(new URL(PG_URL as string));
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  /** Trips of a bulk enrichment of `handles` on a fresh store, then of the same run again (all reused). */
  async function runs(handles: string[]): Promise<{ buy: number; reuse: number }> {
    const url = await freshPgDatabase();
    const configDir = tempConfigDir();
    const env = sandboxEnv(sandbox, { CREATORS_CONFIG_DIR: configDir, CREATORS_RATE_LIMIT: '1000000' });
    expect((await spawnCli(['store', 'migrate', '--quiet'], { ...env, CREATORS_STORE: url })).code).toBe(0);
    const file = join(tempDir('creators-trips-'), 'handles.csv');
    writeFileSync(file, `handle\n${handles.join('\n')}\n`);
    const trips: number[] = [];
    for (const paid of [handles.length, 0]) {
      const mark = ledgerMark(sandbox);
      proxy.reset();
      const r = await spawnCli(
        [
          'enrich',
          'handle',
          '--platform',
          'instagram',
          '--input',
          file,
          '-o',
          join(configDir, `out-${paid}.csv`),
          '--quiet',
        ],
        { ...env, CREATORS_STORE: proxy.via(url) },
        undefined,
        60_000,
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(mark.since().count).toBe(paid);
      trips.push(proxy.counts.trips);
    }
    return { buy: trips[0] as number, reuse: trips[1] as number };
  }

  it('a purchase makes at most 3, a reused answer none of its own (read ahead with its slice), whatever the size of the run', async () => {
    const n = 6;
    const handles = creatorHandles(sandbox, 2 * n);
    const small = await runs(handles.slice(0, n));
    const large = await runs(handles);
    const perPurchase = (large.buy - small.buy) / n;
    const perReused = (large.reuse - small.reuse) / n;
    // The run's own trips (open, checks, end) are few and counted: the proxy saw the store at all.
    expect(small.buy - n * perPurchase).toBeGreaterThan(0);
    expect(perPurchase).toBeLessThanOrEqual(3);
    expect(perReused).toBe(0);
  }, 120_000);
});
