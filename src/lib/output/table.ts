/**
 * Terminal tables with cli-table3 (loaded on demand), fitted to the terminal width: ids, handles, keys,
 * numbers and dates are never cut; the widest column of the lowest priority gives way first, then columns
 * are dropped (the caller names them on stderr).
 */
import { colors } from '../io/color.js';
import { escapeControls } from '../io/safe-text.js';
import { displayWidth, truncate, wrapText } from './humanize.js';

/** Terminal width assumed when the io does not know it. */
export const DEFAULT_COLUMNS = 100;

/** Narrowest a column that may be cut is squeezed to before columns are dropped (7 characters and `…`). */
export const MIN_CUT_COLUMN = 8;

/** How one column may give way when the table is too wide. */
export interface ColumnFit {
  /** Never cut below this width (`Infinity`: never cut at all). */
  floor: number;
  /** Lower gives way first: shrunk first, dropped first. */
  priority: number;
  /** May be left out when cutting is not enough. */
  droppable: boolean;
  /**
   * Shown only when the table fits with it at its natural width (a profile URL, a user id on a wide
   * terminal): left out before anything is cut, the lowest priority first, and without a note.
   */
  optional?: boolean | undefined;
}

export interface FittedColumns {
  /** Content widths of the shown columns, in the order of `shown`. */
  widths: number[];
  /** Indexes of the columns shown, in their original order. */
  shown: number[];
}

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
  /** Per column: how it gives way (`fitColumns`); by default any column is cut down to 8 and none dropped. */
  fits?: ColumnFit[] | undefined;
  /** Called with the headers of the columns left out to fit the width (none: not called). */
  onDrop?: ((headers: string[]) => void) | undefined;
  /**
   * Per column: wrap long cells onto more lines (at spaces, inside a word only when it is wider than the
   * column, never with `…`) and keep their line breaks, instead of cutting them to one line.
   */
  wrap?: boolean[] | undefined;
  /** ASCII borders and `...` for a locale that is not UTF-8 (box-drawing characters would show as bytes). */
  ascii?: boolean | undefined;
}

/** cli-table3's borders in ASCII. */
const ASCII_CHARS = {
  top: '-', 'top-mid': '+', 'top-left': '+', 'top-right': '+',
  bottom: '-', 'bottom-mid': '+', 'bottom-left': '+', 'bottom-right': '+',
  left: '|', 'left-mid': '+', mid: '-', 'mid-mid': '+', right: '|', 'right-mid': '+', middle: '|',
};

/** Border and padding cost of n columns: every border one column, each cell one space on both sides. */
const chrome = (n: number): number => n + 1 + 2 * n;

/**
 * Widths that make the table fit `total` columns, in one priority order per table. Optional columns are
 * shown only when they fit beside the others at their natural width, the highest priority first. Then the
 * columns of the lowest priority are cut first, the widest of them first ("water filling" down to each
 * column's floor), then the next priority. When even every floor is too wide, columns are left out: the
 * columns that may not be dropped stay, then the others are taken in priority order (the first of equals
 * first) as long as their floors fit, so a narrow column of low priority can still use the room a wide one
 * of higher priority could not. Columns whose floor is their natural width (ids, handles, keys, URLs,
 * numbers, dates) are never cut; a table of kept columns alone may overflow.
 */
export function fitColumns(natural: readonly number[], total: number, fits?: readonly ColumnFit[]): FittedColumns {
  const fit = (i: number): ColumnFit => {
    const given = fits?.[i] ?? { floor: MIN_CUT_COLUMN, priority: 0, droppable: false };
    return { ...given, floor: Math.min(given.floor, natural[i] ?? 1) };
  };
  const all = natural.map((_, i) => i);
  // Highest priority first; the first of equals first (a stable sort).
  const byPriority = (cols: number[]): number[] => [...cols].sort((a, b) => fit(b).priority - fit(a).priority);
  const inOrder = (cols: Set<number>): number[] => all.filter((i) => cols.has(i));
  /** Greedy in priority order: `base`, then each candidate whose `width` still fits. */
  const take = (base: number[], candidates: number[], width: (i: number) => number): number[] => {
    const chosen = new Set(base);
    let used = base.reduce((a, i) => a + width(i), 0);
    for (const i of byPriority(candidates)) {
      if (used + width(i) <= total - chrome(chosen.size + 1)) {
        chosen.add(i);
        used += width(i);
      }
    }
    return inOrder(chosen);
  };
  const required = all.filter((i) => fit(i).optional !== true);
  const shown = take(required, all.filter((i) => fit(i).optional === true), (i) => natural[i] ?? 1);
  const widths = shrink(shown.map((i) => natural[i] ?? 1), shown.map((i) => fit(i)), total - chrome(shown.length));
  if (widths !== undefined) return { widths, shown };
  const kept = take(required.filter((i) => !fit(i).droppable), required.filter((i) => fit(i).droppable), (i) => fit(i).floor);
  const keptWidths = shrink(kept.map((i) => natural[i] ?? 1), kept.map((i) => fit(i)), total - chrome(kept.length));
  return { widths: keptWidths ?? kept.map((i) => fit(i).floor), shown: kept };
}

