import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { namesStdout, writesInPlace } from '../io/atomic-file.js';

/** Before anything is sent: a paid result must never be fetched only to be lost because the file cannot be created. */
export function checkOutputPath(target: string): void {
  const dir = path.dirname(target);
  const fail = (why: string): never => {
    throw new UsageError(`Cannot write -o ${target}: ${why}.`, {
      hint: 'Choose a file in an existing, writable folder; nothing was sent.',
    });
  };
  if (namesStdout(target)) return;
  if (writesInPlace(target)) {
    // A device, FIFO or descriptor path is written where it is: its folder (/dev) need not be writable.
    try {
      accessSync(target, constants.W_OK);
    } catch {
      fail('permission denied');
    }
    if (statSync(target, { throwIfNoEntry: false })?.isSocket()) fail('it is a socket, not a file, a device or a FIFO');
    return;
  }
  let dirStat;
  try {
    dirStat = statSync(dir);
  } catch {
    return fail(`the folder ${dir} does not exist`);
  }
  if (!dirStat.isDirectory()) fail(`${dir} is not a folder`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    fail(`the folder ${dir} is not writable`);
  }
  try {
    if (statSync(target).isDirectory()) fail('it is a folder');
  } catch (err) {
    if (err instanceof UsageError) throw err;
  }
}
