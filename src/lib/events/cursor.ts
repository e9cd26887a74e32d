/**
 * The `events tail --cursor-file`: what has been printed (and forwarded) so far, so the next run
 * starts exactly after it. Event ids grow in creation order (they are integers assigned as events
 * are recorded), so "new" means an id above the watermark. Printing goes by occurrence, not by id,
 * so after an interrupted batch a few ids above the watermark may already be done: they are kept in
 * `done_ids` until the watermark passes them. The file is replaced atomically (temp, fsync, rename):
 * a crash leaves the old cursor or the new one, never half of one. A run that writes the cursor holds
 * `<cursor>.lock` (lib/io/lock.ts) for its whole length: two tails on one cursor (overlapping cron
 * runs) would otherwise both deliver every event.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BusyError, CliError, EXIT, UsageError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-file.js';
import { describeFsError } from '../io/errno.js';
import { describeHolder, tryLock, type FileLock } from '../io/lock.js';

export interface CursorData {
  version: 1;
  /** Every matching event with an id at or below this one has been handled. */
  last_id: number | null;
  /** `date_occurance` of the newest-occurring event handled (for people reading the file). */
  last_date: string | null;
  /** Ids above `last_id` already handled (an interrupted batch). */
  done_ids: number[];
  /** The filters the cursor was written with. */
  filters: Record<string, string>;
  saved_at: string;
}

/** The in-memory cursor. */
export class Cursor {
  watermark: number | undefined;
  lastDate: string | null;
  private readonly done: Set<number>;

  constructor(data?: Pick<CursorData, 'last_id' | 'last_date' | 'done_ids'>) {
    this.watermark = data?.last_id ?? undefined;
    this.lastDate = data?.last_date ?? null;
    this.done = new Set(data?.done_ids ?? []);
  }

  isNew(id: number): boolean {
    return (this.watermark === undefined || id > this.watermark) && !this.done.has(id);
  }

  /** Records one handled event. */
  markDone(id: number, date: string | null): void {
    this.done.add(id);
    if (date && (!this.lastDate || Date.parse(date) > Date.parse(this.lastDate))) this.lastDate = date;
  }

  /** After a whole batch was handled: the watermark moves to the highest id seen, nothing is pending. */
  completeBatch(ids: readonly number[]): void {
    const top = Math.max(this.watermark ?? -Infinity, ...ids, ...this.done);
    if (Number.isFinite(top)) this.watermark = top;
    this.done.clear();
  }

  toJSON(filters: Record<string, string>, now: number): CursorData {
    return {
      version: 1,
      last_id: this.watermark ?? null,
      last_date: this.lastDate,
      done_ids: [...this.done].filter((id) => this.watermark === undefined || id > this.watermark).sort((a, b) => a - b),
      filters,
      saved_at: new Date(now).toISOString(),
    };
  }
}

/** Reads a cursor file; a missing file is a first run, anything unreadable is a usage error (exit 2). */
export async function loadCursor(path: string): Promise<CursorData | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`Cannot read the cursor file '${path}': ${describeFsError(err)}.`);
  }
  const bad = (): UsageError =>
    new UsageError(`The cursor file '${path}' is not one written by 'creators events tail'.`, {
      hint: 'Fix or delete it (deleting starts over from the latest events).',
    });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw bad();
  }
  const d = data as Partial<CursorData>;
  const okId = d.last_id === null || (typeof d.last_id === 'number' && Number.isFinite(d.last_id));
  if (!data || typeof data !== 'object' || d.version !== 1 || !okId || !Array.isArray(d.done_ids)) throw bad();
  if (!d.done_ids.every((n) => typeof n === 'number')) throw bad();
  return {
    version: 1,
    last_id: d.last_id ?? null,
    last_date: typeof d.last_date === 'string' ? d.last_date : null,
    done_ids: d.done_ids,
    filters: d.filters && typeof d.filters === 'object' ? d.filters : {},
    saved_at: typeof d.saved_at === 'string' ? d.saved_at : '',
  };
}

/** Checks up front that the cursor file's folder exists, so a typo fails before anything is printed. */
export async function checkCursorPath(path: string): Promise<void> {
  try {
    const s = await stat(dirname(path));
    if (!s.isDirectory()) throw new Error('not a directory');
  } catch {
    throw new UsageError(`Cannot write the cursor file '${path}': its folder does not exist.`);
  }
}

/** Writes the cursor atomically: a temporary file in the same folder, fsync, rename over the target. */
export async function saveCursor(path: string, data: CursorData): Promise<void> {
  try {
    await writeFileAtomic(path, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  } catch (err) {
    throw new CliError(`Cannot write the cursor file '${path}': ${describeFsError(err, 'write')}.`, EXIT.ERROR, { code: 'cursor_write_failed' });
  }
}

/**
 * Locks the cursor file for this run (`<path>.lock` beside it). Throws BusyError (exit 9) naming the
 * other tail when it holds the lock: nothing has been read or delivered then. A lock left by a tail
 * that was killed is taken over.
 */
export function lockCursor(path: string): FileLock {
  const lockPath = `${path}.lock`;
  let attempt;
  try {
    attempt = tryLock(lockPath);
  } catch (err) {
    throw new CliError(`Cannot lock the cursor file '${path}': ${describeFsError(err, 'write')}.`, EXIT.ERROR, { code: 'cursor_lock_failed' });
  }
  if (attempt.acquired) return attempt.lock;
  throw new BusyError(`Another \`creators events tail\` is using the cursor file '${path}' (${describeHolder(attempt.holder)}); nothing was delivered.`, {
    hint: `Let it finish (a cron job overlapping the previous run?). If no such tail is running, remove ${lockPath}.`,
  });
}
