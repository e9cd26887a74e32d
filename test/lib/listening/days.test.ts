import { describe, expect, it } from 'vitest';
import { campaignDuration, remainingDays } from '../../../src/lib/listening/days.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('remainingDays (campaign add-creators / resume estimates)', () => {
  it('counts from today to end_date', () => {
    expect(remainingDays({ days: 10, start_date: '2026-11-22', end_date: '2026-12-02' }, NOW)).toBe(10);
    expect(remainingDays({ days: 10, start_date: '2026-11-18', end_date: '2026-11-28' }, NOW)).toBe(6);
    expect(remainingDays({ days: 10, end_date: '2026-12-02T10:00:00Z' }, NOW)).toBe(10);
  });

  it('never more than days (client clock behind the server) and at least 1 (ended, or clock ahead)', () => {
    expect(remainingDays({ days: 10, end_date: '2026-12-02' }, Date.parse('2026-01-01T00:00:00Z'))).toBe(10);
    expect(remainingDays({ days: 10, end_date: '2026-11-20' }, NOW)).toBe(1);
    expect(remainingDays({ days: 10, end_date: '2026-11-22' }, NOW)).toBe(1);
  });

  it('days when there is no end date; undefined (per day) when open-ended', () => {
    expect(remainingDays({ days: 30, end_date: null }, NOW)).toBe(30);
    expect(remainingDays({ days: '30' }, NOW)).toBe(30);
    expect(remainingDays({ days: null, end_date: null }, NOW)).toBeUndefined();
    expect(remainingDays({}, NOW)).toBeUndefined();
    expect(remainingDays({ end_date: '2026-11-25' }, NOW)).toBe(3);
  });

  it('campaignDuration notes where the days came from', () => {
    expect(campaignDuration({ days: 10, end_date: '2026-12-02' }, '3', NOW)).toEqual({
      days: 10,
      note: 'days left in campaign 3, ends 2026-12-02',
    });
    expect(campaignDuration({ days: null }, '3', NOW)).toEqual({});
  });
});
