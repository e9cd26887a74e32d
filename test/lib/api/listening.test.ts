import { describe, expect, it } from 'vitest';
import { WORST_CASE_MILLI } from '../../../src/contract/prices.js';
import {
  addCreatorsPlan,
  createPlan,
  deletePlan,
  monitoringCost,
  RecentIds,
  removeCreatorsPlan,
  updatePlan,
} from '../../../src/lib/api/listening.js';

const perDay = WORST_CASE_MILLI.monitoringPerCreatorDay;

describe('listening plans', () => {
  it('monitoring is creators x days x the daily price; open-ended is one day; unknown creators are null', () => {
    expect(monitoringCost({ creators: 3, days: 30 })).toEqual({
      worstCaseMilli: 3 * 30 * perDay,
      costBasis: '3 creators x 30 days x 0.3',
    });
    expect(monitoringCost({ creators: 2, days: 6, daysNote: 'days left in campaign 4' }).costBasis).toBe(
      '2 creators x 6 days x 0.3 (days left in campaign 4)',
    );
    expect(monitoringCost({ creators: 2 })).toEqual({
      worstCaseMilli: 2 * perDay,
      costBasis: '2 creators x 0.3 per day, open-ended (one day checked)',
    });
    expect(monitoringCost({ creators: null, days: 5 }).worstCaseMilli).toBeNull();
  });

  it('each request is described with its method, path and body', () => {
    const body = { name: 'n', creators: [{ platform: 'instagram', platform_id: 'a' }] };
    expect(createPlan('campaign', body, { creators: 1, days: 2 })).toEqual({
      method: 'POST',
      path: 'social/listening/campaign/',
      body,
      worstCaseMilli: 2 * perDay,
      costBasis: '1 creator x 2 days x 0.3',
    });
    expect(updatePlan('subscription', '3', { name: 'x' })).toEqual({
      method: 'PATCH',
      path: 'social/listening/subscription/3/',
      body: { name: 'x' },
      worstCaseMilli: 0,
    });
    expect(updatePlan('subscription', '3', { status: 'active' }, { creators: 4 }).worstCaseMilli).toBe(4 * perDay);
    expect(addCreatorsPlan('subscription', '3', body, { creators: 1 })).toMatchObject({
      method: 'POST',
      path: 'social/listening/subscription/3/creators/',
      worstCaseMilli: perDay,
    });
    expect(removeCreatorsPlan('campaign', '2', body)).toEqual({
      method: 'DELETE',
      path: 'social/listening/campaign/2/creators/',
      body,
      worstCaseMilli: 0,
    });
    expect(deletePlan('campaign', '2')).toEqual({
      method: 'DELETE',
      path: 'social/listening/campaign/2/',
      worstCaseMilli: 0,
    });
  });
});

describe('RecentIds (events list --all: repeats dropped with flat memory)', () => {
  it('drops an id seen among the last `limit`, forgets older ones, whatever the count read', () => {
    const recent = new RecentIds(3);
    expect(['a', 'b', 'a', 'c'].map((id) => recent.add(id))).toEqual([true, true, false, true]);
    // 'd' pushes 'a' out: a window of three, not every id of the run.
    expect(recent.add('d')).toBe(true);
    expect(recent.add('a')).toBe(true);
    expect(recent.add('c')).toBe(false);
    for (let i = 0; i < 100_000; i++) recent.add(`x${i}`);
    expect(recent.add('x99999')).toBe(false);
    expect(recent.add('x0')).toBe(true);
  });
});
