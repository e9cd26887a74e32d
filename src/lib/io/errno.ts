/**
 * The one map from a file system error to the few words shown after "Cannot read ... :" or "cannot
 * write ...:". Every reader and writer of user files words a failure the same way.
 */

/** Whether the failing path was being read (a missing file) or written (a missing folder). */
export type FsAccess = 'read' | 'write';

const WORDS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a parent is not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  EIO: 'input/output error',
  EBUSY: 'resource busy',
};

/**
 * Describes a file system error in a few lower-case words (no final period): `permission denied`,
 * `no such file`... ENOENT reads `no such file` when reading and `no such directory` when writing
 * (a file being created is missing only its folder). An error without a known code gives its message.
 */
export function describeFsError(err: unknown, access: FsAccess = 'read'): string {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (code === 'ENOENT') return access === 'write' ? 'no such directory' : 'no such file';
  if (typeof code === 'string' && WORDS[code] !== undefined) return WORDS[code];
  if (err instanceof Error) return err.message;
  return String(err);
}
