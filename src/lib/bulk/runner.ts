/**
 * The concurrent row runner: items stream in from an async source, workers process them at once
 * (sharing one HttpClient, whose pacer keeps the whole process under the rate limit), and results
 * come out in input order. The number of workers is fixed, or a function asked again as rows finish
 * and every `recheckMs` while rows wait (enrich.ts sizes it from the client's load: concurrency.ts).
 * Memory is bounded by the window (twice the workers), whatever the input size: the source is only
 * read when the window has room.
 */
import { InterruptedError } from '../errors.js';

export interface RunnerOptions<I, O> {
  items: AsyncIterable<I>;
  /** Rows worked on at once (default 4): a number, or a function asked again as the run goes. */
  concurrency?: number | (() => number);
  /** With a concurrency function: how often waiting rows ask it again, ms (default 250). */
  recheckMs?: number;
  /**
   * Processes one item. Per-item failures should be caught and returned as a value (a row with
   * status `error`); a throw means the run cannot go on (interrupted, credential rejected, out of
   * credits) and stops it.
   */
  work: (item: I, index: number) => Promise<O>;
  /** Aborted on Ctrl-C: no new item is started. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `work` over `items` concurrently and yields the results in input order. It never throws
 * from the iteration itself: when the run must stop (a throw from `work` or from the source, or the
 * signal), no new item starts, items already in flight settle, those that succeeded are still
 * yielded (in order), and the reason is left in `stopped` for the caller to throw after it has
 * committed its output.
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
    const source = this.opts.items[Symbol.asyncIterator]();
    const queue: Promise<{ ok: true; value: O } | { ok: false; error: unknown }>[] = [];
    // Rows in flight; a slot is taken by the item's work and released when it settles.
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
    // Waiting rows start while the limit allows.
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
    const onAbort = (): void => this.stop(signal?.reason instanceof InterruptedError ? signal.reason : new InterruptedError());
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      for (;;) {
        // Keep up to twice the workers queued, so a slow head row does not idle the others.
        while (!exhausted && this.stopped === undefined && queue.length < this.limit() * 2) {
          let next: IteratorResult<I>;
          try {
            next = await source.next();
          } catch (err) {
            this.stop(err);
            break;
          }
          if (next.done) {
            exhausted = true;
            break;
          }
          const index = this.started++;
          const item = next.value;
          queue.push(
            (async () => {
              const slot = acquire();
              if (slot) await slot;
              try {
                if (this.stopped !== undefined) throw this.stopped;
                return { ok: true as const, value: await this.opts.work(item, index) };
              } catch (error) {
                this.stop(error);
                return { ok: false as const, error };
              } finally {
                release();
              }
            })(),
          );
        }
        const head = queue[0];
        if (!head) break;
        // Woken before the head settles: the window may take more rows now.
        const woken = new Promise<undefined>((resolve) => (wakeUp = () => resolve(undefined)));
        const settled = await Promise.race([head, woken]);
        if (settled === undefined) continue;
        queue.shift();
        if (settled.ok) yield settled.value;
      }
    } finally {
      if (recheck) clearInterval(recheck);
      signal?.removeEventListener('abort', onAbort);
      // The consumer may have stopped early (its output failed): no queued item may start after that,
      // and the items in flight are waited for, so their work (a paid answer being journaled) ends
      // before the caller cleans up.
      if (queue.length > 0) {
        this.stop(new Error('the run was stopped'));
        await Promise.all(queue.splice(0));
      }
      if (this.stopped !== undefined && !exhausted) await source.return?.().catch(() => undefined);
    }
  }
}
