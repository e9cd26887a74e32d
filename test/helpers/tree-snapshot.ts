import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every file and folder under `dir`, recursively: path -> mtime (and a file's content). Two snapshots
 * are equal when nothing was created, removed, replaced, truncated or touched (a dry run's promise).
 */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out[`${p}/`] = String(statSync(p).mtimeMs);
        walk(p);
      } else out[p] = `${statSync(p).mtimeMs} ${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}