/** Widths within `budget`, cutting lower priorities first; undefined when even every floor is too wide. */
function shrink(natural: number[], fits: ColumnFit[], budget: number): number[] | undefined {
  const widths = [...natural];
  const used = (): number => widths.reduce((a, b) => a + b, 0);
  if (used() <= budget) return widths;
  const levels = [...new Set(fits.map((f) => f.priority))].sort((a, b) => a - b);
  for (const level of levels) {
    const members = fits.flatMap((f, i) => (f.priority === level ? [i] : []));
    for (const i of members) widths[i] = Math.max(fits[i]!.floor, 0);
    const rest = used() - members.reduce((a, i) => a + widths[i]!, 0);
    const room = budget - rest;
    const capped = (cap: number): number => members.reduce((a, i) => a + Math.max(fits[i]!.floor, Math.min(natural[i]!, cap)), 0);
    if (capped(0) > room) continue;
    // Largest cap that fits this level's room: only its widest columns shrink.
    let low = 0;
    let high = Math.max(...members.map((i) => natural[i]!));
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (capped(mid) <= room) low = mid;
      else high = mid - 1;
    }
    for (const i of members) widths[i] = Math.max(fits[i]!.floor, Math.min(natural[i]!, low));
    return widths;
  }
  return undefined;
}

/**
 * Renders a table as text (ending in a newline). Cells are single-line: line breaks become spaces,
 * other control characters visible escapes (`\x1b`, `\u009b`: a name cannot drive the terminal), and
 * long cells are cut with `…` so the table fits `width`; cells of a `wrap` column keep their line breaks
 * and are wrapped to the column instead. No ANSI codes at all when `color` is false.
 */
export async function renderTable(input: TableInput): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const paint = colors(input.color);
  const cellText = (cell: string): string => escapeControls(truncate(cell, Number.MAX_SAFE_INTEGER));
  // A wrapped cell keeps its paragraphs: each escaped on its own, joined by the line breaks wrapText splits at.
  const wrapped = (i: number): boolean => input.wrap?.[i] === true;
  const paragraphs = (cell: string): string =>
    cell
      .split(/\r\n|\n/)
      .map((line) => escapeControls(line.replace(/\t/g, ' ')))
      .join('\n');
  const head = input.head?.map(cellText);
  const rows = input.rows.map((row) => row.map((cell, i) => (wrapped(i) ? paragraphs(cell) : cellText(cell))));
  const count = head?.length ?? rows[0]?.length ?? 0;
  if (count === 0) return '';
  const natural = Array.from({ length: count }, (_, i) =>
    Math.max(1, displayWidth(head?.[i] ?? ''), ...rows.flatMap((row) => (row[i] ?? '').split('\n').map(displayWidth))),
  );
  const fitted = fitColumns(natural, input.width !== undefined && input.width > 0 ? input.width : DEFAULT_COLUMNS, input.fits);
  const dropped = Array.from({ length: count }, (_, i) => i).filter((i) => !fitted.shown.includes(i) && input.fits?.[i]?.optional !== true);
  if (dropped.length > 0) input.onDrop?.(dropped.map((i) => head?.[i] ?? String(i + 1)));
  const ellipsis = input.ascii === true ? '...' : '…';
  const { widths, shown } = fitted;
  const pick = <T>(cells: readonly T[]): T[] => shown.map((i) => cells[i] as T);
  const table = new Table({
    // Headers are painted here, not through cli-table3's `style`: that goes through @colors/colors, which
    // decides on its own (CI=1, TERM=dumb, no TTY on the real stdout) and would ignore our --color decision.
    ...(head === undefined ? {} : { head: pick(head).map((cell, i) => paint.cyan(truncate(cell, widths[i] ?? MIN_CUT_COLUMN, ellipsis))) }),
    colWidths: widths.map((w) => w + 2),
    colAligns: shown.map((i) => (input.alignRight?.[i] ? 'right' : 'left')),
    wordWrap: false,
    // compact: no rule between rows, only under the header (denser, like most CLI tables).
    style: { compact: true, head: [], border: [] },
    ...(input.ascii === true ? { chars: ASCII_CHARS } : {}),
  });
  const fitCell = (cell: string, i: number, w: number): string => (wrapped(i) ? wrapText(cell, w).join('\n') : truncate(cell, w, ellipsis));
  for (const row of rows) table.push(widths.map((w, i) => fitCell(row[shown[i] as number] ?? '', shown[i] as number, w)));
  return `${table.toString()}\n`;
}
