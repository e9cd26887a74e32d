import { describe, expect, it } from 'vitest';
import { describeFsError } from '../../../src/lib/io/errno.js';

const sys = (code: string, message = `${code}: some system text`): NodeJS.ErrnoException =>
  Object.assign(new Error(message), { code });

describe('describeFsError', () => {
  it('words each common system error the same way for every reader and writer', () => {
    expect(describeFsError(sys('EACCES'))).toBe('permission denied');
    expect(describeFsError(sys('EPERM'))).toBe('permission denied');
    expect(describeFsError(sys('EISDIR'))).toBe('it is a directory');
    expect(describeFsError(sys('ENOTDIR'))).toBe('a parent is not a directory');
    expect(describeFsError(sys('EROFS'))).toBe('read-only file system');
    expect(describeFsError(sys('ENOSPC'))).toBe('no space left on device');
    expect(describeFsError(sys('EIO'))).toBe('input/output error');
  });

  it('ENOENT is a missing file when reading, a missing folder when writing', () => {
    expect(describeFsError(sys('ENOENT'))).toBe('no such file');
    expect(describeFsError(sys('ENOENT'), 'read')).toBe('no such file');
    expect(describeFsError(sys('ENOENT'), 'write')).toBe('no such directory');
  });

  it('falls back to the message for an unknown code, and copes with non-errors', () => {
    expect(describeFsError(sys('EWEIRD', 'something odd'))).toBe('something odd');
    expect(describeFsError(new Error('plain'))).toBe('plain');
    expect(describeFsError('text')).toBe('text');
    expect(describeFsError(undefined)).toBe('undefined');
  });
});
