/**
 * The `events tail` loop: poll, hand each new event over once (forwarded first when asked), in order
 * of occurrence, save the cursor, sleep, repeat. Time goes through the injected `sleep`/`now`, so tests
 * run it instantly. Failures never end in a silent hang: a poll that fails for a passing reason
 * (network, 5xx, 429) is reported on stderr and retried with growing waits; a forward that fails
 * after its retries is reported and tried again at the next poll, the cursor kept before it.
 * Ctrl-C saves the cursor and ends with InterruptedError (exit 130).
 */
import { ApiError, CliError, InterruptedError, NetworkError, RateLimitError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { Dispatcher } from 'undici';
import type { EventFilters, ListeningRecord } from '../api/listening.js';
import { Cursor, loadCursor, lockCursor, saveCursor } from './cursor.js';
import { eventId, fetchNewEvents } from './fetch-new.js';
import { forwardEvent, ForwardError } from './forward.js';

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
  /**
   * `--dry-run`: events are read and printed, but nothing changes anywhere: the cursor file is read
   * and never written, and no event is forwarded.
   */
  dryRun?: boolean | undefined;
}

export interface TailDeps {
  http: HttpClient;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Prints one event; `forwardStatus` is the receiver's HTTP status when forwarding. */
  emit(event: ListeningRecord, forwardStatus: number | undefined): Promise<void>;
  /** Always shown (even with --quiet): problems. */
  warn(message: string): void;
  /**
   * A forward's status line (a failed attempt and the wait before the next); shown even with --quiet.
   * Defaults to `warn`; the command fits these to the terminal's width.
   */
  forwardStatus?(message: string): void;
}

/** Longest wait between polls after repeated failures. */
const MAX_BACKOFF_MS = 300_000;

/**
 * Errors worth waiting out: the network, the server's own trouble, throttling, and an answer that is not
 * an events page (a gateway answering for the API for a while; reading events is free).
 */
function passing(err: unknown): boolean {
  if (err instanceof NetworkError || err instanceof RateLimitError) return true;
  return err instanceof ApiError && (err.status === undefined || err.status >= 500 || err.status === 408 || err.status === 429 || err.code === 'malformed_response');
}

/** Ends a message with a full stop so the next sentence reads right. */
function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/**
 * Runs the tail until `once` is done, a fatal error, or Ctrl-C. Returns how many events were handed
 * over. With a cursor file (and not a dry run) the cursor is locked for the whole run: another tail on
 * it ends this one at once with BusyError (exit 9), before anything is read.
 */
export async function tailEvents(deps: TailDeps, opts: TailOptions): Promise<number> {
  const lock = opts.cursorFile && !opts.dryRun ? lockCursor(opts.cursorFile) : undefined;
  try {
    return await tailLocked(deps, opts);
  } finally {
    lock?.release();
  }
}

async function tailLocked(deps: TailDeps, opts: TailOptions): Promise<number> {
  const filters = Object.fromEntries(Object.entries(opts.filters).filter((e): e is [string, string] => e[1] !== undefined));
  const loaded = opts.cursorFile ? await loadCursor(opts.cursorFile) : undefined;
  if (loaded && JSON.stringify(loaded.filters) !== JSON.stringify(filters)) {
    deps.warn(`the cursor file was written with other filters (${JSON.stringify(loaded.filters)}); continuing from it anyway`);
  }
  const cursor = new Cursor(loaded);
  const save = async (): Promise<void> => {
    if (opts.cursorFile && !opts.dryRun) await saveCursor(opts.cursorFile, cursor.toJSON(filters, deps.now()));
  };
  const pause = async (ms: number): Promise<void> => {
    try {
      await deps.sleep(ms, deps.signal);
    } catch {
      /* aborted: checked below */
    }
    if (deps.signal?.aborted) {
      await save();
      throw new InterruptedError();
    }
  };
  const forwardStatus = (message: string): void => (deps.forwardStatus ?? deps.warn)(message);
  let handed = 0;
  let failures = 0;
  const backoff = (): number => Math.min(MAX_BACKOFF_MS, Math.max(2_000, opts.intervalMs) * 2 ** (failures - 1));

  for (;;) {
    if (deps.signal?.aborted) {
      await save();
      throw new InterruptedError();
    }
    let batch: ListeningRecord[];
    try {
      batch = await fetchNewEvents(deps.http, cursor, { filters: opts.filters, pageSize: opts.pageSize, backlog: opts.backlog });
    } catch (err) {
      if (err instanceof InterruptedError || deps.signal?.aborted) {
        await save();
        throw new InterruptedError();
      }
      if (opts.once || !passing(err)) {
        await save();
        throw err;
      }
      failures++;
      const wait = backoff();
      deps.warn(`could not read events: ${sentence((err as Error).message)} Trying again in ${Math.ceil(wait / 1000)} s.`);
      await pause(wait);
      continue;
    }

    let forwardFailure: ForwardError | undefined;
    try {
      for (const event of batch) {
        let status: number | undefined;
        if (opts.forwardTo && !opts.dryRun) {
          try {
            status = await forwardEvent(
              opts.forwardTo,
              event,
              { dispatcher: deps.dispatcher, sleep: deps.sleep, signal: deps.signal, onRetry: forwardStatus },
              { attempts: opts.forwardAttempts ?? 5 },
            );
          } catch (err) {
            if (!(err instanceof ForwardError)) throw err;
            forwardFailure = err;
            break;
          }
        }
        await deps.emit(event, status);
        cursor.markDone(eventId(event), typeof event.date_occurance === 'string' ? event.date_occurance : null);
        handed++;
        // A forward is a side effect on someone else's system: remember it at once.
        if (opts.forwardTo && !opts.dryRun) await save();
      }
    } catch (err) {
      await save();
      throw err instanceof CliError || !deps.signal?.aborted ? err : new InterruptedError();
    }
    if (!forwardFailure) cursor.completeBatch(batch.map(eventId));
    await save();

    if (forwardFailure) {
      if (opts.once) throw forwardFailure;
      failures++;
      const wait = backoff();
      forwardStatus(`${sentence(forwardFailure.message)} Trying it again in ${Math.ceil(wait / 1000)} s.`);
      await pause(wait);
      continue;
    }
    failures = 0;
    if (opts.once) return handed;
    await pause(opts.intervalMs);
  }
}
