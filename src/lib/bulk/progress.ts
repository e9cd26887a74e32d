/**
 * The progress line of a bulk run, on stderr and only on a terminal (never with `--quiet`):
 * `enrich: 120/300 rows, 3 failed, 118.4 credits, ETA 1m05s`, redrawn in place at most every
 * 250 ms and cleared when the run ends, so piped stderr never fills with carriage returns.
 */
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

/** What a paging run (`search --all`, `posts --all`, `api --paginate`...) has done so far. */
export interface PagingCounts {
  pages: number;
  records: number;
  /** Credits so far; undefined for free reads (not shown). */
  creditsMilli?: number | undefined;
  /** Records the run will reach, when known (the total, capped): gives `n/total` and the ETA. */
  totalRecords?: number | undefined;
}

/** `search: 3 pages, 150/176 creators, 1.5 credits, ETA 2s` (also used by tests). */
export function pagingProgressText(label: string, noun: readonly [singular: string, plural: string], c: PagingCounts, elapsedMs: number): string {
  const total = c.totalRecords;
  const of = total !== undefined ? `${countText(c.records)}/${countText(total)}` : countText(c.records);
  const credits = c.creditsMilli === undefined ? '' : `, ${creditCount(c.creditsMilli)}`;
  let eta = '';
  if (total !== undefined && c.records > 0 && c.records < total) eta = `, ETA ${formatDuration(((total - c.records) * elapsedMs) / c.records)}`;
  return `${label}: ${c.pages === 1 ? '1 page' : `${countText(c.pages)} pages`}, ${of} ${c.records === 1 && total === undefined ? noun[0] : noun[1]}${credits}${eta}`;
}

/** The terminal side a paging progress line needs (the terminal object). */
export interface ProgressTerminal {
  io: Io;
  quiet: boolean;
  /** The command's own live display: no wait spinner while it shows. */
  ownDisplay(): () => void;
}

/** A paging run's progress line: `update` after each page, `pause` before a question or notice, `finish` at the end. */
export interface PagingProgress {
  update(counts: PagingCounts): void;
  /** Clears the line (it comes back at the next update). */
  pause(): void;
  finish(): void;
}

/**
 * The progress line of a long paging run, on a terminal (stderr a TTY, not `--quiet`), the same line
 * as bulk enrichment's (ProgressLine): not when the records themselves stream to the same terminal
 * (they show the progress, and would be glued to the line). While it shows, no wait spinner.
 */
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

/** The records, with the progress line cleared once the last one is out (before a terminal table is drawn) or the run stops. */
export async function* endingProgress<T>(records: AsyncIterable<T>, progress: PagingProgress): AsyncGenerator<T> {
  try {
    yield* records;
  } finally {
    progress.finish();
  }
}
