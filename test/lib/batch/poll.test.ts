import { describe, expect, it } from 'vitest';
import { normaliseStatus } from '../../../src/lib/api/batch-status.js';
import { pollBatch } from '../../../src/lib/batch/poll.js';

describe('pollBatch', () => {
  const reading = (status: string) => normaliseStatus({ status, total_rows: 2, processed_rows: 1 }, 'bch_1');

  it('yields until a final reading, sleeping the interval between', async () => {
    const words = ['queued', 'running', 'completed'];
    const sleeps: number[] = [];
    const seen: string[] = [];
    let t = 0;
    for await (const s of pollBatch(async () => reading(words.shift() as string), {
      id: 'bch_1',
      intervalMs: 30_000,
      now: () => t,
      sleep: async (ms) => void sleeps.push((t += ms)),
    }))
      seen.push(s.status);
    expect(seen).toEqual(['queued', 'running', 'completed']);
    expect(sleeps).toHaveLength(2);
  });

  it('throws PendingError (exit 8) at the deadline, never sleeping past it', async () => {
    let t = 0;
    const sleeps: number[] = [];
    const run = async () => {
      for await (const _ of pollBatch(async () => reading('processing'), {
        id: 'bch_1',
        intervalMs: 4000,
        timeoutMs: 10_000,
        now: () => t,
        sleep: async (ms) => void (sleeps.push(ms), (t += ms)),
      }));
    };
    await expect(run()).rejects.toMatchObject({ exitCode: 8 });
    expect(sleeps).toEqual([4000, 4000, 2000]);
  });

  it('a sleep cut by Ctrl-C becomes exit 130 naming batch poll', async () => {
    const controller = new AbortController();
    const run = async () => {
      for await (const _ of pollBatch(async () => reading('processing'), {
        id: 'bch_9',
        intervalMs: 1000,
        now: () => 0,
        signal: controller.signal,
        sleep: async () => {
          controller.abort();
          throw new Error('aborted');
        },
      }));
    };
    await expect(run()).rejects.toMatchObject({
      exitCode: 130,
      hint: expect.stringContaining('creators batch poll bch_9'),
    });
  });
});
