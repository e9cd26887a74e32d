/**
 * Results in input order. Workers share one HttpClient, whose pacer keeps the process under the rate limit;
 * memory is bounded by the window (twice the workers): the source is read only when the window has room.
 */
import { InterruptedError } from '../errors.js';

export interface RunnerOptions<I, O> {
  items: AsyncIterable<I>;
  /** The items in runs as the source has them at once (a parsed chunk of a file): taken without a hop each. */
  chunks?: AsyncIterable<readonly I[]> | undefined;
  concurrency?: number | (() => number);
  recheckMs?: number;
  /** Per-item failures are returned as values; a throw means the run cannot go on, and stops it. */
  work: (item: I, index: number) => Promise<O>;
  signal?: AbortSignal | undefined;
}

/**
 * Never throws from the iteration: on a stop, items in flight settle and those that succeeded are still
 * yielded; the reason waits in `stopped` for the caller to throw once its output is committed.
 */
export class OrderedRunner<I, O> {
  stopped: unknown = undefined;
  started = 0;
  /** The most rows that were in flight at once. */
  peak = 0;
  private readonly limit: () => number;

  constructor(private readonly opts: RunnerOptions<I, O>) {
    const c = opts.concurrency ?? 4;
    this.limit = typeof c === 'function' ? () => Math.max(1, Math.floor(c())) : () => Math.max(1, Math.floor(c));
  }

  private stop(reason: unknown): void {
    this.stopped ??= reason;
  }

  async *run(): AsyncGenerator<O> {
    for await (const batch of this.runBatches()) yield* batch;
  }

  /**
   * The results in order, as many as have settled at the head each time (one hop for them all, not one each): each
   * is a row whose work has ended, as `run` yields it.
   */
  async *runBatches(): AsyncGenerator<O[]> {
    const chunks = (this.opts.chunks ?? oneByOne(this.opts.items))[Symbol.asyncIterator]();
    let chunk: readonly I[] = [];
    let at = 0;
    const queue: Queued<O>[] = [];
    let busy = 0;
    const waiters: (() => void)[] = [];
    const take = (): void => {
      busy++;
      if (busy > this.peak) this.peak = busy;
    };
    // The main loop sleeps on the head row or on this wake-up (a row finished, the limit may have grown).
    let wakeUp: (() => void) | undefined;
    const wake = (): void => {
      wakeUp?.();
      wakeUp = undefined;
    };
    const pump = (): void => {
      while (waiters.length > 0 && busy < this.limit()) {
        take();
        (waiters.shift() as () => void)();
      }
    };
    // A free slot is taken at once (no promise: this runs for every row); otherwise wait for a release.
    const acquire = (): Promise<void> | undefined => {
      if (waiters.length === 0 && busy < this.limit()) {
        take();
        return undefined;
      }
      return new Promise<void>((resolve) => waiters.push(resolve));
    };
    const release = (): void => {
      busy--;
      pump();
      wake();
    };
    // A limit that grows with time (a slow service noticed while its first answers are still coming)
    // lets waiting rows start without a release.
    const recheck =
      typeof this.opts.concurrency === 'function'
        ? setInterval(() => {
            pump();
            wake();
          }, this.opts.recheckMs ?? 250)
        : undefined;
    recheck?.unref?.();
    let exhausted = false;
    const signal = this.opts.signal;
    const onAbort = (): void =>
      this.stop(signal?.reason instanceof InterruptedError ? signal.reason : new InterruptedError());
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      for (;;) {
        // Keep up to twice the workers queued, so a slow head row does not idle the others.
        while (!exhausted && this.stopped === undefined && queue.length < this.limit() * 2) {
          if (at >= chunk.length) {
            let next: IteratorResult<readonly I[]>;
            try {
              next = await chunks.next();
            } catch (err) {
              this.stop(err);
              break;
            }
            if (next.done) {
              exhausted = true;
              break;
            }
            chunk = next.value;
            at = 0;
            continue;
          }
          const index = this.started++;
          const item = chunk[at++] as I;
          const entry: Queued<O> = { settled: undefined, done: undefined as unknown as Promise<void> };
          entry.done = (async () => {
            const slot = acquire();
            if (slot) await slot;
            try {
              if (this.stopped !== undefined) throw this.stopped;
              entry.settled = { ok: true, value: await this.opts.work(item, index) };
            } catch (error) {
              this.stop(error);
              entry.settled = { ok: false, error };
            } finally {
              release();
            }
          })();
          queue.push(entry);
        }
        let ready: O[] | undefined;
        while (queue.length > 0 && (queue[0] as Queued<O>).settled !== undefined) {
          const settled = (queue.shift() as Queued<O>).settled as Settled<O>;
          if (settled.ok) (ready ??= []).push(settled.value);
        }
        if (ready !== undefined) {
          yield ready;
          continue;
        }
        const head = queue[0];
        if (!head) break;
        // Woken before the head settles: the window may take more rows now.
        const woken = new Promise<void>((resolve) => (wakeUp = resolve));
        await Promise.race([head.done, woken]);
      }
    } finally {
      if (recheck) clearInterval(recheck);
      signal?.removeEventListener('abort', onAbort);
      // The consumer may have stopped early: no queued item starts, and the items in flight (a paid answer
      // being journaled) end before the caller cleans up.
      if (queue.length > 0) {
        this.stop(new Error('the run was stopped'));
        await Promise.all(queue.splice(0).map((entry) => entry.done));
      }
      if (this.stopped !== undefined && !exhausted) await chunks.return?.().catch(() => undefined);
    }
  }
}

type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

/** A row in the window: `settled` is set when its work has ended (read without awaiting), `done` then resolves. */
interface Queued<O> {
  settled: Settled<O> | undefined;
  done: Promise<void>;
}

async function* oneByOne<I>(items: AsyncIterable<I>): AsyncGenerator<readonly I[]> {
  for await (const item of items) yield [item];
}
