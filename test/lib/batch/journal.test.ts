import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BusyError } from '../../../src/lib/errors.js';
import {
  JOURNAL_DIR,
  journalKey,
  LockedJournalEntry,
  readJournalEntry,
  type JournalEntry,
} from '../../../src/lib/batch/journal.js';
import { tempDir } from '../../commands/batch/helpers.js';

const now = (): number => Date.parse('2026-11-22T10:00:00Z');
const entry = (ids: Array<string | null>) => ({ batch_ids: ids, input: 'in.csv', created_at: 'x', updated_at: 'x' });
/** The batch ids of an entry read back (undefined for none or a damaged one). */
const ids = (found: unknown): JournalEntry['batch_ids'] | undefined => (found as JournalEntry | undefined)?.batch_ids;

describe('journal', () => {
  it('keys on input hash and options, persists atomically (0600) and forgets nothing it was told', async () => {
    const dir = tempDir();
    const k1 = journalKey('abc', { mode: 'raw', platform: 'instagram' });
    expect(journalKey('abc', { platform: 'instagram', mode: 'raw' })).toBe(k1);
    expect(journalKey('abd', { mode: 'raw', platform: 'instagram' })).not.toBe(k1);
    expect(journalKey('abc', { mode: 'raw', platform: 'tiktok' })).not.toBe(k1);
    const j = await LockedJournalEntry.open(dir, k1, 'in.csv', now);
    expect(j.found).toBeUndefined();
    await j.save(entry(['bch_1']));
    j.release();
    expect(ids(await readJournalEntry(dir, k1))).toEqual(['bch_1']);
    expect((statSync(join(dir, JOURNAL_DIR, `${k1}.json`)).mode & 0o777).toString(8)).toBe('600');
    const again = await LockedJournalEntry.open(dir, k1, 'in.csv', now);
    expect(ids(again.found)).toEqual(['bch_1']);
    again.release();
    expect(readdirSync(join(dir, JOURNAL_DIR))).toEqual([`${k1}.json`]);
  });

  it('one input is locked for the run (exit 9, naming the holder); other inputs are not', async () => {
    const dir = tempDir();
    const held = await LockedJournalEntry.open(dir, 'k1', 'a.csv', now);
    const err = await LockedJournalEntry.open(dir, 'k1', 'a.csv', now).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BusyError);
    expect((err as BusyError).exitCode).toBe(9);
    expect((err as BusyError).message).toContain(
      `Another \`creators batch run\` of a.csv with the same options is running (process ${process.pid} on this machine, since `,
    );
    const other = await LockedJournalEntry.open(dir, 'k2', 'b.csv', now);
    await other.save(entry(['bch_2']));
    await held.save(entry(['bch_1']));
    other.release();
    held.release();
    expect(ids(await readJournalEntry(dir, 'k1'))).toEqual(['bch_1']);
    expect(ids(await readJournalEntry(dir, 'k2'))).toEqual(['bch_2']);
  });

  it('says an entry that exists but cannot be read is damaged (never none), and still reads the single journal file of earlier versions', async () => {
    const dir = tempDir();
    const j = await LockedJournalEntry.open(dir, 'k', 'in.csv', now);
    j.release();
    const file = join(dir, JOURNAL_DIR, 'k.json');
    expect(await readJournalEntry(dir, 'k')).toBeUndefined();
    for (const [text, why] of [
      ['{not json', 'it is not valid JSON'],
      ['', 'it is empty'],
      ['{"batch_ids": 3}', 'it is not a journal entry'],
      ['null', 'it is not a journal entry'],
    ] as const) {
      writeFileSync(file, text);
      expect(await readJournalEntry(dir, 'k')).toEqual({ damaged: true, file, why });
    }
    const locked = await LockedJournalEntry.open(dir, 'k', 'in.csv', now);
    expect(locked.found).toEqual({ damaged: true, file, why: 'it is not a journal entry' });
    locked.release();
    // The single shared journal file of pre-release builds is not read: 0.1.0 is the first release.
    writeFileSync(
      join(dir, 'batch-journal.json'),
      JSON.stringify({ version: 1, entries: { old: entry(['bch_old']) } }),
    );
    expect(await readJournalEntry(dir, 'old')).toBeUndefined();
  });

  it("removes other inputs' entries untouched for 30 days, but not one whose run holds its lock", async () => {
    const dir = tempDir();
    for (const k of ['old', 'busy', 'fresh']) {
      const j = await LockedJournalEntry.open(dir, k, `${k}.csv`, now);
      await j.save(entry(['bch']));
      j.release();
    }
    const longAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    utimesSync(join(dir, JOURNAL_DIR, 'old.json'), longAgo, longAgo);
    utimesSync(join(dir, JOURNAL_DIR, 'busy.json'), longAgo, longAgo);
    const busy = await LockedJournalEntry.open(dir, 'busy', 'busy.csv', now);
    const j = await LockedJournalEntry.open(dir, 'new', 'new.csv', now);
    j.release();
    busy.release();
    expect(existsSync(join(dir, JOURNAL_DIR, 'old.json'))).toBe(false);
    expect(readFileSync(join(dir, JOURNAL_DIR, 'busy.json'), 'utf8')).toContain('bch');
    expect(existsSync(join(dir, JOURNAL_DIR, 'fresh.json'))).toBe(true);
  });
});
