import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, journalKey } from '../../../src/lib/batch/journal.js';
import { tempDir, writeCsv } from '../../commands/batch/helpers.js';

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
