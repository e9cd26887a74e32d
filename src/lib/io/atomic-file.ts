/**
 * The one atomic file writer (`-o`, the `batch run` journal, the `events tail` cursor): data goes to
 * `.<name>.<pid>.<random>.tmp` beside the target (a rename cannot cross file systems), 0600 from the start
 * (paid-for data), fsynced when durable, then renamed over it: readers see the old file or the whole new one.
 * Temp files whose writer is gone (`kill -9`, a power cut) are removed when the next one is opened.
 * A target that is not a regular file (/dev/null, a FIFO, a terminal, bash's `>(cmd)` as `/dev/fd/N`) is
 * written in place as `>` would: a rename would replace /dev/null itself (as root) and leave a FIFO's reader
 * with nothing (`writesInPlace`, also the `-o` preflight's rule).
 */
import { constants, promises as fsp, statSync, unlinkSync, type WriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { processAlive } from './process-alive.js';

export interface AtomicFileOptions {
  /** false: no fsync, for bytes that can be fetched again for free (batch downloads); still atomic, like `curl -o`. */
  durable?: boolean | undefined;
  /** Whatever the target had, less the umask. Default: 0600 for a new file; a replaced one keeps its mode. */
  mode?: number | undefined;
}

export interface AtomicFile {
  readonly target: string;
  readonly tempPath: string;
  /** Written through (`writesInPlace`): nothing can be taken back, so `abort` only closes. */
  readonly inPlace: boolean;
  readonly handle: FileHandle;
  /** Left open after 'finish' so `commit` can still fsync: end it before `commit`. */
  createWriteStream(options?: { encoding?: BufferEncoding; highWaterMark?: number }): WriteStream;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

// Removed by one 'exit' listener if the process ends abruptly, so no .tmp is left in the user's folder.
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
      } catch {}
    }
  });
}

function tempPathFor(target: string): string {
  // node:crypto loaded when a file is written, not by every command whose output could go to one.
  const random = process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex');
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${random}.tmp`);
}

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
    const writtenAt = await fsp.stat(stale).then(
      (st) => st.mtimeMs,
      () => undefined,
    );
    if (writtenAt === undefined || !writerGone(pid, writtenAt)) continue;
    if (
      await fsp.unlink(stale).then(
        () => true,
        () => false,
      )
    )
      removed.push(stale);
  }
  return removed;
}

/**
 * Whether the process `pid` that wrote a temp file (or folder) is gone, so what it left may be removed: not this
 * process, and no live process with that pid (given `writtenAt`, none started before that write: a reused pid).
 */
export function writerGone(pid: number, writtenAt?: number): boolean {
  return pid !== process.pid && !processAlive(pid, writtenAt === undefined ? {} : { seenAt: writtenAt });
}

const DESCRIPTOR_PATH = /^\/(?:dev\/(?:stdout|stderr|fd\/\d+)|proc\/(?:self|thread-self|\d+)\/fd\/\d+)$/;

/** `/dev/stdout` and kin: written as stdout itself, which may be a socket (child processes) no path can open. */
export function namesStdout(target: string): boolean {
  return new RegExp(`^/(?:dev/(?:stdout|fd/1)|proc/(?:self|thread-self|${process.pid})/fd/1)$`).test(target);
}

/** A descriptor path, or an existing target neither a regular file nor a folder (a device, a FIFO, a socket). */
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
    if (statSync(target).isSocket())
      return Object.assign(new Error('it is a socket, not a file, a device or a FIFO'), { code: 'ENXIO' });
  } catch {}
  return undefined;
}

// O_APPEND: through /dev/fd/N onto a file the shell opened with `>>` nothing is lost; after `>` it is empty anyway.
async function openInPlace(absolute: string): Promise<AtomicFile> {
  const refused = notWritable(absolute);
  if (refused) throw refused;
  const handle = await fsp.open(absolute, constants.O_WRONLY | constants.O_APPEND);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  const { createWriteStream, close } = oneStream(handle, absolute);
  return {
    target: absolute,
    tempPath: absolute,
    inPlace: true,
    handle,
    createWriteStream,
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
 * The one write stream a handle may have, and its close. Destroying a stream made from a FileHandle closes the
 * handle, and the handle's close() waits until its streams are destroyed: so the stream goes (after any fsync)
 * before the close.
 */
function oneStream(
  handle: FileHandle,
  absolute: string,
): { createWriteStream: AtomicFile['createWriteStream']; close: () => Promise<void> } {
  let stream: WriteStream | undefined;
  return {
    createWriteStream(streamOptions = {}) {
      if (stream) throw new Error(`${absolute} already has a write stream`);
      stream = handle.createWriteStream({ ...streamOptions, autoClose: false });
      return stream;
    },
    async close() {
      if (stream && !stream.destroyed) stream.destroy();
      await handle.close();
    },
  };
}

export async function openAtomicFile(target: string, options: AtomicFileOptions = {}): Promise<AtomicFile> {
  const absolute = path.resolve(target);
  if (writesInPlace(absolute)) return openInPlace(absolute);
  const durable = options.durable ?? true;
  await removeStaleTemps(absolute);
  const tempPath = tempPathFor(absolute);
  const handle = await fsp.open(tempPath, 'wx', options.mode ?? 0o600);
  trackTemp(tempPath);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  const { createWriteStream, close: closeHandle } = oneStream(handle, absolute);
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
    createWriteStream,
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

export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicFileOptions = {},
): Promise<void> {
  const file = await openAtomicFile(target, options);
  try {
    await file.handle.writeFile(data);
  } catch (err) {
    await file.abort();
    throw err;
  }
  await file.commit();
}
