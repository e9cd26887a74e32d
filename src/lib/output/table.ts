/**
 * Terminal tables with cli-table3 (loaded on demand), fitted to the terminal width by truncating the
 * widest columns first.
 */
import { colors } from '../io/color.js';
import { escapeControls } from '../io/safe-text.js';
import { displayWidth, truncate } from './humanize.js';

/** Terminal width assumed when the io does not know it. */
export const DEFAULT_COLUMNS = 100;

/** Narrowest a column is squeezed to (room for two characters and the ellipsis). */
const MIN_COLUMN = 3;

export interface TableInput {
  /** Header cells; omitted for a key/value table. */
  head?: string[] | undefined;
  /** Cells already formatted for display. */
  rows: string[][];
  /** Per column: right-align (numbers). */
  alignRight?: boolean[] | undefined;
  /** Terminal width in columns. */
  width?: number | undefined;
  /** ANSI colours for header and borders. */
  color: boolean;
}

/**
 * Content widths (without padding) so that the whole table fits `total` columns: each column gets its
 * natural width, capped at the largest cap that fits ("water filling": only the widest columns shrink).
 * Every border takes one column and each cell has one space of padding on both sides.
 */
export function fitWidths(natural: readonly number[], total: number): number[] {
  const n = natural.length;
  const budget = total - (n + 1) - 2 * n;
  const sum = (cap: number): number => natural.reduce((acc, w) => acc + Math.min(w, cap), 0);
  if (sum(Infinity) <= budget) return [...natural];
  let low = MIN_COLUMN;
  let high = Math.max(...natural);
  // Largest cap with sum(cap) <= budget; never below MIN_COLUMN even if the table then overflows.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sum(mid) <= budget) low = mid;
    else high = mid - 1;
  }
  return natural.map((w) => Math.min(w, low));
}

/**
 * Renders a table as text (ending in a newline). Cells are single-line: line breaks become spaces,
 * other control characters visible escapes (`\x1b`, `\u009b`: a name cannot drive the terminal), and
 * long cells are cut with `…` so the table fits `width`. No ANSI codes at all when `color` is false.
 */
export async function renderTable(input: TableInput): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const paint = colors(input.color);
  const cellText = (cell: string): string => escapeControls(truncate(cell, Number.MAX_SAFE_INTEGER));
  const head = input.head?.map(cellText);
  const rows = input.rows.map((row) => row.map(cellText));
  const count = head?.length ?? rows[0]?.length ?? 0;
  if (count === 0) return '';
  const natural = Array.from({ length: count }, (_, i) =>
    Math.max(1, displayWidth(head?.[i] ?? ''), ...rows.map((row) => displayWidth(row[i] ?? ''))),
  );
  const widths = fitWidths(natural, input.width !== undefined && input.width > 0 ? input.width : DEFAULT_COLUMNS);
  const table = new Table({
    // Headers are painted here, not through cli-table3's `style`: that goes through @colors/colors, which
    // decides on its own (CI=1, TERM=dumb, no TTY on the real stdout) and would ignore our --color decision.
    ...(head === undefined ? {} : { head: head.map((cell, i) => paint.cyan(truncate(cell, widths[i] ?? MIN_COLUMN))) }),
    colWidths: widths.map((w) => w + 2),
    colAligns: widths.map((_, i) => (input.alignRight?.[i] ? 'right' : 'left')),
    wordWrap: false,
    // compact: no rule between rows, only under the header (denser, like most CLI tables).
    style: { compact: true, head: [], border: [] },
  });
  for (const row of rows) table.push(widths.map((w, i) => truncate(row[i] ?? '', w)));
  return `${table.toString()}\n`;
}
