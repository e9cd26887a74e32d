/**
 * vitest global set-up: one folder for every temp dir of the run (`test/helpers/temp.ts`), removed when
 * the run ends. Workers are stopped without an 'exit' event, so the main process does the removing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'creators-test-'));
  process.env.CREATORS_TEST_TMP = root;
  return () => rmSync(root, { recursive: true, force: true });
}
