/**
 * The resume journal of a bulk enrichment run: every row the service answered (`ok` or `not_found`)
 * is appended as one JSON line, durably, as soon as it is answered, so a re-run of the same command
 * after Ctrl-C, a 402, a limit, a failed write, `kill -9` or a power cut sends only the rows not yet
 * answered and writes the whole output as if nothing had happened.
 *
 * One file per run identity in `<config dir>/enrich-runs/<key>.jsonl` (the directory of the config
 * and the `batch run` journal), private (0600 in a 0700 folder). The key is a hash of everything
 * that decides what is sent and where it goes: the input (absolute path, size and mtime; or the
 * values given as arguments), the kind, the request options, the value column, the output (`-o`
 * path or stdout), base URL and profile. Standard input cannot be identified: it is never journaled.
 *
 * Rows are keyed by their index in the input, which is stable while the input's size and mtime are.
 * Only the index of the file is held in memory (row -> byte range); a resumed row is read back when
 * its turn comes. Appends are group-committed: the lines that arrive while one fsync is in flight go
 * out together with the next, so the cost per row falls as the rate rises.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BusyError, CliError, EXIT } from '../errors.js';
import { describeFsError } from '../io/errno.js';
import { describeHolder, tryLock, type FileLock } from '../io/lock.js';
import type { RowStatus } from './records.js';

export const RUNS_DIR = 'enrich-runs';

/** Journals not written to for this long are forgotten (deleted when another run opens one). */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** What identifies a run; two commands with the same identity share their answers. */
export interface RunIdentity {
  kind: 'handle' | 'email';
  /** The request options (mode, platform, email-required, audience, lookalikes, min-followers...). */
  request: Record<string, unknown>;
  /** The values given as arguments, when there is no input file. */
  values: readonly string[];
  /** `--input` resolved to an absolute path (not `-`). */
  inputPath?: string | undefined;
  /** The value column (name and index). */
  column: string;
  columnIndex: number;
  /** The `-o` file (absolute), or undefined for stdout. */
  outputPath?: string | undefined;
  baseUrl: string;
  profile: string;
}

