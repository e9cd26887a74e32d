/** Only on a terminal, redrawn at most every 250 ms and cleared at the end: piped stderr never fills with CRs. */
import type { LiveLine, Terminal } from '../io/terminal.js';
import { countText, creditCount } from '../words.js';

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

export function progressText(label: string, c: ProgressCounts, total: number | undefined, elapsedMs: number): string {
  const of = total !== undefined ? `${c.done}/${total}` : `${c.done}`;
  let eta = '';
  if (total !== undefined && c.done > 0 && c.done < total)
    eta = `, ETA ${formatDuration(((total - c.done) * elapsedMs) / c.done)}`;
  return `${label}: ${of} rows, ${countText(c.failed)} failed, ${creditCount(c.creditsMilli)}${eta}`;
}

export interface PagingCounts {
  pages: number;
  records: number;
  creditsMilli?: number | undefined;
  /** Records the run will reach, when known (the total, capped): gives `n/total` and the ETA. */
  totalRecords?: number | undefined;
}

export function pagingProgressText(
  label: string,
  noun: readonly [singular: string, plural: string],
  c: PagingCounts,
  elapsedMs: number,
): string {
  const total = c.totalRecords;
  const of = total !== undefined ? `${countText(c.records)}/${countText(total)}` : countText(c.records);
  const credits = c.creditsMilli === undefined ? '' : `, ${creditCount(c.creditsMilli)}`;
  let eta = '';
  if (total !== undefined && c.records > 0 && c.records < total)
    eta = `, ETA ${formatDuration(((total - c.records) * elapsedMs) / c.records)}`;
  return `${label}: ${c.pages === 1 ? '1 page' : `${countText(c.pages)} pages`}, ${of} ${c.records === 1 && total === undefined ? noun[0] : noun[1]}${credits}${eta}`;
}

export type ProgressTerminal = Pick<Terminal, 'liveLine'>;

export interface PagingProgress {
  update(counts: PagingCounts): void;
  pause(): void;
  finish(): void;
}

export function pagingProgress(
  term: ProgressTerminal,
  options: {
    label: string;
    noun: readonly [singular: string, plural: string];
    now: () => number;
    recordsToTerminal: boolean;
  },
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

/**
 * Records that stream to the terminal stderr shares show the progress themselves (a table or a pager holds them until
 * the end).
 */
export function recordsToTerminal(
  io: Pick<Terminal, 'stdoutIsTTY'>,
  output: { outputPath?: string | undefined; format: string; pager?: unknown },
): boolean {
  return io.stdoutIsTTY && !output.outputPath && output.format !== 'table' && output.pager === undefined;
}

export async function* endingProgress<T>(records: AsyncIterable<T>, progress: PagingProgress): AsyncGenerator<T> {
  try {
    yield* records;
  } finally {
    progress.finish();
  }
}
