/** Importing this module loads no heavy dependency: cli-table3 is imported inside the functions that use it. */
export * from './types.js';
export { getPath, keyed, selectFields, toCell, type FlatValue } from './flatten.js';
export { humanCount, humanDate, percent, toNumber, truncate } from './humanize.js';
export { countText, creditCount, plural } from '../words.js';
export { displayWidth } from '../io/width.js';
export { openSink, OutputFileError, outputFileCliError, writeChunk } from './sink.js';
export { printBytes, printItem, printJsonRows, printList, printRowBatches, printRows, printText } from './printers.js';
export { isTerminalTable } from './terminal-printers.js';
export { escapeControls } from '../io/safe-text.js';
export { stringifyJson } from '../exact-json.js';
export { jsonText, OrderedJson, orderedJsonText } from './json-text.js';
