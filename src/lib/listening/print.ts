import {
  isTerminalTable,
  printItem,
  printList,
  printText,
  type ColumnSpec,
  type DataRecord,
  type OutputSettings,
} from '../output/index.js';
import type { Terminal } from '../io/terminal.js';
import { pageOnce } from '../output/pager.js';

/** On a terminal, the scalars as a key/value table and the list below, paged once; elsewhere the record untouched. */
export async function printWithRows(
  io: Terminal,
  output: OutputSettings,
  record: DataRecord,
  listKey: string,
  rowColumns: ColumnSpec[],
): Promise<void> {
  const rows = record[listKey];
  if (!isTerminalTable(io, output) || output.fields || !Array.isArray(rows)) {
    await printItem(io, output, record);
    return;
  }
  const summary = Object.fromEntries(Object.entries(record).filter(([k, v]) => k !== listKey && !Array.isArray(v)));
  await pageOnce(output, async (screen) => {
    await printItem(io, screen, summary);
    if (rows.length > 0) {
      await printText(io, screen, `\n${listKey}:\n`);
      await printList(io, screen, rows as DataRecord[], rowColumns);
    }
  });
}
