/** What a terminal gets: a list as a bordered table fitted to the width, one record as a key/value table. */
import { escapeControls } from '../io/safe-text.js';
import type { Terminal } from '../io/terminal.js';
import {
  type Column,
  explicitColumns,
  genericText,
  inferColumns,
  INFER_SAMPLE,
  isNumericKind,
  keepsWhole,
  objectList,
  Row,
  shortList,
} from './columns.js';
import { tabLine } from './delimited.js';
import { displayWidth } from '../io/width.js';
import { cellText, flattenRecord, toCell, getPath } from './flatten.js';
import type { Sink } from './sink.js';
import { type ColumnFit, DEFAULT_COLUMNS, MIN_CUT_COLUMN, renderTable } from './table.js';
import type { ColumnSpec, DataRecord, OutputSettings } from './types.js';

export function isTerminalTable(io: Terminal, settings: OutputSettings): boolean {
  const toStdout = !settings.outputPath || settings.outputPath === '-';
  return settings.format === 'table' && io.stdoutIsTTY && toStdout;
}

export async function printTerminalTable(
  io: Terminal,
  sink: Sink,
  settings: OutputSettings,
  records: AsyncIterable<DataRecord> | Iterable<DataRecord>,
  specs: ColumnSpec[],
  notes: (() => void)[],
): Promise<number> {
  const rows: Row[] = [];
  for await (const record of records) rows.push(new Row(record));
  if (rows.length === 0) return 0;
  const cols =
    explicitColumns(settings, specs, true) ?? inferColumns(rows.slice(0, INFER_SAMPLE).map((row) => row.flat));
  const text = await renderTable({
    head: cols.map((col) => col.header),
    rows: rows.map((row) => cols.map((col) => row.display(col))),
    alignRight: cols.map((col) => isNumericKind(col.kind)),
    width: io.columns,
    color: settings.color,
    unicode: settings.unicode,
    fits: cols.map(columnFit),
    onDrop: (headers) => {
      if (!settings.quiet) notes.push(() => noteDropped(io, headers));
    },
  });
  await sink.write(text);
  return rows.length;
}

/** What must be copied never gives way; numbers, dates and flags only as a whole. */
function columnFit(col: Column): ColumnFit {
  if (keepsWhole(col)) return { floor: Infinity, priority: Infinity, droppable: false };
  const whole =
    col.whole === true ||
    col.wide === true ||
    (col.kind !== undefined && col.kind !== 'text' && col.kind !== 'accounts');
  return {
    floor: whole ? Infinity : MIN_CUT_COLUMN,
    priority: col.priority ?? 0,
    droppable: true,
    optional: col.wide === true,
  };
}

function noteDropped(io: Terminal, headers: string[]): void {
  const width = io.columns !== undefined && io.columns > 0 ? io.columns : undefined;
  io.notice(
    `note: ${headers.length === 1 ? 'column' : 'columns'} ${headers.join(', ')} left out to fit ` +
      `${width === undefined ? 'the terminal' : `${width} columns`}; choose columns with --fields`,
  );
}

const MIN_VALUE = 16;

const URL_VALUE = /^https?:\/\/\S+$/i;

export const LINK_BELOW = '(link below)';

/** A `wide` value (a path) too wide to stand beside whole labels: printed whole under the table. */
export const VALUE_BELOW = '(below)';

/**
 * One record as a two-column table on a terminal, or `key<TAB>value` lines elsewhere. A URL too long for the
 * value column is printed whole under the table (selecting it inside the box would copy border characters).
 */
export async function keyValueText(
  io: Terminal,
  settings: OutputSettings,
  record: DataRecord,
  specs: ColumnSpec[] | undefined,
): Promise<string> {
  const terminal = isTerminalTable(io, settings);
  const cols = explicitColumns(settings, specs, true);
  const entries: { label: string; path: string; value: string }[] =
    cols === undefined
      ? Object.entries(flattenRecord(record)).map(([key, value]) => ({
          label: key,
          path: key,
          value: terminal ? genericText(value, key, true) : cellText(value),
        }))
      : cols.map((col) => ({
          label: col.header,
          path: col.path,
          value: terminal
            ? new Row(record).display(col, { keyValue: true })
            : cellText(toCell(getPath(record, col.path))),
        }));
  if (!terminal) return entries.map((e) => tabLine([e.label, e.value])).join('');
  if (entries.length === 0) return '';
  const width = io.columns !== undefined && io.columns > 0 ? io.columns : DEFAULT_COLUMNS;
  const room = width - 7 - MIN_CUT_COLUMN;
  const labelWidth = Math.min(
    Math.max(...entries.map((e) => displayWidth(escapeControls(e.label)))),
    width - 7 - MIN_VALUE,
  );
  const valueRoom = width - 7 - Math.max(labelWidth, MIN_CUT_COLUMN);
  const links: [string, string][] = [];
  // Values that must be copied (a batch id) keep their width; a `wide` one that would cut the labels goes below.
  const whole = (i: number): boolean =>
    keepsWhole(cols?.[i] ?? { path: entries[i]?.label ?? '', header: '', kind: undefined, inferred: true });
  const pairs: [string, string][] = entries.map((e, i) => {
    const raw = getPath(record, e.path);
    const objects = objectList(raw);
    if (objects !== undefined) {
      const urls = objects.flatMap((item) =>
        Object.values(item).filter((v): v is string => typeof v === 'string' && URL_VALUE.test(v)),
      );
      urls.forEach((url, i) => links.push([urls.length === 1 ? e.label : `${e.label} ${i + 1}`, url]));
      const named = shortList(objects);
      return [e.label, urls.length === 0 ? named : `${named} ${LINK_BELOW}`];
    }
    if (typeof raw === 'string' && URL_VALUE.test(raw) && displayWidth(escapeControls(raw)) > valueRoom) {
      links.push([e.label, raw]);
      return [e.label, LINK_BELOW];
    }
    if (
      cols?.[i]?.wide === true &&
      !e.value.includes('\n') &&
      displayWidth(e.value) > valueRoom &&
      displayWidth(e.value) > MIN_VALUE
    ) {
      links.push([e.label, e.value]);
      return [e.label, VALUE_BELOW];
    }
    return [e.label, e.value];
  });
  // Values wrap, so the value column gives way first, down to MIN_VALUE; then the label column is cut.
  const kept = pairs.filter((_, i) => whole(i)).map(([, value]) => displayWidth(escapeControls(value)));
  const fits: ColumnFit[] = [
    { floor: MIN_CUT_COLUMN, priority: 1, droppable: false },
    { floor: Math.max(MIN_VALUE, Math.min(room, Math.max(0, ...kept))), priority: 0, droppable: false },
  ];
  const table = await renderTable({
    rows: pairs,
    width,
    color: settings.color,
    unicode: settings.unicode,
    fits,
    wrap: [false, true],
  });
  const pad = Math.max(...links.map(([label]) => displayWidth(escapeControls(label))));
  const below = links.map(([label, url]) => {
    const [name, link] = [escapeControls(label), escapeControls(url)];
    return pad + 2 + displayWidth(link) <= width
      ? `${name}${' '.repeat(pad - displayWidth(name) + 2)}${link}\n`
      : `${name}:\n${link}\n`;
  });
  return table + below.join('');
}
