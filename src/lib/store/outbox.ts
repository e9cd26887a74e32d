/**
 * The outbox: paid answers the store could not take when they arrived (busy past its timeout, a statement
 * timeout, permission denied, a full disk, the team store lost), one JSON line each in a local file of the
 * profile's folder, fsynced before the answer is returned. Every run that buys first drains it into its store
 * through `load` (an answer held as new or newer is skipped, a charge's origin is logged once), so a re-run
 * never pays for them again.
 *
 * No lock, and crash-safe: a drainer renames the outbox to a name of its own, loads it, and only then removes
 * it; a `kill -9` in between leaves a `.draining-*` file the next drainer loads again (harmless). A writer
 * that finds, after its fsync, that the path no longer names the file it wrote to (renamed by a drainer
 * meanwhile) writes its lines again: a line may be loaded twice, never lost.
 */
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { storedKey } from './schema.js';
import type { AnswerRecord, ReusableAnswer, SpendEntry, Store, StoredAnswer } from './types.js';

export interface OutboxEntry {
  answer?: StoredAnswer | undefined;
  creators?: string[] | undefined;
  spend?: SpendEntry | undefined;
}

export interface DrainCounts {
  /** Lines read (an answer with its charge is one line). */
  lines: number;
  answers: number;
  spend: number;
}

const DRAINING = '.draining-';
/** Lines a transaction loads at once: a large outbox is not one huge transaction. */
const SLICE = 200;

/** The outbox of a profile: beside its local store file, whatever store it buys through. */
export function outboxFile(configDir: string, profile: string): string {
  return path.join(configDir, 'store', `${profile}.outbox.jsonl`);
}

function enoent(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Appends `entries`, one line each, synced to the disk before it returns; throws when they could not be.
 * `afterOpen` is a fault-injection point for tests (a drainer moving the file between open and write).
 */
export function appendOutbox(file: string, entries: readonly OutboxEntry[], o: { afterOpen?: () => void } = {}): void {
  if (entries.length === 0) return;
  const text = Buffer.from(entries.map((e) => `${JSON.stringify({ v: 1, ...e })}\n`).join(''));
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let tries = 0; ; tries++) {
    let created = false;
    let fd: number;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
    } catch (err) {
      if (!enoent(err)) throw err;
      fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
      created = true;
    }
    let ours: boolean;
    try {
      o.afterOpen?.();
      for (let at = 0; at < text.length; ) at += writeSync(fd, text, at);
      fsyncSync(fd);
      // Compared while the file is open, so its inode number cannot belong to another file yet.
      const mine = fstatSync(fd);
      try {
        const named = statSync(file);
        ours = named.ino === mine.ino && named.dev === mine.dev;
      } catch (err) {
        if (!enoent(err)) throw err;
        ours = false;
      }
    } finally {
      closeSync(fd);
    }
    if (created) syncDir(dir);
    if (ours) return;
    if (tries >= 20) throw new Error(`the outbox ${file} kept being moved while it was written`);
  }
}

/** A new name in a folder survives a power cut only once the folder is synced too. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse to sync a folder; the file's own data is synced.
  }
}

function parseLines(text: string): OutboxEntry[] {
  const out: OutboxEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const e = JSON.parse(line) as OutboxEntry & { v?: unknown };
      if (e && typeof e === 'object' && (e.answer !== undefined || e.spend !== undefined))
        out.push({ answer: e.answer, creators: e.creators, spend: e.spend });
    } catch {
      // A line torn by a writer killed before its fsync returned: its answer was never handed to anyone.
    }
  }
  return out;
}

/** The outbox and what drainers left of it (being loaded now, or stopped by `kill -9`). */
function outboxFiles(file: string): string[] {
  const dir = path.dirname(file);
  const base = path.basename(file);
  try {
    return readdirSync(dir)
      .filter((n) => n === base || n.startsWith(base + DRAINING))
      .map((n) => path.join(dir, n));
  } catch (err) {
    if (enoent(err)) return [];
    throw err;
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (enoent(err)) return undefined;
    throw err;
  }
}

/** A drain the store refused: its lines back in the outbox, where the line at the end of the run says they are. */
function putBack(file: string, taken: readonly string[]): void {
  for (const f of taken) {
    try {
      const text = readIfThere(f);
      if (text === undefined) continue;
      appendOutbox(file, parseLines(text));
      unlinkSync(f);
    } catch {
      // Left where it is: the next drain finds it there too.
    }
  }
}

