// The one wording of file system errors, after "Cannot read ...:" or "cannot write ...:".

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

/** ENOENT is `no such file` when reading, `no such directory` when writing (a new file lacks only its folder). */
export function describeFsError(err: unknown, access: FsAccess = 'read'): string {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (code === 'ENOENT') return access === 'write' ? 'no such directory' : 'no such file';
  if (typeof code === 'string' && WORDS[code] !== undefined) return WORDS[code];
  if (err instanceof Error) return err.message;
  return String(err);
}
