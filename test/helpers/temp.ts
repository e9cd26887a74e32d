/**
 * The one temp-dir/file helper of the suite: every directory a test makes lives under one folder per
 * test process, removed when the process ends, so parallel files never share a path and nothing is
 * left in the system's temp folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let root: string | undefined;

function testRoot(): string {
  if (root === undefined) {
    root = mkdtempSync(join(tmpdir(), `creators-test-${process.pid}-`));
    const made = root;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return root;
}

/** A new, empty directory (`prefix` names it, to read paths in failures). */
export function tempDir(prefix = 'creators-'): string {
  const base = testRoot();
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, prefix));
}

/** Writes `content` to a new file `name` in a new directory (or in `dir`); returns both paths. */
export function tempFile(name: string, content: string | Buffer, dir = tempDir('creators-file-')): { dir: string; path: string } {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { dir, path };
}
