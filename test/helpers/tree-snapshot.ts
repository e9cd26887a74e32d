import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * SQLite's shared-memory index and log of a WAL database: any reader opens (and may create or remove) them,
 * as the `sqlite3` shell does; what must not change is the database file and the rest of the tree.
 */
const SQLITE_SIDECAR = /\.db-(wal|shm)$/;

/**
 * Every file and folder under `dir`, recursively: a file's mtime and content, a folder's entries. Two
 * snapshots are equal when nothing was created, removed, replaced, truncated or touched (a dry run's promise).
 */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    const entries = readdirSync(d, { withFileTypes: true }).filter((e) => !SQLITE_SIDECAR.test(e.name));
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out[`${p}/`] = readdirSync(p)
          .filter((n) => !SQLITE_SIDECAR.test(n))
          .sort()
          .join('\n');
        walk(p);
      } else out[p] = `${statSync(p).mtimeMs} ${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}
