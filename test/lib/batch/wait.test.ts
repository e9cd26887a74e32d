import { describe, expect, it } from 'vitest';
import { waitSettings } from '../../../src/lib/batch/wait.js';

describe('waitSettings', () => {
  it('defaults: every 30 s, no limit', () => {
    expect(waitSettings({})).toEqual({ intervalMs: 30_000 });
  });

  it('--max-wait is the whole wait', () => {
    expect(waitSettings({ interval: '2', maxWait: '90' })).toEqual({ intervalMs: 2000, maxWaitMs: 90_000 });
  });

  it.each([
    [{ interval: '0' }, "Invalid --interval '0'"],
    [{ maxWait: 'soon' }, "Invalid --max-wait 'soon'"],
  ])('refuses %j (exit 2)', (flags, message) => {
    expect(() => waitSettings(flags)).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining(message) }));
  });
});
