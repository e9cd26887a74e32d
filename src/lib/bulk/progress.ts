/**
 * The progress line of a bulk run, on stderr and only on a terminal (never with `--quiet`):
 * `enrich: 120/300 rows, 3 failed, 118.4 credits, ETA 1m05s`, redrawn in place at most every
 * 250 ms and cleared when the run ends, so piped stderr never fills with carriage returns.
 */
import type { Io } from '../io/streams.js';
import { countText, creditCount } from '../output/humanize.js';

export interface ProgressCounts {
  done: number;
  failed: number;
  creditsMilli: number;
}

const REDRAW_MS = 250;

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** The text of the line (also used by tests). */
export function progressText(label: string, c: ProgressCounts, total: number | undefined, elapsedMs: number): string {
  const of = total !== undefined ? `${c.done}/${total}` : `${c.done}`;
  let eta = '';
  if (total !== undefined && c.done > 0 && c.done < total) eta = `, ETA ${formatDuration(((total - c.done) * elapsedMs) / c.done)}`;
  return `${label}: ${of} rows, ${countText(c.failed)} failed, ${creditCount(c.creditsMilli)}${eta}`;
}

export class ProgressLine {
  private readonly started: number;
  private lastDraw = -Infinity;
  private drawn = false;

  constructor(
    private readonly io: Io,
    private readonly enabled: boolean,
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly now: () => number,
  ) {
    this.started = now();
  }

  update(counts: ProgressCounts, force = false): void {
    if (!this.enabled) return;
    const t = this.now();
    if (!force && t - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = t;
    this.drawn = true;
    this.io.stderr.write(`\r\x1b[2K${progressText(this.label, counts, this.total, t - this.started)}`);
  }

  /** Clears the line so the summary or an error starts on a clean line. */
  finish(): void {
    if (this.enabled && this.drawn) this.io.stderr.write('\r\x1b[2K');
    this.drawn = false;
  }
}
