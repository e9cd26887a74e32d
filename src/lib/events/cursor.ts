/**
 * `events tail --cursor-file`: ids grow in creation order, so "new" is an id above the watermark. Printing
 * goes by occurrence (reorder.ts), so a few ids above it may be done already: they wait in `done_ids`. A
 * writing run holds `<cursor>.lock` throughout, or overlapping cron runs would both deliver every event.
 * Ids mean nothing on another server, profile or filters (the file would silently skip events there), so
 * a mismatch is a usage error unless `--cursor-reset`; a version 1 file names no server and is adopted.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BusyError, CliError, EXIT, UsageError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-file.js';
import { describeFsError } from '../io/errno.js';
import { describeHolder, tryLock, type FileLock } from '../io/lock.js';

export interface CursorIdentity {
  base_url: string;
  profile: string;
  filters: Record<string, string>;
}

export interface CursorData extends CursorIdentity {
  version: 2;
  /** Every matching event with an id at or below this one has been handled. */
  last_id: number | null;
  last_date: string | null;
  /** Ids above `last_id` already handled (printed ahead of an older one, or before a failed forward). */
  done_ids: number[];
  saved_at: string;
}

export type LoadedCursor = Omit<CursorData, 'version' | 'base_url' | 'profile'> & {
  base_url?: string;
  profile?: string;
  legacy: boolean;
};

export class Cursor {
  watermark: number | undefined;
  lastDate: string | null;
  /** Handled ids, some of them at or below the watermark already (pruned when the set doubles). */
  private readonly done: Set<number>;
  private pruneAt = 64;

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

  /** Every matching event at or below `id` is handled: the watermark moves up to it (never down). */
  advanceTo(id: number): void {
    if (this.watermark !== undefined && id <= this.watermark) return;
    this.watermark = id;
    if (this.done.size >= this.pruneAt) {
      for (const d of this.done) if (d <= id) this.done.delete(d);
      this.pruneAt = Math.max(64, this.done.size * 2);
    }
  }

  toJSON(identity: CursorIdentity, now: number): CursorData {
    const w = this.watermark;
    const done: number[] = [];
    for (const id of this.done) if (w === undefined || id > w) done.push(id);
    return {
      version: 2,
      base_url: identity.base_url,
      profile: identity.profile,
      filters: identity.filters,
      last_id: w ?? null,
      last_date: this.lastDate,
      done_ids: done.sort((a, b) => a - b),
      saved_at: new Date(now).toISOString(),
    };
  }
}

/** Reads a cursor file; a missing file is a first run, anything unreadable is a usage error (exit 2). */
export async function loadCursor(path: string): Promise<LoadedCursor | undefined> {
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
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw bad();
  const d = data as Omit<Partial<CursorData>, 'version'> & { version?: unknown };
  const okId = d.last_id === null || (typeof d.last_id === 'number' && Number.isInteger(d.last_id));
  if ((d.version !== 1 && d.version !== 2) || !okId || !Array.isArray(d.done_ids)) throw bad();
  if (!d.done_ids.every((n) => typeof n === 'number' && Number.isInteger(n))) throw bad();
  const filters =
    d.filters && typeof d.filters === 'object' && !Array.isArray(d.filters)
      ? (d.filters as Record<string, string>)
      : {};
  const legacy = d.version === 1;
  if (!legacy && (typeof d.base_url !== 'string' || typeof d.profile !== 'string')) throw bad();
  return {
    legacy,
    ...(legacy ? {} : { base_url: d.base_url as string, profile: d.profile as string }),
    last_id: d.last_id ?? null,
    last_date: typeof d.last_date === 'string' ? d.last_date : null,
    done_ids: d.done_ids,
    filters,
    saved_at: typeof d.saved_at === 'string' ? d.saved_at : '',
  };
}

export function describeIdentity(id: {
  base_url?: string | undefined;
  profile?: string | undefined;
  filters: Record<string, string>;
}): string {
  const filters = Object.keys(id.filters)
    .sort()
    .map((k) => `${k}=${id.filters[k]}`);
  return `${id.base_url ?? '(no server)'} (profile ${id.profile ?? '(none)'}, ${filters.length === 0 ? 'no filters' : `filters ${filters.join(' ')}`})`;
}

function sameFilters(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && String(a[k]) === String(b[k]));
}

/** How messages name the ways to start a cursor over: the words of the command that took them (its flags). */
export interface CursorNames {
  cursorReset: string;
  backlog: string;
}

const resetHint = (named: CursorNames): string =>
  `Use one cursor file per server, profile and filters, or add ${named.cursorReset} to start this one over here (from the latest events, as ${named.backlog} says).`;

/** A version 1 file is checked on its filters only; `adopted` tells the caller to say so once. */
export function checkCursorIdentity(
  path: string,
  loaded: LoadedCursor,
  current: CursorIdentity,
  named: CursorNames,
): { adopted: boolean } {
  const same =
    sameFilters(loaded.filters, current.filters) &&
    (loaded.legacy || (loaded.base_url === current.base_url && loaded.profile === current.profile));
  if (!same) {
    throw new UsageError(
      `The cursor file '${path}' was written for ${describeIdentity(loaded.legacy ? { ...loaded, base_url: current.base_url, profile: current.profile } : loaded)}, not ${describeIdentity(current)}; its position means nothing here.`,
      { hint: resetHint(named) },
    );
  }
  return { adopted: loaded.legacy };
}

/** A watermark beyond the server's newest event was written elsewhere (a reset server, a hand-edited file). */
export function cursorBeyondServer(
  path: string,
  watermark: number,
  newest: number | undefined,
  current: CursorIdentity,
  named: CursorNames,
): UsageError {
  const there = newest === undefined ? 'has no events' : `has none above id ${newest}`;
  return new UsageError(
    `The cursor file '${path}' has handled events up to id ${watermark}, but ${describeIdentity(current)} ${there}; it was not written against this server.`,
    { hint: resetHint(named) },
  );
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

export async function saveCursor(path: string, data: CursorData): Promise<void> {
  try {
    await writeFileAtomic(path, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  } catch (err) {
    throw new CliError(`Cannot write the cursor file '${path}': ${describeFsError(err, 'write')}.`, EXIT.ERROR, {
      code: 'cursor_write_failed',
    });
  }
}

/**
 * BusyError (exit 9) while another tail holds `<path>.lock`, before anything is read; a dead holder's lock is taken
 * over.
 */
export function lockCursor(path: string): FileLock {
  const lockPath = `${path}.lock`;
  let attempt;
  try {
    attempt = tryLock(lockPath);
  } catch (err) {
    throw new CliError(`Cannot lock the cursor file '${path}': ${describeFsError(err, 'write')}.`, EXIT.ERROR, {
      code: 'cursor_lock_failed',
    });
  }
  if (attempt.acquired) return attempt.lock;
  throw new BusyError(
    `Another \`creators events tail\` is using the cursor file '${path}' (${describeHolder(attempt.holder)}); nothing was delivered.`,
    {
      hint: `Let it finish (a cron job overlapping the previous run?). If no such tail is running, remove ${lockPath}.`,
    },
  );
}
