/**
 * The `batch run` journal: the batch ids an input (sha256 + job options, base URL, profile) started, so a
 * re-run reattaches instead of paying for the same rows twice. One file per input, each under its own lock
 * for the whole run, so runs of different inputs never clobber or wait on each other. A create is recorded
 * as in flight before it is sent: a run killed before the reply leaves a mark. A damaged entry is never
 * taken as absent: it may have named a job already paid for.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { BusyError, CliError, EXIT } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-file.js';
import { describeFsError } from '../io/errno.js';
import { describeHolder, tryLock, type FileLock } from '../io/lock.js';

export const JOURNAL_DIR = 'batch-journal';

/** Entries older than this are removed by later runs. */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** A create request sent whose reply has not been seen. */
export interface InFlight {
  part: number;
  sent_at: string;
}

export interface JournalEntry {
  /** Batch id per part of the (possibly split) input; null for a part not uploaded yet. */
  batch_ids: Array<string | null>;
  input: string;
  created_at: string;
  updated_at: string;
  completed_at?: string | undefined;
  /** Set just before a create request is sent, cleared when its reply (or a clear refusal) arrives. */
  in_flight?: InFlight | undefined;
}

/** The journal key: input bytes and everything that changes what the job does or where it lives. */
export function journalKey(inputSha256: string, scope: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(scope)
      .sort()
      .map((k) => [k, scope[k]]),
  );
  return createHash('sha256').update(inputSha256).update('\n').update(canonical).digest('hex');
}

function isEntry(e: unknown): e is JournalEntry {
  return Boolean(e && typeof e === 'object' && Array.isArray((e as JournalEntry).batch_ids));
}

/** An entry that exists but cannot be read: `batch run` refuses it without --force. */
export interface DamagedEntry {
  damaged: true;
  file: string;
  why: string;
}

export function isDamaged(found: JournalEntry | DamagedEntry | undefined): found is DamagedEntry {
  return found !== undefined && 'damaged' in found;
}

/** The file's entry; undefined only when the file does not exist. */
async function readEntryFile(file: string): Promise<JournalEntry | DamagedEntry | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { damaged: true, file, why: describeFsError(err, 'read') };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return { damaged: true, file, why: text.trim() === '' ? 'it is empty' : 'it is not valid JSON' };
  }
  return isEntry(parsed) ? parsed : { damaged: true, file, why: 'it is not a journal entry' };
}

/** Read without locking (for a dry run, which changes nothing). */
export function readJournalEntry(dir: string, key: string): Promise<JournalEntry | DamagedEntry | undefined> {
  return readEntryFile(join(dir, JOURNAL_DIR, `${key}.json`));
}

export class LockedJournalEntry {
  private constructor(
    private readonly file: string,
    private readonly lock: FileLock,
    private readonly now: () => number,
    readonly found: JournalEntry | DamagedEntry | undefined,
  ) {}

  /**
   * Locks the entry of `key` in `dir` for this run and reads it. Throws BusyError (exit 9) naming the
   * other run when it holds the lock; nothing has been done then. `source` is the input as typed.
   */
  static async open(dir: string, key: string, source: string, now: () => number): Promise<LockedJournalEntry> {
    const folder = join(dir, JOURNAL_DIR);
    const lockPath = join(folder, `${key}.lock`);
    let attempt;
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      attempt = tryLock(lockPath);
    } catch (err) {
      throw new CliError(
        `Cannot lock the batch journal in '${folder}': ${describeFsError(err, 'write')}.`,
        EXIT.ERROR,
        { code: 'journal_lock_failed' },
      );
    }
    if (!attempt.acquired) {
      throw new BusyError(
        `Another \`creators batch run\` of ${source} with the same options is running (${describeHolder(attempt.holder)}); nothing was done.`,
        {
          hint: `Let it finish: it creates (or reattaches to) the job and writes the results. If no such run is going, remove ${lockPath}.`,
        },
      );
    }
    try {
      const found = await readJournalEntry(dir, key);
      await prune(folder, key);
      return new LockedJournalEntry(join(folder, `${key}.json`), attempt.lock, now, found);
    } catch (err) {
      attempt.lock.release();
      throw err;
    }
  }

  /** Writes the entry (durably: it is what keeps a re-run from paying twice, even after a power cut). */
  async save(entry: JournalEntry): Promise<void> {
    const data = { ...entry, updated_at: new Date(this.now()).toISOString() };
    if (data.in_flight === undefined) delete data.in_flight;
    await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  }

  release(): void {
    this.lock.release();
  }
}

/** Ages are file times, so they are compared with the wall clock, not the injected one. */
async function prune(folder: string, keep: string): Promise<void> {
  const now = Date.now();
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.json') || name === `${keep}.json`) continue;
    const file = join(folder, name);
    try {
      if (now - (await stat(file)).mtimeMs < MAX_AGE_MS) continue;
      const attempt = tryLock(join(folder, `${name.slice(0, -'.json'.length)}.lock`));
      if (!attempt.acquired) continue;
      try {
        await unlink(file);
      } finally {
        attempt.lock.release();
      }
    } catch {
      // Best effort: an old entry left behind costs nothing.
    }
  }
}
