/**
 * The one atomic file writer: data goes to a temporary file `.<name>.<pid>.<random>.tmp` beside the
 * target, which `commit` flushes to disk (when durable) and renames over the target, so readers only
 * ever see the old file or the whole new one. Output files (`-o`), the `batch run` journal and the
 * `events tail` cursor are all written through it. The temporary file is private (0600) from the
 * start: it may hold paid-for data; a new target stays 0600, a replaced one keeps its permissions.
 * Temporary files of the same target left by processes that no longer exist (`kill -9`, a power cut)
 * are removed when the next one is opened, so they never pile up.
 *
 * A target that is not a regular file (a device such as /dev/null, a FIFO, a terminal, `/dev/stdout`,
 * `/dev/fd/N` as bash's `>(cmd)` gives it) is never renamed over: replacing /dev/null as root would
 * replace the system's device, and a FIFO's reader would get nothing. It is written through in place,
 * as a shell redirect writes it (`writesInPlace` is the one rule, also used by the `-o` preflight).
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, statSync, unlinkSync, type WriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { processAlive } from './process-alive.js';

export interface AtomicFileOptions {
  /**
   * fsync the file before the rename (default true), so it survives a power cut as well as a failed
   * run. False for bytes that can be fetched again for free (batch downloads): still atomic, but not
   * waiting for the disk, like `curl -o`.
   */
  durable?: boolean | undefined;
  /**
   * Permissions of the written file whatever the target had, less the umask. Without it a new file
   * is 0o600 (output may hold paid-for data: private unless the user widens it) and a replaced file
   * keeps its permissions.
   */
  mode?: number | undefined;
}

/** A temporary file on its way to becoming `target` (or, for a device or a FIFO, the target itself). */
export interface AtomicFile {
  /** The absolute target path. */
  readonly target: string;
  /** The temporary file, in the target's folder; the target itself when `inPlace`. */
  readonly tempPath: string;
  /**
   * True when the target is written through in place (see `writesInPlace`): no temporary file, no
   * fsync, no rename; what was written cannot be taken back, so `abort` only closes.
   */
  readonly inPlace: boolean;
  /** Open for writing (`write`, `writev`, `datasync`...); `commit` and `abort` close it. */
  readonly handle: FileHandle;
  /**
   * A write stream over `handle` (one per file), left open after 'finish' so `commit` can still fsync:
   * end it before `commit`, which destroys it when the data is on disk.
   */
  createWriteStream(options?: { encoding?: BufferEncoding; highWaterMark?: number }): WriteStream;
  /**
   * fsyncs (when durable), applies the permissions, closes and renames over the target. On failure
   * the temporary file is removed, the target is untouched, and the system error is rethrown.
   */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; the target is untouched. Never throws. */
  abort(): Promise<void>;
}

// Temporary files not yet committed or aborted. If the process ends abruptly (an unhandled signal
// path, a crash), a single 'exit' listener removes them so no `.tmp` file is left in the user's folder.
const pendingTemps = new Set<string>();
let exitHookInstalled = false;

function trackTemp(tempPath: string): void {
  pendingTemps.add(tempPath);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const temp of pendingTemps) {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone.
      }
    }
  });
}

/** The temporary file's name for `target`: hidden, in the same folder (a rename cannot cross file systems). */
function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Removes temporary files of `target` whose writer is gone (its pid no longer runs, or now belongs to
 * a process that started after the file was last written): what a `kill -9` or a power cut left.
 * Another live process's file is left alone. Best effort: never throws.
 */
