/** Status readings until the first final one; `--max-wait` and Ctrl-C end with how to pick the job up again. */
import {
  ApiError,
  CreditsError,
  InterruptedError,
  NetworkError,
  PendingError,
  RateLimitError,
  RemoteJobFailed,
} from '../errors.js';
import { progressText } from './status.js';
import { type BatchStatus } from '../api/batch-status.js';
import { creditCount } from '../words.js';

/** The docs ask for polls every 30-60 s. */
export const DEFAULT_INTERVAL_S = 30;

export interface PollOptions {
  id: string;
  intervalMs: number;
  timeoutMs?: number | undefined;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal | undefined;
  again?: string | undefined;
}

/** Consecutive failed readings tolerated before the poll gives up (each after the HTTP core's own retries). */
export const MAX_FAILED_READINGS = 10;

/** A reading that failed for a passing reason (network, 5xx, throttling, a garbled body): the job is unaffected. */
function passing(err: unknown): boolean {
  if (err instanceof NetworkError || err instanceof RateLimitError) return true;
  return (
    err instanceof ApiError &&
    (err.status === undefined || err.status >= 500 || err.status === 408 || err.code === 'malformed_response')
  );
}

function interrupted(o: PollOptions): InterruptedError {
  return new InterruptedError(`Stopped waiting; batch ${o.id} keeps running on the server.`, {
    hint: `Pick it up again with: ${o.again ?? `creators batch poll ${o.id}`} (then creators batch download ${o.id}).`,
  });
}

/** PendingError (exit 8) when `timeoutMs` runs out first, InterruptedError (exit 130) on Ctrl-C. */
export async function* pollBatch(read: () => Promise<BatchStatus>, o: PollOptions): AsyncGenerator<BatchStatus, void> {
  const deadline = o.timeoutMs === undefined ? undefined : o.now() + o.timeoutMs;
  let failures = 0;
  for (;;) {
    if (o.signal?.aborted) throw interrupted(o);
    let status: BatchStatus;
    try {
      status = await read();
      failures = 0;
    } catch (err) {
      if (err instanceof InterruptedError || o.signal?.aborted) throw interrupted(o);
      // Status reads are free and the job runs on regardless: a passing failure is waited out.
      failures++;
      const left = deadline === undefined ? Infinity : deadline - o.now();
      if (!passing(err) || failures >= MAX_FAILED_READINGS || left <= 0) throw err;
      try {
        await o.sleep(Math.min(o.intervalMs, left), o.signal);
      } catch {
        throw interrupted(o);
      }
      continue;
    }
    yield status;
    if (status.phase !== 'pending') return;
    const left = deadline === undefined ? Infinity : deadline - o.now();
    if (left <= 0) {
      throw new PendingError(
        `Batch ${o.id} is still ${status.status} after ${Math.round((o.timeoutMs ?? 0) / 1000)} s: ${progressText(status)}.`,
        {
          hint: `It keeps running on the server. Wait again with: ${o.again ?? `creators batch poll ${o.id}`}`,
        },
      );
    }
    try {
      await o.sleep(Math.min(o.intervalMs, left), o.signal);
    } catch {
      throw interrupted(o);
    }
  }
}

/** A paused job continues only once resumed, so the hint says `batch resume` (`batch poll` only waits). */
export function checkFinal(s: BatchStatus, rerun?: string): void {
  if (s.phase === 'done') return;
  const why =
    typeof s.status_message === 'string' && s.status_message ? `: ${s.status_message.replace(/\.$/, '')}` : '';
  if (s.phase === 'failed') {
    throw new RemoteJobFailed(`Batch ${s.batch_id} failed${why}.`, {
      hint: `Its partial results, if any: creators batch download ${s.batch_id}. To retry it: creators batch resume ${s.batch_id}.`,
    });
  }
  if (s.phase === 'paused') {
    const used = s.credits_used !== null ? ` after ${creditCount(s.credits_used * 1000)}` : '';
    throw new CreditsError(
      `Batch ${s.batch_id} is paused for insufficient credits${used} (${progressText(s)})${why}.`,
      {
        code: 'paused_insufficient_credits',
        hint: `Top up, then continue it with: creators batch resume ${s.batch_id} (resuming is free)${rerun ? `, or re-run ${rerun}` : ''}.`,
      },
    );
  }
}
