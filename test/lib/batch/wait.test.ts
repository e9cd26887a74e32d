import { describe, expect, it } from 'vitest';
import { waitSettings } from '../../../src/lib/batch/wait.js';

describe('waitSettings', () => {
  it('defaults: every 30 s, no limit', () => {
    expect(waitSettings({})).toEqual({ intervalMs: 30_000 });
  });

  it('--max-wait is the whole wait', () => {
    expect(waitSettings({ interval: 2, maxWait: 90 })).toEqual({ intervalMs: 2000, maxWaitMs: 90_000 });
  });
});
