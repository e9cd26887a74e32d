/**
 * The one temp-dir/file helper of the suite: every directory a test makes is a new one under the run's
 * folder (made and removed by test/helpers/temp-root.ts), so parallel files never share a path and
 * nothing is left in the system's temp folder.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's folder; outside a vitest run (a script importing this), the system's temp folder. */
function testRoot(): string {
  return process.env.CREATORS_TEST_TMP ?? tmpdir();
}

/** A new, empty directory (`prefix` names it, to read paths in failures). */
export function tempDir(prefix = 'creators-'): string {
  const base = testRoot();
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, prefix));
}

/** Writes `content` to a new file `name` in a new directory (or in `dir`); returns both paths. */
export function tempFile(
  name: string,
  content: string | Buffer,
  dir = tempDir('creators-file-'),
): { dir: string; path: string } {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { dir, path };
}
