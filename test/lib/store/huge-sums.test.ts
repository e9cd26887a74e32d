/**
 * A store that already holds charges no route can make (written by a build that believed `credits_cost`
 * "5e15", i.e. 5e18 thousandths, twice: past int64 once summed) still reads: `store stats`, the spend log
 * and the budget check never fail with "integer overflow", on both engines. Never a mock of either database.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/lib/store/open.js';
import type { Store } from '../../../src/lib/store/types.js';
import { freshPgDatabase, PG_SKIP, PG_URL } from '../../helpers/pg.js';
import { all, answer, DAY, me, spend, T0 } from '../../helpers/store-records.js';
import { tempDir } from '../../helpers/temp.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const ENGINES: { name: string; skip: string | undefined; place(): Promise<string> }[] = [
  { name: 'sqlite', skip: undefined, place: async () => join(tempDir('creators-store-'), 'store.db') },
  { name: 'postgres', skip: PG_URL ? undefined : PG_SKIP, place: freshPgDatabase },
];

/** What an older build logged for an answer saying `"credits_cost": "5e15"`. */
const HUGE = 5e18;

for (const engine of ENGINES) {
  describe.skipIf(engine.skip !== undefined)(`${engine.name} engine${engine.skip ? ` (${engine.skip})` : ''}`, () => {
    it('sums past int64 (two 5e18 charges kept by an older build): stats, the spend log and budgets still answer', async () => {
      const s = (await openStore({ file: await engine.place(), env: {}, migrate: true })) as Store;
      opened.push(s);
      await s.commit(answer('a', { creditsMilli: HUGE }), ['a'], spend('old', HUGE, T0, 'old:a'));
      await s.commit(answer('b', { creditsMilli: HUGE }), ['b'], spend('old', HUGE, T0, 'old:b'));
      await s.logSpend(spend('new', 30, T0, 'new:1'));

      const stats = await s.stats();
      expect(stats.spend.entries).toBe(3);
      expect(stats.spend.creditsMilli).toBeGreaterThan(9.2e18);
      expect(stats.answers.find((a) => a.kind === 'creator')?.creditsMilli).toBeGreaterThan(9.2e18);

      const entries = await all(s.spend({ since: T0 - DAY }));
      expect(entries.map((e) => e.creditsMilli)).toEqual([HUGE, HUGE, 30]);

      // The day's spend is past any budget: refused with the figures, never an SQL error.
      const refusal = await s.reserve(
        { profile: 'default', worstMilli: 30, now: T0 + 1000, daily: { limitMilli: 2000, since: T0 - 1000 } },
        me('budgeted'),
      );
      expect(refusal?.period).toBe('daily');
      expect(refusal?.spentMilli).toBeGreaterThan(9.2e18);
    });
  });
}
