import { describe, expect, it } from 'vitest';
import { progressText } from '../../../src/lib/batch/status.js';
import { batchPhase, normaliseStatus } from '../../../src/lib/api/batch-status.js';
import { checkFinal } from '../../../src/lib/batch/poll.js';

describe('status vocabulary', () => {
  it.each([
    ['queued', 'pending'],
    ['validating', 'pending'],
    ['processing', 'pending'],
    ['running', 'pending'],
    ['RUNNING', 'pending'],
    ['finished', 'done'],
    ['completed', 'done'],
    ['failed', 'failed'],
    ['paused_insufficient_credits', 'paused'],
    ['something_new', 'pending'],
  ])('%s -> %s', (word, phase) => expect(batchPhase(word)).toBe(phase));

  it('normalises numbers from strings and keeps unknown fields', () => {
    const s = normaliseStatus(
      { batch_id: 'bch_1', status: 'processing', total_rows: '10', processed_rows: 4, credits_used: '0.120', extra: 1 },
      'x',
    );
    expect(s).toMatchObject({ phase: 'pending', total_rows: 10, processed_rows: 4, credits_used: 0.12, extra: 1 });
    expect(progressText(s)).toBe('processing, 4/10 rows (40%), 0.12 credits used');
    expect(normaliseStatus({}, 'bch_2')).toMatchObject({ batch_id: 'bch_2', status: 'unknown', total_rows: null });
  });

  it('checkFinal maps failed to exit 7 and paused to exit 5', () => {
    expect(() => checkFinal(normaliseStatus({ status: 'completed' }, 'b'))).not.toThrow();
    expect(() => checkFinal(normaliseStatus({ status: 'failed' }, 'b'))).toThrow(
      expect.objectContaining({ exitCode: 7 }),
    );
    expect(() => checkFinal(normaliseStatus({ status: 'paused_insufficient_credits' }, 'b'))).toThrow(
      expect.objectContaining({ exitCode: 5 }),
    );
  });
});
