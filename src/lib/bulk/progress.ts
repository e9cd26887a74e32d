/**
 * The text of progress lines, drawn by the terminal object's `liveLine` (on stderr, only on a terminal,
 * never with `--quiet`): a bulk run's `enrich: 120/300 rows, 3 failed, 118.4 credits, ETA 1m05s` and a
 * paging run's `search: 3 pages, 150/176 creators, 1.5 credits, ETA 2s`.
 */
import type { LiveLine, Terminal } from '../io/terminal.js';
import { countText, creditCount } from '../output/humanize.js';

export interface ProgressCounts {
  done: number;
  failed: number;
  creditsMilli: number;
}

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

/** The terminal side a paging progress line needs. */
export type ProgressTerminal = Pick<Terminal, 'liveLine'>;

/** A paging run's progress line: `update` after each page, `pause` before a question or notice, `finish` at the end. */
export interface PagingProgress {
  update(counts: PagingCounts): void;
  /** Clears the line (it comes back at the next update). */
  pause(): void;
  finish(): void;
}

/**
 * The progress line of a long paging run, the terminal's live line as bulk enrichment's: not when the
 * records themselves stream to the same terminal (they show the progress, and would be glued to the
 * line). It holds the screen (no wait spinner) from the first page until `finish`.
 */
export function pagingProgress(
  term: ProgressTerminal,
  options: { label: string; noun: readonly [singular: string, plural: string]; now: () => number; recordsToTerminal: boolean },
): PagingProgress {
  if (options.recordsToTerminal) return { update: () => {}, pause: () => {}, finish: () => {} };
  const startedAt = options.now();
  let line: LiveLine | undefined;
  return {
    update(counts) {
      line ??= term.liveLine(options.now, startedAt);
      line.draw((elapsed) => pagingProgressText(options.label, options.noun, counts, elapsed));
    },
    pause() {
      line?.clear();
    },
    finish() {
      line?.close();
      line = undefined;
    },
  };
}

/** Records that stream to the terminal stderr shares show the progress themselves (a table or a pager holds them until the end). */
export function recordsToTerminal(io: Pick<Terminal, 'stdoutIsTTY'>, output: { outputPath?: string | undefined; format: string; pager?: unknown }): boolean {
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
