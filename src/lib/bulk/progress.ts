/** Only on a terminal, redrawn at most every 250 ms and cleared at the end: piped stderr never fills with CRs. */
import { escapeControls } from '../io/safe-text.js';
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
    this.draw((elapsed) => progressText(this.label, counts, this.total, elapsed), force);
  }

  /**
   * Redraws the line with `text(elapsed ms)`, at most every 250 ms unless forced (the first draw always shows).
   * The text is escaped like every other line for people: a label or count that ever carries data cannot
   * drive the terminal or reverse the line.
   */
  draw(text: (elapsedMs: number) => string, force = false): void {
    if (!this.enabled) return;
    const t = this.now();
    if (!force && this.drawn && t - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = t;
    this.drawn = true;
    this.io.stderr.write(`\r\x1b[2K${escapeControls(text(t - this.started))}`);
  }

  /** Clears the line so the summary or an error starts on a clean line. */
  finish(): void {
    if (this.enabled && this.drawn) this.io.stderr.write('\r\x1b[2K');
    this.drawn = false;
  }
}

export interface PagingCounts {
  pages: number;
  records: number;
  creditsMilli?: number | undefined;
  /** Records the run will reach, when known (the total, capped): gives `n/total` and the ETA. */
  totalRecords?: number | undefined;
}

export function pagingProgressText(label: string, noun: readonly [singular: string, plural: string], c: PagingCounts, elapsedMs: number): string {
  const total = c.totalRecords;
  const of = total !== undefined ? `${countText(c.records)}/${countText(total)}` : countText(c.records);
  const credits = c.creditsMilli === undefined ? '' : `, ${creditCount(c.creditsMilli)}`;
  let eta = '';
  if (total !== undefined && c.records > 0 && c.records < total) eta = `, ETA ${formatDuration(((total - c.records) * elapsedMs) / c.records)}`;
  return `${label}: ${c.pages === 1 ? '1 page' : `${countText(c.pages)} pages`}, ${of} ${c.records === 1 && total === undefined ? noun[0] : noun[1]}${credits}${eta}`;
}

export interface ProgressTerminal {
  io: Io;
  quiet: boolean;
  ownDisplay(): () => void;
}

export interface PagingProgress {
  update(counts: PagingCounts): void;
  pause(): void;
  finish(): void;
}

export function pagingProgress(
  term: ProgressTerminal,
  options: { label: string; noun: readonly [singular: string, plural: string]; now: () => number; recordsToTerminal: boolean },
): PagingProgress {
  const enabled = term.io.stderrIsTTY && !term.quiet && !options.recordsToTerminal;
  if (!enabled) return { update: () => {}, pause: () => {}, finish: () => {} };
  const line = new ProgressLine(term.io, true, options.label, undefined, options.now);
  let release: (() => void) | undefined;
  return {
    update(counts) {
      release ??= term.ownDisplay();
      line.draw((elapsed) => pagingProgressText(options.label, options.noun, counts, elapsed));
    },
    pause() {
      line.finish();
    },
    finish() {
      line.finish();
      release?.();
      release = undefined;
    },
  };
}

/** Records that stream to the terminal stderr shares show the progress themselves (a table or a pager holds them until the end). */
export function recordsToTerminal(io: Io, output: { outputPath?: string | undefined; format: string; pager?: unknown }): boolean {
  return io.stdoutIsTTY && !output.outputPath && output.format !== 'table' && output.pager === undefined;
}

export async function* endingProgress<T>(records: AsyncIterable<T>, progress: PagingProgress): AsyncGenerator<T> {
  try {
    yield* records;
  } finally {
    progress.finish();
  }
}