/** What the outbox holds now, not yet in any store (a look: `creators spend`, a dry run's plan). */
export function outboxEntries(file: string): OutboxEntry[] {
  const seen = new Set<string>();
  const out: OutboxEntry[] = [];
  for (const f of outboxFiles(file)) {
    for (const e of parseLines(readIfThere(f) ?? '')) {
      // A line a writer wrote again after a drainer moved its file: one answer, one charge.
      const id = e.spend?.origin ?? (e.answer ? `${e.answer.key}:${e.answer.boughtAt}` : JSON.stringify(e));
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(e);
    }
  }
  return out;
}

/**
 * Loads the outbox into `store`, then removes what was loaded; undefined when there was none. `tag` names
 * this drainer's copy (unique per process). Throws the store's error when it cannot take them: the lines stay.
 */
export async function drainOutbox(
  file: string,
  store: Pick<Store, 'load'>,
  tag: string,
): Promise<DrainCounts | undefined> {
  const files = outboxFiles(file);
  if (files.length === 0) return undefined;
  const mine = `${file}${DRAINING}${tag}`;
  const pending = files.filter((f) => f !== file);
  if (files.includes(file)) {
    try {
      renameSync(file, mine);
      syncDir(path.dirname(file));
      pending.push(mine);
    } catch (err) {
      // Taken by another drainer meanwhile.
      if (!enoent(err)) throw err;
    }
  }
  const counts: DrainCounts = { lines: 0, answers: 0, spend: 0 };
  for (const [n, f] of pending.entries()) {
    const text = readIfThere(f);
    // Loaded and removed by another drainer.
    if (text === undefined) continue;
    const entries = parseLines(text);
    try {
      for (let i = 0; i < entries.length; i += SLICE) {
        const slice = entries.slice(i, i + SLICE);
        const answers: AnswerRecord[] = slice.flatMap((e) =>
          e.answer ? [{ answer: e.answer, creators: e.creators ?? [] }] : [],
        );
        const spend: SpendEntry[] = slice.flatMap((e) => (e.spend ? [e.spend] : []));
        const loaded = await store.load(answers, spend);
        counts.answers += loaded.answers;
        counts.spend += loaded.spend;
      }
    } catch (err) {
      putBack(file, pending.slice(n));
      throw err;
    }
    counts.lines += entries.length;
    // Only once the store has committed every line of it.
    try {
      unlinkSync(f);
    } catch (err) {
      if (!enoent(err)) throw err;
    }
  }
  return counts;
}

/**
 * A dry run's view: the store as the real run will find it once the outbox is drained (a dry run drains
 * nothing), so its plan does not price what an earlier run paid for and its store could not take.
 */
export function withOutboxAnswers(store: Store, file: string): Store {
  const waiting = new Map<string, StoredAnswer>();
  for (const e of outboxEntries(file)) {
    const a = e.answer;
    // An entry an older version wrote names its key by all 64 hex digits.
    if (a && (waiting.get(storedKey(a.key))?.boughtAt ?? -Infinity) < a.boughtAt) waiting.set(storedKey(a.key), a);
  }
  if (waiting.size === 0) return store;
  const answer = async (key: string, since: number, maxBytes?: number): Promise<ReusableAnswer | undefined> => {
    const held = await store.answer(key, since, maxBytes);
    const w = waiting.get(key);
    if (!w || w.boughtAt < since || (held && held.boughtAt >= w.boughtAt)) return held;
    return { body: w.body, boughtAt: w.boughtAt, records: w.records, creditsMilli: w.creditsMilli, status: w.status };
  };
  const answered = async (keys: readonly string[], since: number): Promise<Set<string>> => {
    const held = await store.answered(keys, since);
    // As the store counts them: a free not-found is its own run's only.
    for (const k of keys) {
      const w = waiting.get(k);
      if (w && w.boughtAt >= since && (w.status !== 'not_found' || w.creditsMilli > 0)) held.add(k);
    }
    return held;
  };
  // Any waiting answer: the keys are counted (a route's answers waiting here are few).
  const holdsAny = async (): Promise<boolean> => true;
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'answer') return answer;
      if (prop === 'answered') return answered;
      if (prop === 'holdsAny') return holdsAny;
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
