/** The output format an `-o` file name implies. Kept apart from the sink so option parsing stays light. */
import type { Format } from './types.js';

export function formatFromPath(filePath: string): Format | undefined {
  const dot = filePath.lastIndexOf('.');
  const slash = Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\'));
  // `.csv` alone is a hidden file's name, not an extension (as in path.extname).
  if (dot <= slash + 1) return undefined;
  switch (filePath.slice(dot).toLowerCase()) {
    case '.csv':
      return 'csv';
    case '.tsv':
      return 'tsv';
    case '.json':
      return 'json';
    case '.jsonl':
    case '.ndjson':
      return 'jsonl';
    default:
      return undefined;
  }
}