export async function removeStaleTemps(target: string): Promise<string[]> {
  const dir = path.dirname(target);
  const prefix = `.${path.basename(target)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    if (!m) continue;
    const pid = Number(m[1]);
    const stale = path.join(dir, name);
    // A process that started after the file was last written is not its writer (a reused pid).
    const writtenAt = await fsp.stat(stale).then((st) => st.mtimeMs, () => undefined);
    if (writtenAt === undefined || pid === process.pid || processAlive(pid, { seenAt: writtenAt })) continue;
    if (await fsp.unlink(stale).then(() => true, () => false)) removed.push(stale);
  }
  return removed;
}

/** Paths naming an open descriptor of this process (`/dev/stdout`, `/dev/fd/3`, `>(cmd)`), whatever it leads to. */
const DESCRIPTOR_PATH = /^\/(?:dev\/(?:stdout|stderr|fd\/\d+)|proc\/(?:self|thread-self|\d+)\/fd\/\d+)$/;

/**
 * Whether `target` (absolute) names this process's standard output (`/dev/stdout`, `/dev/fd/1`,
 * `/proc/self/fd/1`): written as stdout itself, which may be a socket (Node's child processes get
 * socket pairs) that no path can open.
 */
export function namesStdout(target: string): boolean {
  return new RegExp(`^/(?:dev/(?:stdout|fd/1)|proc/(?:self|thread-self|${process.pid})/fd/1)$`).test(target);
}

/**
 * Whether `target` (absolute) is written through in place rather than replaced: a descriptor path
 * (`/dev/stdout`, `/dev/fd/N`: the shell's redirect or pipe behind it is the destination), or an
 * existing target that is neither a regular file nor a folder (a character or block device, a FIFO,
 * a socket). A missing target, a regular file or a symbolic link to one is written atomically.
 */
export function writesInPlace(target: string): boolean {
  if (DESCRIPTOR_PATH.test(target)) return true;
  try {
    const st = statSync(target);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/** A socket cannot be opened as a file: said in words (open() would only answer ENXIO). */
function notWritable(target: string): Error | undefined {
  try {
    if (statSync(target).isSocket()) return Object.assign(new Error('it is a socket, not a file, a device or a FIFO'), { code: 'ENXIO' });
  } catch {
    // Gone or unreachable: open() says why.
  }
  return undefined;
}

/**
 * Opens a device, FIFO or descriptor path for writing where it is, as `>` would (a FIFO waits for its
 * reader). Appending: through `/dev/fd/N` onto a file the shell opened with `>>`, nothing is lost;
 * after `>` the file is empty anyway. Never creates anything.
 */
async function openInPlace(absolute: string): Promise<AtomicFile> {
  const refused = notWritable(absolute);
  if (refused) throw refused;
  const handle = await fsp.open(absolute, constants.O_WRONLY | constants.O_APPEND);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  let stream: WriteStream | undefined;
  const close = async (): Promise<void> => {
    if (stream && !stream.destroyed) stream.destroy();
    await handle.close();
  };
  return {
    target: absolute,
    tempPath: absolute,
    inPlace: true,
    handle,
    createWriteStream(streamOptions = {}) {
      if (stream) throw new Error(`${absolute} already has a write stream`);
      stream = handle.createWriteStream({ ...streamOptions, autoClose: false });
      return stream;
    },
    async commit() {
      if (state !== 'open') throw new Error(`${absolute} was already ${state}`);
      state = 'committed';
      await close();
    },
    async abort() {
      if (state !== 'open') return;
      state = 'aborted';
      await close().catch(() => {});
    },
  };
}

/**
 * Creates the temporary file for `target` (resolved against the process's cwd when relative), after
 * removing stale ones of the same target (`removeStaleTemps`). Rejects with the system error when it
 * cannot be created (`ENOENT`: no such folder, `EACCES`...). A target that `writesInPlace` is opened
 * itself instead (`inPlace`: no temporary file, no rename).
 */
export async function openAtomicFile(target: string, options: AtomicFileOptions = {}): Promise<AtomicFile> {
  const absolute = path.resolve(target);
  if (writesInPlace(absolute)) return openInPlace(absolute);
  const durable = options.durable ?? true;
  await removeStaleTemps(absolute);
  const tempPath = tempPathFor(absolute);
  const handle = await fsp.open(tempPath, 'wx', options.mode ?? 0o600);
  trackTemp(tempPath);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  let stream: WriteStream | undefined;

  // Destroying a stream made from a FileHandle closes the handle, and the handle's close() waits until
  // its streams are destroyed: so the stream goes after the fsync, before the close.
  const closeHandle = async (): Promise<void> => {
    if (stream && !stream.destroyed) stream.destroy();
    await handle.close();
  };
  const discard = async (): Promise<void> => {
    await closeHandle().catch(() => {});
    await fsp.unlink(tempPath).catch(() => {});
    pendingTemps.delete(tempPath);
  };

  return {
    target: absolute,
    tempPath,
    inPlace: false,
    handle,
    createWriteStream(streamOptions = {}) {
      if (stream) throw new Error(`${absolute} already has a write stream`);
      stream = handle.createWriteStream({ ...streamOptions, autoClose: false });
      return stream;
    },
    async commit() {
      if (state !== 'open') throw new Error(`${absolute} was already ${state}`);
      state = 'committed';
      try {
        if (durable) await handle.sync();
        if (options.mode === undefined) {
          const existing = await fsp.stat(absolute).catch(() => undefined);
          if (existing?.isFile()) await handle.chmod(existing.mode & 0o7777);
        }
        await closeHandle();
        await fsp.rename(tempPath, absolute);
        pendingTemps.delete(tempPath);
      } catch (err) {
        await discard();
        throw err;
      }
    },
    async abort() {
      if (state !== 'open') return;
      state = 'aborted';
      await discard();
    },
  };
}

/**
 * Replaces `target` with `data` atomically (see `openAtomicFile`). Rejects with the system error;
 * nothing is left behind and an existing target is untouched.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicFileOptions = {}): Promise<void> {
  const file = await openAtomicFile(target, options);
  try {
    await file.handle.writeFile(data);
  } catch (err) {
    await file.abort();
    throw err;
  }
  await file.commit();
}
