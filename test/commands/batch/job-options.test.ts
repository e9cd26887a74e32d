import { describe, expect, it } from 'vitest';
import { parseJobOptions } from '../../../src/commands/batch/job-options.js';
import { wireFields } from '../../../src/lib/batch/options.js';

describe('parseJobOptions', () => {
  it('asks the platform port for handle modes (flag, else the profile setting), with why', async () => {
    const asked: unknown[] = [];
    const ports = {
      platform: async (flag: string | undefined, allowed: readonly string[], why: string) => (
        asked.push([flag, allowed.includes('twitch'), why]), 'tiktok'
      ),
    };
    const job = await parseJobOptions({ mode: 'FULL', audience: true, metadata: ['a.b=1'] }, ports);
    expect(asked).toEqual([[undefined, true, 'for --mode full']]);
    expect(job).toMatchObject({
      mode: 'full',
      kind: 'handle',
      platform: 'tiktok',
      audience: true,
      lookalikes: false,
      metadata: { a: { b: 1 } },
    });
    expect(wireFields(job)).toEqual([
      ['enrichment_mode', 'full'],
      ['platform', 'tiktok'],
      ['include_lookalikes', 'false'],
      ['include_audience_data', 'true'],
      ['metadata', '{"a":{"b":1}}'],
    ]);
  });

  it('email modes never ask for a platform and refuse the handle flags', async () => {
    const ports = {
      platform: async (): Promise<string> => {
        throw new Error('not asked');
      },
    };
    expect(await parseJobOptions({ mode: 'basic', column: 'Work email' }, ports)).toEqual({
      mode: 'basic',
      kind: 'email',
      audience: false,
      lookalikes: false,
      column: 'Work email',
    });
    await expect(
      parseJobOptions({ mode: 'advanced', platform: 'youtube', lookalikes: true }, ports),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: '--platform, --lookalikes apply to handle modes (raw, full), not --mode advanced.',
    });
  });
});
