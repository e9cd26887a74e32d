/**
 * `events tail` prints by occurrence, then id. The service creates events in id order some time after they
 * occur, so a backlog read by id is nearly in order: a bounded window fixes that with flat memory. An event
 * waits at most twice the window's reads (one with no date is printed late rather than held for ever), so
 * the ids printed ahead of the oldest pending one stay few.
 */
import type { ListeningRecord } from '../api/listening.js';

/** Events held to put them in order of occurrence (about 1 KB each as read). */
export const REORDER_WINDOW = 2_000;

export function occurred(event: ListeningRecord): number {
  for (const key of ['date_occurance', 'date_occurrence', 'created_at']) {
    const t = typeof event[key] === 'string' ? Date.parse(event[key] as string) : NaN;
    if (Number.isFinite(t)) return t;
  }
  return Number.POSITIVE_INFINITY;
}

interface Entry {
  id: number;
  at: number;
  seq: number;
  event: ListeningRecord;
  out: boolean;
}

export class ReorderWindow {
  private readonly heap: Entry[] = [];
  /** The entries in the order read (ids rising); `head` is the first still pending, or past it. */
  private readonly fifo: Entry[] = [];
  private head = 0;
  private reads = 0;
  private pending = 0;

  constructor(private readonly limit = REORDER_WINDOW) {}

  get size(): number {
    return this.pending;
  }

  /** Whether the window is over its limit: the caller hands out `next()` until it is not. */
  get full(): boolean {
    return this.pending > this.limit;
  }

  add(id: number, event: ListeningRecord): void {
    const entry: Entry = { id, at: occurred(event), seq: this.reads++, event, out: false };
    this.fifo.push(entry);
    this.pending++;
    let i = this.heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, this.heap[parent] as Entry)) break;
      this.heap[i] = this.heap[parent] as Entry;
      i = parent;
    }
    this.heap[i] = entry;
  }

  /** The event to print next (not taken out: `take()` does, once it was delivered). */
  peek(): { id: number; event: ListeningRecord } | undefined {
    this.skipOut();
    const oldest = this.fifo[this.head];
    // The window holds `limit` events: one read more than twice that long ago has been passed over too often.
    if (oldest && this.reads - oldest.seq > 2 * this.limit) return oldest;
    return this.heap[0];
  }

  /** Takes out what `peek()` returned. */
  take(id: number): void {
    this.skipOut();
    const top = this.heap[0];
    const oldest = this.fifo[this.head];
    const entry = top?.id === id ? top : oldest?.id === id ? oldest : this.heap.find((e) => e.id === id && !e.out);
    if (!entry || entry.out) return;
    entry.out = true;
    entry.event = {};
    this.pending--;
    this.skipOut();
    // Entries taken out by age wait in the heap until they reach its top: rebuilt when they outnumber the rest.
    if (this.heap.length > 2 * this.pending + 64) this.rebuild();
  }

  private rebuild(): void {
    const live = this.heap.filter((e) => !e.out);
    this.heap.length = 0;
    for (const e of live.sort((a, b) => (before(a, b) ? -1 : 1))) this.heap.push(e);
  }

  /** The lowest id still pending (the watermark stays below it), or undefined when the window is empty. */
  oldestPending(): number | undefined {
    this.skipOut();
    return this.fifo[this.head]?.id;
  }

  /** Drops entries already handed out from the front of both structures (and compacts the read order). */
  private skipOut(): void {
    while (this.heap.length > 0 && (this.heap[0] as Entry).out) this.popHeap();
    while (this.head < this.fifo.length && (this.fifo[this.head] as Entry).out) this.head++;
    if (this.head > 1024 && this.head * 2 > this.fifo.length) {
      this.fifo.splice(0, this.head);
      this.head = 0;
    }
  }

  private popHeap(): void {
    const last = this.heap.pop() as Entry;
    if (this.heap.length === 0) return;
    let i = 0;
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      const at = (k: number): Entry => (k === i ? last : (this.heap[k] as Entry));
      if (l < n && before(at(l), at(m))) m = l;
      if (r < n && before(at(r), at(m))) m = r;
      if (m === i) break;
      this.heap[i] = this.heap[m] as Entry;
      i = m;
    }
    this.heap[i] = last;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id);
}
