/** The store's failures as one line naming the file; never a silent run without memory, which could pay again. */
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { BusyError, CliError, EXIT } from '../errors.js';

export const NO_STORE = 'or run with --no-store to buy without the purchase memory';

/** A store written by a newer version, file or server alike: refused untouched. */
export function tooNewError(
  where: string,
  e: { found?: number | undefined; known?: number | undefined },
  cause: unknown,
): CliError {
  return new CliError(
    `The store ${where} was written by a newer version of creators (schema ${e.found}; this one knows ${e.known}); nothing was changed.`,
    EXIT.ERROR,
    {
      code: 'store_too_new',
      hint: `Upgrade creators-cli (npm install -g creators-cli@latest), ${NO_STORE}.`,
      cause,
    },
  );
}

/** Whether the store's folder has no space left: SQLite reports a shared-memory file it cannot grow as an I/O error. */
function noSpace(file: string): boolean {
  try {
    return statfsSync(dirname(file)).bavail === 0;
  } catch {
    return false;
  }
}

export function storeError(err: unknown, file: string): CliError {
  if (err instanceof CliError) return err;
  const e = (err ?? {}) as { code?: unknown; message?: unknown; found?: number; known?: number };
  const code = String(e.code ?? '');
  const message = typeof e.message === 'string' ? e.message : String(err);
  if (code === 'CREATORS_NEWER_SCHEMA') return tooNewError(file, e, err);
  if (code === 'CREATORS_FOREIGN_DB') {
    return new CliError(
      `${file} is an SQLite database of another program, not a creators store; nothing was changed.`,
      EXIT.ERROR,
      {
        code: 'store_foreign',
        hint: `Point CREATORS_STORE (or the store setting) at a file of its own, ${NO_STORE}.`,
        cause: err,
      },
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new BusyError(
      `The store ${file} stayed locked by another process past the busy timeout; nothing more was sent.`,
      {
        code: 'store_busy',
        hint: 'Wait for the other run to finish and try again (CREATORS_STORE_BUSY_TIMEOUT sets the wait, in seconds).',
        cause: err,
      },
    );
  }
  if (
    code.startsWith('SQLITE_FULL') ||
    /ENOSPC|disk is full|database or disk is full/i.test(message) ||
    (code.startsWith('SQLITE_IOERR') && noSpace(file))
  ) {
    return new CliError(`Cannot write to the store ${file}: the disk is full.`, EXIT.ERROR, {
      code: 'store_full',
      hint: `Free some space there, then re-run the same command (answers the store kept are not bought again), ${NO_STORE}.`,
      cause: err,
    });
  }
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new CliError(`The store ${file} is not a readable database (${message}).`, EXIT.ERROR, {
      code: 'store_corrupt',
      hint: `Move it aside (its answers can no longer be reused) and re-run, ${NO_STORE}.`,
      cause: err,
    });
  }
  return new CliError(`Cannot use the store ${file}: ${message}.`, EXIT.ERROR, {
    code: 'store_failed',
    hint: `Check the file and its folder's permissions and free space, ${NO_STORE}.`,
    cause: err,
  });
}
