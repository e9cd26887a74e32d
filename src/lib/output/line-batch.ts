import type { Sink } from './sink.js';

/**
 * Joins output lines into larger writes: one write per row costs more than formatting the row.
 * Lines are held only while rows arrive back to back (a CPU-bound burst); a flush is scheduled with
 * setImmediate, which runs as soon as the loop waits for input, so a slow source (paging) still
 * streams each row out when it comes. 64 KB of held text is written at once. Backpressure reaches the
 * source: while a write waits for the sink (a full pipe to `less`), `add` waits too, so `search --all`
 * stops buying pages nobody is reading.
 */
export class LineBatch {
  private pending = '';
  private scheduled = false;
  private failed: unknown = undefined;
  private inFlight: Promise<void> = Promise.resolve();
  /** Writes started and not finished. */
  private writing = 0;

  constructor(private readonly sink: Sink) {}

  async add(text: string): Promise<void> {
    if (this.failed !== undefined) throw this.failed;
    this.pending += text;
    if (this.pending.length >= 65_536) return this.flush();
    if (this.writing > 0) await this.inFlight.catch(() => undefined);
    if (this.failed !== undefined) throw this.failed;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        // Errors surface on the next add() or flush().
        this.flush().catch(() => undefined);
      });
    }
  }

  /** Writes what is held; resolves once the sink can take more. */
  flush(): Promise<void> {
    const text = this.pending;
    this.pending = '';
    if (text !== '') this.writing++;
    this.inFlight = this.inFlight.then(async () => {
      if (text === '') return;
      try {
        if (this.failed !== undefined) throw this.failed;
        await this.sink.write(text);
      } catch (err) {
        this.failed ??= err;
        throw err;
      } finally {
        this.writing--;
      }
    });
    return this.inFlight;
  }
}
