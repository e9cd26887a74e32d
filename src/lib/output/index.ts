/** Importing this module loads no heavy dependency: cli-table3 is imported inside the functions that use it. */
export * from './types.js';
export { cellText, flattenRecord, getPath, keyed, selectFields, toCell, type FlatRecord, type FlatValue } from './flatten.js';
export { countText, creditCount, displayWidth, humanCount, humanDate, percent, plural, toNumber, truncate } from './humanize.js';
export { formatFromPath, openSink, OutputFileError, outputFileCliError, writeChunk, type Sink, type SinkOptions } from './sink.js';
export { isTerminalTable, printBytes, printItem, printJsonRows, printList, printRows, printText, type TerminalView } from './printers.js';
export { printError, type PrintableError } from './errors-print.js';
export { escapeControls, escapeJsonC1 } from '../io/safe-text.js';
export { stringifyJson } from '../exact-json.js';
export { jsonText, OrderedJson, orderedJsonText } from './json-text.js';
