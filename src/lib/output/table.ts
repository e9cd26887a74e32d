/** Terminal tables with cli-table3 (loaded on demand), fitted to the terminal width. */
import { colors } from '../io/color.js';
import { escapeControls } from '../io/safe-text.js';
import { truncate, wrapText } from './humanize.js';
import { displayWidth } from '../io/width.js';

export const DEFAULT_COLUMNS = 100;

/** Narrowest a column is cut to before columns are dropped (7 characters and `…`). */
export const MIN_CUT_COLUMN = 8;

export interface ColumnFit {
  /** Never cut below this width (`Infinity`: never cut at all). */
  floor: number;
  priority: number;
  droppable: boolean;
  /** Shown only when the table fits with it uncut: left out before anything is cut, without a note. */
  optional?: boolean | undefined;
}

export interface FittedColumns {
  widths: number[];
  shown: number[];
}

export interface TableInput {
  head?: string[] | undefined;
  rows: string[][];
  alignRight?: boolean[] | undefined;
  width?: number | undefined;
  color: boolean;
  fits?: ColumnFit[] | undefined;
  onDrop?: ((headers: string[]) => void) | undefined;
  /** Per column: wrap long cells and keep their line breaks instead of cutting them to one line. */
  wrap?: boolean[] | undefined;
  /** Box-drawing borders and `…` (lib/io/charset.ts decides); otherwise ASCII borders and `...`. */
  unicode?: boolean | undefined;
}

const ASCII_CHARS = {
  top: '-',
  'top-mid': '+',
  'top-left': '+',
  'top-right': '+',
  bottom: '-',
  'bottom-mid': '+',
  'bottom-left': '+',
  'bottom-right': '+',
  left: '|',
  'left-mid': '+',
  mid: '-',
  'mid-mid': '+',
  right: '|',
  'right-mid': '+',
  middle: '|',
};

/** Border and padding cost of n columns: every border one column, each cell one space on both sides. */
const chrome = (n: number): number => n + 1 + 2 * n;

/**
 * Widths that make the table fit `total` columns. The lowest priority is cut first, widest first ("water
 * filling" down to each floor). When even every floor is too wide, columns are left out, the others taken in
 * priority order while their floors fit, so a narrow column of low priority can use the room a wide one
 * could not. A table of uncuttable columns alone may overflow.
 */
export function fitColumns(natural: readonly number[], total: number, fits?: readonly ColumnFit[]): FittedColumns {
  const fit = (i: number): ColumnFit => {
    const given = fits?.[i] ?? { floor: MIN_CUT_COLUMN, priority: 0, droppable: false };
    return { ...given, floor: Math.min(given.floor, natural[i] ?? 1) };
  };
  const all = natural.map((_, i) => i);
  const byPriority = (cols: number[]): number[] => [...cols].sort((a, b) => fit(b).priority - fit(a).priority);
  const inOrder = (cols: Set<number>): number[] => all.filter((i) => cols.has(i));
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
  const shown = take(
    required,
    all.filter((i) => fit(i).optional === true),
    (i) => natural[i] ?? 1,
  );
  const widths = shrink(
    shown.map((i) => natural[i] ?? 1),
    shown.map((i) => fit(i)),
    total - chrome(shown.length),
  );
  if (widths !== undefined) return { widths, shown };
  const kept = take(
    required.filter((i) => !fit(i).droppable),
    required.filter((i) => fit(i).droppable),
    (i) => fit(i).floor,
  );
  const keptWidths = shrink(
    kept.map((i) => natural[i] ?? 1),
    kept.map((i) => fit(i)),
    total - chrome(kept.length),
  );
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
    const capped = (cap: number): number =>
      members.reduce((a, i) => a + Math.max(fits[i]!.floor, Math.min(natural[i]!, cap)), 0);
    if (capped(0) > room) continue;
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

/** Control characters become visible escapes (`\x1b`: a name cannot drive the terminal). */
export async function renderTable(input: TableInput): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const paint = colors(input.color);
  const cellText = (cell: string): string => escapeControls(truncate(cell, Number.MAX_SAFE_INTEGER));
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
  const fitted = fitColumns(
    natural,
    input.width !== undefined && input.width > 0 ? input.width : DEFAULT_COLUMNS,
    input.fits,
  );
  const dropped = Array.from({ length: count }, (_, i) => i).filter(
    (i) => !fitted.shown.includes(i) && input.fits?.[i]?.optional !== true,
  );
  if (dropped.length > 0) input.onDrop?.(dropped.map((i) => head?.[i] ?? String(i + 1)));
  const ellipsis = input.unicode === true ? '…' : '...';
  const { widths, shown } = fitted;
  const pick = <T>(cells: readonly T[]): T[] => shown.map((i) => cells[i] as T);
  const table = new Table({
    // Headers are painted here, not through cli-table3's `style`: that goes through @colors/colors, which
    // decides on its own (CI=1, TERM=dumb, no TTY on the real stdout) and would ignore our --color decision.
    ...(head === undefined
      ? {}
      : { head: pick(head).map((cell, i) => paint.cyan(truncate(cell, widths[i] ?? MIN_CUT_COLUMN, ellipsis))) }),
    colWidths: widths.map((w) => w + 2),
    colAligns: shown.map((i) => (input.alignRight?.[i] ? 'right' : 'left')),
    wordWrap: false,
    style: { compact: true, head: [], border: [] },
    ...(input.unicode === true ? {} : { chars: ASCII_CHARS }),
  });
  const fitCell = (cell: string, i: number, w: number): string =>
    wrapped(i) ? wrapText(cell, w).join('\n') : truncate(cell, w, ellipsis);
  for (const row of rows)
    table.push(widths.map((w, i) => fitCell(row[shown[i] as number] ?? '', shown[i] as number, w)));
  return `${table.toString()}\n`;
}
