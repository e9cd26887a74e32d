/**
 * What differs between the two engines, and nothing else (kysely's Dialect, cut to this store): how a
 * transaction is run and how many round trips it costs, placeholders, the clock, the few SQL spellings that
 * differ, and the engine's errors. Every money rule is in `core.ts`, written once over this.
 */
import type { Engine } from './types.js';

export type Row = Record<string, unknown>;

/** One statement: SQL with `?` placeholders (the dialect numbers them where it must) and its values. */
export interface Statement {
  sql: string;
  params?: readonly unknown[] | undefined;
}

/** Statements run inside one open transaction, one after the other. */
export interface Tx {
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Rows changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/**
 * `write` takes the write lock first (no upgrade deadlock) and is durable; `light` is a write that need not
 * survive a power cut (claims, heartbeats, the pace: no fsync each); `read` changes nothing.
 */
export type TxKind = 'read' | 'write' | 'light';

export interface Dialect {
  readonly engine: Engine;
  /** Where the store is, fit to print (a server's URL without its password). */
  readonly location: string;
  /** The spellings that differ; `{now}`, `{greatest}`, `{sum}`, `{seq}` in a statement are replaced by these. */
  readonly words: Readonly<Record<'now' | 'greatest' | 'sum' | 'seq', string>>;
  /** `column` is one of the texts in `values` (one parameter, whatever the count). */
  inList(column: string, values: readonly string[]): Statement;
  /**
   * Statements decided before the transaction starts, run in one transaction: the rows of each. A server
   * sends them in one round trip.
   */
  batch(kind: TxKind, statements: readonly Statement[]): Promise<Row[][]>;
  /** A transaction that reads and then decides (a budget check, a copy of records). */
  tx<T>(kind: TxKind, fn: (t: Tx) => Promise<T>): Promise<T>;
  /**
   * Serialises the transactions that name `name` until the end of this one, on every machine sharing the
   * store (a server's transaction-scoped advisory lock; SQLite's write lock already does it).
   */
  lock(t: Tx, name: string): Promise<void>;
  /** Bytes the store takes on disk. */
  sizeBytes(): Promise<number>;
  close(): Promise<void>;
}

/** `{word}` replaced by the dialect's spelling. */
export function spell(sql: string, words: Dialect['words']): string {
  return sql.replace(/\{(now|greatest|sum|seq)\}/g, (_, w: keyof Dialect['words']) => words[w]);
}
