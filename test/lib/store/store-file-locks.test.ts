/**
 * Checking where the store is must never drop the locks SQLite holds on it. POSIX record locks belong to the
 * process and file: closing any descriptor of the database file (a look before a paid step, a second open in
 * the same run) releases all of them. Another process closing its connection then finds the store unused,
 * folds the WAL into the file and deletes it while this run keeps appending answers to the deleted WAL: those
 * commits were lost at the next kill (found by the kill -9 test of `search --all` under load).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkStoreFile } from '../../../src/lib/store/open.js';
import { prepareStoreFile } from '../../../src/lib/store/location.js';
import { openSqliteStore } from '../../../src/lib/store/sqlite.js';
import { answer, me, spend } from '../../helpers/store-records.js';
import { tempDir } from '../../helpers/temp.js';

/** Another process opens the store, reads, and really closes its connection (libsql closes when collected). */
function otherProcessOpensAndCloses(file: string): number {
  const script = `
    const D = require('libsql');
    let db = new D(${JSON.stringify(file)});
    const n = db.prepare("SELECT COUNT(*) AS n FROM answers").get().n;
    db.close(); db = undefined; global.gc(); global.gc();
    setTimeout(() => { process.stdout.write(String(n)); }, 50);`;
  const r = spawnSync(process.execPath, ['--expose-gc', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout);
}

it('a run that looks at its store file while it has it open keeps every answer it commits after, whoever closes meanwhile', async () => {
  const file = join(tempDir('creators-locks-'), 'store.db');
  const s = await openSqliteStore({ file });
  try {
    await s.commit(answer('before'), ['before'], spend('r', 30, undefined, 'r:before'), me('r'));
    // What the run does while its store is open: the check before a paid step, a second open for the spend log.
    checkStoreFile(file);
    prepareStoreFile(file, { create: true });
    await (await openSqliteStore({ file, readOnly: true })).close();
    expect(otherProcessOpensAndCloses(file)).toBe(1);
    await s.commit(answer('after'), ['after'], spend('r', 30, undefined, 'r:after'), me('r'));
    // A fresh process (this one's connection still open, as at a kill -9) sees both.
    expect(otherProcessOpensAndCloses(file)).toBe(2);
  } finally {
    await s.close();
  }
});
