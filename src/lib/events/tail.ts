/**
 * The `events tail` loop. A backlog streams through (pages oldest first, a reorder window, the cursor moving
 * with the lines delivered), so memory stays flat and a run stopped anywhere resumes where it was. Never a
 * silent hang: a passing failure (network, 5xx, 429) or a failed forward is reported and retried with
 * growing waits, the cursor kept before it. Ctrl-C hands over what was read, saves, and exits 130.
 */
import { ApiError, CliError, InterruptedError, NetworkError, RateLimitError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { Dispatcher } from 'undici';
import type { EventFilters, ListeningRecord } from '../api/listening.js';
import {
  checkCursorIdentity,
  Cursor,
  cursorBeyondServer,
  loadCursor,
  lockCursor,
  saveCursor,
  type CursorIdentity,
  type CursorNames,
} from './cursor.js';
import { eventId, newEvents, type EventChunk } from './fetch-new.js';
import { forwardEvent, ForwardError } from './forward.js';
import { ReorderWindow } from './reorder.js';
import { holdHeapSize } from '../io/heap.js';
import { backoffMs, pause as wait, POLICIES } from '../retry-policy.js';

export interface TailOptions {
  filters: EventFilters;
  pageSize: number;
  /** Without a cursor: how many of the latest events to start with (Infinity for all). */
  backlog: number;
  intervalMs: number;
  once: boolean;
  cursorFile?: string | undefined;
  forwardTo?: URL | undefined;
  forwardAttempts?: number;
  /** `--dry-run`: the cursor file is read, never written; nothing is forwarded. */
  dryRun?: boolean | undefined;
  server: { baseUrl: string; profile: string };
  cursorReset?: boolean | undefined;
  named: CursorNames;
}

export interface TailDeps {
  /** The HTTP client, built on first use. */
  http(): Promise<HttpClient>;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Hands one event over; it may be held until `flush`, which writes what is held in one write. */
  emit(event: ListeningRecord, forwardStatus: number | undefined): Promise<void>;
  flush?(): Promise<void>;
  warn(message: string): void;
  notice?(message: string): void;
  /** A failed forward attempt and the wait before the next, even with --quiet (default `warn`). */
  forwardStatus?(message: string): void;
}

/**
 * Events handed over in one write, the cursor saved after it: what a kill -9 may deliver twice. Each save
 * costs a disk flush (ext4 flushes a file renamed over another), about 3-10 ms here: 1% of 1,000 events' time.
 */
const EVENTS_PER_WRITE = 1_000;

/** Worth waiting out, with an answer that is not an events page (a gateway standing in; reading is free). */
function passing(err: unknown): boolean {
  if (err instanceof NetworkError || err instanceof RateLimitError) return true;
  return (
    err instanceof ApiError &&
    (err.status === undefined ||
      err.status >= 500 ||
      err.status === 408 ||
      err.status === 429 ||
      err.code === 'malformed_response')
  );
}

function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** Runs until `once` is done, a fatal error, or Ctrl-C; returns how many events were handed over. */
export async function tailEvents(deps: TailDeps, opts: TailOptions): Promise<number> {
  // A backlog of any size, then polls without end: memory must not grow with either.
  if (!opts.dryRun) holdHeapSize();
  const lock = opts.cursorFile && !opts.dryRun ? lockCursor(opts.cursorFile) : undefined;
  try {
    return await tailLocked(deps, opts);
  } finally {
    lock?.release();
  }
}

async function tailLocked(deps: TailDeps, opts: TailOptions): Promise<number> {
  const filters = Object.fromEntries(
    Object.entries(opts.filters)
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
  const identity: CursorIdentity = { base_url: opts.server.baseUrl, profile: opts.server.profile, filters };
  let loaded = opts.cursorFile ? await loadCursor(opts.cursorFile) : undefined;
  if (loaded && opts.cursorReset) {
    deps.notice?.(`${opts.named.cursorReset}: the cursor file '${opts.cursorFile}' starts over here.`);
    loaded = undefined;
  } else if (loaded && checkCursorIdentity(opts.cursorFile as string, loaded, identity, opts.named).adopted) {
    deps.notice?.(
      `The cursor file '${opts.cursorFile}' names no server (written by an older version): taken as written for ${identity.base_url} (profile ${identity.profile}), and saved so.`,
    );
  }
  const cursor = new Cursor(loaded);
  // A loaded watermark is checked against the newest event the server has before anything is written.
  let checkNewest = loaded !== undefined && loaded.last_id !== null;
  // Events marked done but not written (a failed flush) must never reach the file: nothing is saved after that.
  let unwritten = false;
  let held = 0;
  // The lines held are written, then the cursor saved: a kill -9 re-delivers at most the last write's events.
  const save = async (): Promise<void> => {
    try {
      await deps.flush?.();
    } catch (err) {
      unwritten = true;
      throw err;
    }
    held = 0;
    if (!opts.cursorFile || opts.dryRun || checkNewest || unwritten) return;
    await saveCursor(opts.cursorFile, cursor.toJSON(identity, deps.now()));
  };
  const onNewest = (newest: number | undefined): void => {
    if (!checkNewest) return;
    const w = cursor.watermark as number;
    if (w > 0 && (newest === undefined || w > newest))
      throw cursorBeyondServer(opts.cursorFile as string, w, newest, identity, opts.named);
    checkNewest = false;
  };
  const pause = async (ms: number): Promise<void> => {
    await wait(deps, ms);
    if (deps.signal?.aborted) {
      await save();
      throw new InterruptedError();
    }
  };
  const forwardStatus = (message: string): void => (deps.forwardStatus ?? deps.warn)(message);
  let handed = 0;
  let failures = 0;
  const policy = { ...POLICIES.tail, baseMs: Math.max(POLICIES.tail.baseMs, opts.intervalMs) };

  const deliver = async (window: ReorderWindow, id: number, event: ListeningRecord): Promise<void> => {
    let status: number | undefined;
    if (opts.forwardTo && !opts.dryRun) {
      status = await forwardEvent(
        opts.forwardTo,
        event,
        { dispatcher: deps.dispatcher, sleep: deps.sleep, signal: deps.signal, onRetry: forwardStatus },
        { attempts: opts.forwardAttempts ?? 5 },
      );
    }
    await deps.emit(event, status);
    held++;
    cursor.markDone(id, typeof event.date_occurance === 'string' ? event.date_occurance : null);
    window.take(id);
    handed++;
    // A forward is a side effect on someone else's system: remember it at once.
    if (opts.forwardTo && !opts.dryRun) await save();
  };

  const poll = async (): Promise<{ readError?: unknown; forwardFailure?: ForwardError }> => {
    const window = new ReorderWindow();
    let through: number | undefined;
    // Everything read is handled except what the window holds: the watermark stays below its oldest.
    const settle = (): void => {
      const oldest = window.oldestPending();
      const upTo = oldest !== undefined ? oldest - 1 : through;
      if (upTo !== undefined && (through === undefined || upTo <= through)) cursor.advanceTo(upTo);
    };
    const handOver = async (all: boolean): Promise<ForwardError | undefined> => {
      while (all ? window.size > 0 : window.full) {
        const next = window.peek();
        if (!next) break;
        try {
          await deliver(window, next.id, next.event);
        } catch (err) {
          if (err instanceof ForwardError) return err;
          throw err;
        }
        settle();
        if (held >= EVENTS_PER_WRITE) await save();
      }
      if (all && held > 0) await save();
      return undefined;
    };
    const reader = newEvents(await deps.http(), {
      filters: opts.filters,
      pageSize: opts.pageSize,
      backlog: opts.backlog,
      after: cursor.watermark,
      onNewest,
      signal: deps.signal,
    });
    let readError: unknown;
    try {
      for (;;) {
        let step: IteratorResult<EventChunk>;
        try {
          step = await reader.next();
        } catch (err) {
          readError = err;
          break;
        }
        if (step.done) break;
        for (const event of step.value.events) {
          const id = eventId(event);
          if (cursor.isNew(id)) window.add(id, event);
        }
        through = step.value.through;
        settle();
        const failed = await handOver(false);
        if (failed) return { forwardFailure: failed };
        if (deps.signal?.aborted) break;
      }
      // The events read are handed over (after Ctrl-C or a failed read too: they are in hand).
      const failed = checkNewest ? undefined : await handOver(true);
      if (failed) return { forwardFailure: failed };
    } finally {
      await reader.return(undefined);
    }
    return readError === undefined ? {} : { readError };
  };

  for (;;) {
    if (deps.signal?.aborted) {
      await save();
      throw new InterruptedError();
    }
    let outcome: { readError?: unknown; forwardFailure?: ForwardError };
    try {
      outcome = await poll();
    } catch (err) {
      await save();
      throw err instanceof CliError || !deps.signal?.aborted ? err : new InterruptedError();
    }
    await save();
    const err = outcome.readError;
    if (err !== undefined) {
      if (err instanceof InterruptedError || deps.signal?.aborted) throw new InterruptedError();
      if (opts.once || !passing(err)) throw err;
      failures++;
      const waitMs = backoffMs(policy, failures);
      deps.warn(
        `could not read events: ${sentence((err as Error).message)} Trying again in ${Math.ceil(waitMs / 1000)} s.`,
      );
      await pause(waitMs);
      continue;
    }
    if (outcome.forwardFailure) {
      if (opts.once) throw outcome.forwardFailure;
      failures++;
      const waitMs = backoffMs(policy, failures);
      forwardStatus(`${sentence(outcome.forwardFailure.message)} Trying it again in ${Math.ceil(waitMs / 1000)} s.`);
      await pause(waitMs);
      continue;
    }
    failures = 0;
    if (opts.once) return handed;
    await pause(opts.intervalMs);
  }
}