/** The journal key of a run: a hash of its identity (input size and mtime included, so an edited file is a new run). */
export async function runKey(id: RunIdentity): Promise<string> {
  let input: unknown;
  if (id.inputPath !== undefined) {
    const st = await fsp.stat(id.inputPath);
    input = { path: id.inputPath, size: st.size, mtime_ms: st.mtimeMs };
  } else {
    input = { values_sha256: createHash('sha256').update(JSON.stringify(id.values)).digest('hex') };
  }
  const request = Object.keys(id.request)
    .sort()
    .map((k) => [k, id.request[k] ?? null]);
  const canonical = JSON.stringify({
    v: 1,
    kind: id.kind,
    request,
    input,
    column: [id.column, id.columnIndex],
    output: id.outputPath ?? '-',
    base_url: id.baseUrl,
    profile: id.profile,
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** A row the service answered, as kept in the journal. */
export interface JournaledRow {
  status: Extract<RowStatus, 'ok' | 'not_found'>;
  creditsMilli: number;
  result: Record<string, unknown> | null;
}

interface Header {
  v: 1;
  kind: string;
  input: string;
  output: string;
  created_at: string;
}

function journalError(what: string, file: string, err: unknown): CliError {
  return new CliError(`Cannot ${what} the resume journal ${file}: ${describeFsError(err, 'write')}.`, EXIT.ERROR, {
    code: 'journal_failed',
    hint: 'Free some space or fix the permissions of the config directory (CREATORS_CONFIG_DIR), then re-run the same command.',
    cause: err,
  });
}


export class RunJournal {
  /** Row index -> byte range of its line in the file. */
  private readonly done = new Map<number, { offset: number; length: number }>();
  /** Where the last whole line ends: a torn line after it (a crash mid-append) is cut off before appending. */
  private goodEnd = 0;
  private validHeader = false;
  private handle: FileHandle | undefined;
  private lock: FileLock | undefined;
  private queue: { line: string; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private flushing = false;

  private constructor(
    readonly path: string,
    private readonly lockPath: string,
  ) {}

  /** Reads the journal of `key` in `dir` (a missing, foreign or expired file is an empty journal). Writes nothing. */
  static async read(dir: string, key: string, now: () => number): Promise<RunJournal> {
    const journal = new RunJournal(path.join(dir, RUNS_DIR, `${key}.jsonl`), path.join(dir, RUNS_DIR, `${key}.lock`));
    const st = await fsp.stat(journal.path).catch(() => undefined);
    if (st?.isFile() && now() - st.mtimeMs < MAX_AGE_MS) await journal.load();
    return journal;
  }

  private async load(): Promise<void> {
    let offset = 0;
    let carry: Buffer = Buffer.alloc(0);
    let broken = false;
    const onLine = (line: Buffer, at: number): void => {
      if (broken) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line.toString('utf8'));
      } catch {
        broken = true;
        return;
      }
      const o = parsed as Record<string, unknown>;
      if (!this.validHeader) {
        if (o.v !== 1) {
          broken = true;
          return;
        }
        this.validHeader = true;
      } else if (typeof o.i === 'number' && (o.status === 'ok' || o.status === 'not_found')) {
        this.done.set(o.i, { offset: at, length: line.length });
      }
      this.goodEnd = at + line.length + 1;
    };
    try {
      for await (const chunk of createReadStream(this.path)) {
        const buf: Buffer = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
        let start = 0;
        for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
          onLine(buf.subarray(start, nl), offset + start);
          start = nl + 1;
        }
        offset += start;
        carry = buf.subarray(start);
      }
    } catch {
      // Unreadable: treated as empty (it is only a cache of answers; the worst case is paying again).
      this.done.clear();
      this.validHeader = false;
      this.goodEnd = 0;
    }
    if (!this.validHeader) this.goodEnd = 0;
  }

  /** Rows already answered with an index below `limit` (the rows this run covers). */
  doneCount(limit = Infinity): number {
    let n = 0;
    for (const i of this.done.keys()) if (i < limit) n++;
    return n;
  }

  has(index: number): boolean {
    return this.done.has(index);
  }

  /**
   * Takes the journal for this run and opens it for appending: refuses (exit 9) while another live
   * process holds it, forgets the earlier answers with `restart`, cuts off a torn last line, removes
   * other journals untouched for 30 days. Call only when the run will really send (never in a dry run).
   */
  async open(o: { restart: boolean; header: Omit<Header, 'v'>; now: () => number }): Promise<void> {
    const dir = path.dirname(this.path);
    try {
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      await this.takeLock();
      await this.sweep(o.now);
      this.handle = await fsp.open(this.path, 'a+', 0o600);
      if (o.restart || !this.validHeader) {
        this.done.clear();
        this.goodEnd = 0;
      }
      const { size } = await this.handle.stat();
      if (size !== this.goodEnd) await this.handle.truncate(this.goodEnd);
      if (this.goodEnd === 0) {
        await this.handle.appendFile(`${JSON.stringify({ v: 1, ...o.header })}\n`);
        await this.handle.datasync();
      }
    } catch (err) {
      await this.close();
      if (err instanceof CliError) throw err;
      throw journalError('open', this.path, err);
    }
  }

  /** The run lock (lib/io/lock.ts): a live holder means exit 9; a lock left by a dead process is taken over. */
  private async takeLock(): Promise<void> {
    const attempt = tryLock(this.lockPath);
    if (attempt.acquired) {
      this.lock = attempt.lock;
      return;
    }
    throw new BusyError(`Another run of this same command is in progress (${describeHolder(attempt.holder)}; it holds the resume journal); nothing was sent.`, {
      hint: `Wait for it to finish, or remove ${this.lockPath} if no such run exists.`,
    });
  }

  private async sweep(now: () => number): Promise<void> {
    const dir = path.dirname(this.path);
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.jsonl') || path.join(dir, name) === this.path) continue;
      const file = path.join(dir, name);
      const st = await fsp.stat(file).catch(() => undefined);
      if (st && now() - st.mtimeMs > MAX_AGE_MS) {
        await fsp.unlink(file).catch(() => undefined);
        await fsp.unlink(file.replace(/\.jsonl$/, '.lock')).catch(() => undefined);
      }
    }
  }

  /** The journaled answer of row `index` (read back from the file). */
  async row(index: number): Promise<JournaledRow> {
    const at = this.done.get(index);
    if (!at || !this.handle) throw new Error(`row ${index} is not in the journal`);
    const buf = Buffer.alloc(at.length);
    await this.handle.read(buf, 0, at.length, at.offset);
    const o = JSON.parse(buf.toString('utf8')) as { status: JournaledRow['status']; credits_milli: number; result: Record<string, unknown> | null };
    return { status: o.status, creditsMilli: o.credits_milli, result: o.result };
  }

  /** Appends an answered row and resolves once it is on disk (fsync shared with the rows queued meanwhile). */
  record(index: number, row: JournaledRow): Promise<void> {
    const line = `${JSON.stringify({ i: index, status: row.status, credits_milli: row.creditsMilli, result: row.result })}\n`;
    return new Promise((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        if (!this.handle) throw new Error('the journal is not open');
        await this.handle.appendFile(batch.map((b) => b.line).join(''));
        await this.handle.datasync();
        for (const b of batch) b.resolve();
      } catch (err) {
        const failure = journalError('write to', this.path, err);
        for (const b of batch) b.reject(failure);
      }
    }
    this.flushing = false;
  }

  /** Closes the file and releases the lock; the journal stays for the next run. Never throws. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    this.lock?.release();
    this.lock = undefined;
  }

  /** The run is complete: the journal is deleted (then the lock released). Never throws. */
  async remove(): Promise<void> {
    await fsp.unlink(this.path).catch(() => undefined);
    await this.close();
  }
}
