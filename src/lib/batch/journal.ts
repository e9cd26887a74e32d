/**
 * The `batch run` journal: a small JSON file in the config directory remembering which batch ids a
 * given input (its sha256 plus the job options, base URL and profile) started. A re-run after a
 * crash, a timeout or Ctrl-C finds them and reattaches instead of paying for the same rows twice.
 * Written atomically (temp file, fsync, rename), so a crash mid-write never corrupts it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomic-file.js';

export const JOURNAL_FILE = 'batch-journal.json';

/** Entries older than this are dropped when the journal is written. */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

export interface JournalEntry {
  /** Batch id per part of the (possibly split) input; null for a part not uploaded yet. */
  batch_ids: Array<string | null>;
  input: string;
  created_at: string;
  updated_at: string;
  completed_at?: string | undefined;
}

interface JournalFile {
  version: 1;
  entries: Record<string, JournalEntry>;
}

/** The journal key: input bytes and everything that changes what the job does or where it lives. */
export function journalKey(inputSha256: string, scope: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.keys(scope).sort().map((k) => [k, scope[k]]));
  return createHash('sha256').update(inputSha256).update('\n').update(canonical).digest('hex');
}

export class Journal {
  private constructor(
    private readonly path: string,
    private data: JournalFile,
    private readonly now: () => number,
  ) {}

  /** Opens the journal in `dir`; a missing or unreadable file is an empty journal. */
  static async open(dir: string, now: () => number): Promise<Journal> {
    const path = join(dir, JOURNAL_FILE);
    let data: JournalFile = { version: 1, entries: {} };
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as JournalFile;
      if (parsed && typeof parsed === 'object' && parsed.entries && typeof parsed.entries === 'object') data = parsed;
    } catch {
      // No journal yet (or a damaged one, which is only a cache of ids: start afresh).
    }
    return new Journal(path, data, now);
  }

  get(key: string): JournalEntry | undefined {
    return this.data.entries[key];
  }

  /** Records (or replaces) the entry for `key` and writes the file. */
  async set(key: string, entry: JournalEntry): Promise<void> {
    this.data.entries[key] = { ...entry, updated_at: new Date(this.now()).toISOString() };
    await this.save();
  }

  async delete(key: string): Promise<void> {
    delete this.data.entries[key];
    await this.save();
  }

  private async save(): Promise<void> {
    const cutoff = this.now() - MAX_AGE_MS;
    for (const [k, e] of Object.entries(this.data.entries)) {
      if (Date.parse(e.updated_at) < cutoff) delete this.data.entries[k];
    }
    const dir = join(this.path, '..');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // Private like the rest of the config directory. Durable: the journal is what keeps a re-run
    // after a crash from paying for the same rows twice, so it must survive a power cut too.
    await writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
  }
}
