import { describe, expect, it } from 'vitest';
import { waitSettings } from '../../../src/lib/batch/wait.js';

describe('waitSettings', () => {
  const notices = () => {
    const warnings: string[] = [];
    return { warnings, warn: (m: string) => void warnings.push(m) };
  };

  it('defaults: every 30 s, no limit, status reads left to the HTTP client', () => {
    const n = notices();
    expect(waitSettings({}, 'poll', n)).toEqual({ intervalMs: 30_000 });
    expect(n.warnings).toEqual([]);
  });

  it('--max-wait is the whole wait; --timeout beside it is only the per-request timeout', () => {
    const n = notices();
    expect(waitSettings({ interval: 2, maxWait: 90, timeout: 5 }, 'poll', n)).toEqual({ intervalMs: 2000, maxWaitMs: 90_000 });
    expect(n.warnings).toEqual([]);
  });

  it('--timeout alone stands in for --max-wait, with one deprecation warning, status reads keeping 30 s', () => {
    const n = notices();
    expect(waitSettings({ timeout: 3600 }, 'run', n)).toEqual({ intervalMs: 30_000, maxWaitMs: 3_600_000, readTimeoutMs: 30_000 });
    expect(n.warnings).toEqual([
      '--timeout as the whole wait of `creators batch run` is deprecated: use --max-wait 3600 (--timeout is the per-request timeout, and will mean only that in the next release).',
    ]);
  });
});
