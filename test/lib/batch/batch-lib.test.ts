import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { multipartBody } from '../../../src/lib/batch/multipart.js';
import { batchPhase, normaliseStatus, progressText } from '../../../src/lib/batch/status.js';
import { checkFinal, pollBatch } from '../../../src/lib/batch/poll.js';
import { Journal, journalKey } from '../../../src/lib/batch/journal.js';
import { boundaryOf, parseMultipart } from '../../../src/sandbox/batch/multipart.js';
import { tempDir, writeCsv } from '../../commands/batch/helpers.js';

describe('status vocabulary', () => {
  it.each([
    ['queued', 'pending'], ['validating', 'pending'], ['processing', 'pending'], ['running', 'pending'], ['RUNNING', 'pending'],
    ['finished', 'done'], ['completed', 'done'], ['failed', 'failed'], ['paused_insufficient_credits', 'paused'], ['something_new', 'pending'],
  ])('%s -> %s', (word, phase) => expect(batchPhase(word)).toBe(phase));

  it('normalises numbers from strings and keeps unknown fields', () => {
    const s = normaliseStatus({ batch_id: 'bch_1', status: 'processing', total_rows: '10', processed_rows: 4, credits_used: '0.120', extra: 1 }, 'x');
    expect(s).toMatchObject({ phase: 'pending', total_rows: 10, processed_rows: 4, credits_used: 0.12, extra: 1 });
    expect(progressText(s)).toBe('processing, 4/10 rows (40%), 0.12 credits used');
    expect(normaliseStatus({}, 'bch_2')).toMatchObject({ batch_id: 'bch_2', status: 'unknown', total_rows: null });
  });

  it('checkFinal maps failed to exit 7 and paused to exit 5', () => {
    expect(() => checkFinal(normaliseStatus({ status: 'completed' }, 'b'))).not.toThrow();
    expect(() => checkFinal(normaliseStatus({ status: 'failed' }, 'b'))).toThrow(expect.objectContaining({ exitCode: 7 }));
    expect(() => checkFinal(normaliseStatus({ status: 'paused_insufficient_credits' }, 'b'))).toThrow(expect.objectContaining({ exitCode: 5 }));
  });
});

describe('pollBatch', () => {
  const reading = (status: string) => normaliseStatus({ status, total_rows: 2, processed_rows: 1 }, 'bch_1');

  it('yields until a final reading, sleeping the interval between', async () => {
    const words = ['queued', 'running', 'completed'];
    const sleeps: number[] = [];
    const seen: string[] = [];
    let t = 0;
    for await (const s of pollBatch(async () => reading(words.shift() as string), { id: 'bch_1', intervalMs: 30_000, now: () => t, sleep: async (ms) => void sleeps.push((t += ms)) })) seen.push(s.status);
    expect(seen).toEqual(['queued', 'running', 'completed']);
    expect(sleeps).toHaveLength(2);
  });

  it('throws PendingError (exit 8) at the deadline, never sleeping past it', async () => {
    let t = 0;
    const sleeps: number[] = [];
    const run = async () => {
      for await (const _ of pollBatch(async () => reading('processing'), { id: 'bch_1', intervalMs: 4000, timeoutMs: 10_000, now: () => t, sleep: async (ms) => void (sleeps.push(ms), (t += ms)) }));
    };
    await expect(run()).rejects.toMatchObject({ exitCode: 8 });
    expect(sleeps).toEqual([4000, 4000, 2000]);
  });

  it('a sleep cut by Ctrl-C becomes exit 130 naming batch poll', async () => {
    const controller = new AbortController();
    const run = async () => {
      for await (const _ of pollBatch(async () => reading('processing'), {
        id: 'bch_9', intervalMs: 1000, now: () => 0, signal: controller.signal,
        sleep: async () => {
          controller.abort();
          throw new Error('aborted');
        },
      }));
    };
    await expect(run()).rejects.toMatchObject({ exitCode: 130, hint: expect.stringContaining('creators batch poll bch_9') });
  });
});

describe('multipart body', () => {
  it('streams fields and the file with an exact Content-Length, and parses back', async () => {
    const file = writeCsv(tempDir(), 'p.csv', ['handle', 'a', 'b']);
    const body = await multipartBody([['enrichment_mode', 'raw'], ['metadata', '{"a":1}']], { field: 'file', filename: 'batch.csv', contentType: 'text/csv', path: file });
    const buf = Buffer.from(await text(body.stream()));
    expect(buf.length).toBe(body.length);
    const parts = parseMultipart(buf, boundaryOf(body.contentType) as string)!;
    expect(parts.map((p) => p.name)).toEqual(['enrichment_mode', 'metadata', 'file']);
    expect(parts[2]).toMatchObject({ filename: 'batch.csv', contentType: 'text/csv' });
    expect(parts[2]!.data.toString()).toBe(readFileSync(file, 'utf8'));
    // A second stream is a fresh copy (retries need one).
    expect(await text(body.stream())).toBe(buf.toString());
  });
});

describe('journal', () => {
  it('keys on input hash and options, persists atomically and forgets nothing it was told', async () => {
    const dir = tempDir();
    const k1 = journalKey('abc', { mode: 'raw', platform: 'instagram' });
    expect(journalKey('abc', { platform: 'instagram', mode: 'raw' })).toBe(k1);
    expect(journalKey('abd', { mode: 'raw', platform: 'instagram' })).not.toBe(k1);
    expect(journalKey('abc', { mode: 'raw', platform: 'tiktok' })).not.toBe(k1);
    const now = () => Date.parse('2026-11-22T10:00:00Z');
    const j = await Journal.open(dir, now);
    await j.set(k1, { batch_ids: ['bch_1'], input: 'in.csv', created_at: 'x', updated_at: 'x' });
    const again = await Journal.open(dir, now);
    expect(again.get(k1)?.batch_ids).toEqual(['bch_1']);
    expect((statSync(join(dir, 'batch-journal.json')).mode & 0o777).toString(8)).toBe('600');
  });

  it('treats a damaged journal as empty', async () => {
    const dir = tempDir();
    writeCsv(dir, 'batch-journal.json', ['{not json']);
    expect((await Journal.open(dir, Date.now)).get('k')).toBeUndefined();
  });
});
