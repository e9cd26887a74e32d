/**
 * The store's one interface, engine-neutral and asynchronous (an SQLite file, a PostgreSQL server).
 * Times are milliseconds since the epoch; credits are integer thousandths, so sums never drift.
 */
import type { SharedPace } from '../http/pacer.js';

export type AnswerKind = 'creator' | 'page';
export type AnswerStatus = 'ok' | 'not_found';

export interface StoredAnswer {
  key: string;
  baseUrl: string;
  route: string;
  kind: AnswerKind;
  platform: string | null;
  subject: string | null;
  /** What was sent, canonical JSON (sorted keys). */
  request: string;
  /** The answer, exact JSON text as it came (big numbers included). */
  body: string;
  status: AnswerStatus;
  creditsMilli: number;
  records: number;
  boughtAt: number;
  profile: string;
}

export type ReusableAnswer = Pick<StoredAnswer, 'body' | 'boughtAt' | 'records' | 'creditsMilli' | 'status'> & {
  /** The body's size in bytes; a body over the `maxBytes` asked is not read (body ''). */
  bytes?: number | undefined;
};

export interface SpendEntry {
  at: number;
  profile: string;
  baseUrl: string;
  command: string;
  route: string;
  platform: string | null;
  creditsMilli: number;
  records: number;
  run: string;
  /** Names this charge wherever it is copied (a retried commit, `store push` run twice): a store logs an origin once. */
  origin?: string | null | undefined;
}

export interface AnswerRecord {
  answer: StoredAnswer;
  creators: string[];
}

export interface LoadCounts {
  answers: number;
  spend: number;
}

export interface Holder {
  run: string;
  pid: number;
  host: string;
}

export interface BudgetCheck {
  profile: string;
  worstMilli: number;
  now: number;
  daily?: { limitMilli: number; since: number } | undefined;
  monthly?: { limitMilli: number; since: number } | undefined;
}

export interface BudgetRefusal {
  period: 'daily' | 'monthly';
  limitMilli: number;
  spentMilli: number;
  reservedMilli: number;
}

export interface ListFilter {
  platform?: string | undefined;
  kind?: AnswerKind | undefined;
  /** Bought at or after / before (ms). */
  since?: number | undefined;
  until?: number | undefined;
  baseUrl?: string | undefined;
}

export interface SpendFilter {
  since?: number | undefined;
  until?: number | undefined;
  profile?: string | undefined;
  /** One API's charges (`creators spend` sets the base URL in use: sandbox and production never add up). */
  baseUrl?: string | undefined;
}

export type KindCounts = Record<AnswerKind, number>;

export interface DeleteOptions {
  dryRun?: boolean | undefined;
}

export type Engine = 'sqlite' | 'postgres';

export interface StoreStats {
  engine: Engine;
  location: string;
  schemaVersion: number;
  sizeBytes: number;
  answers: { kind: AnswerKind; count: number; records: number; creditsMilli: number; oldest: number | null; newest: number | null }[];
  spend: { entries: number; creditsMilli: number; oldest: number | null; newest: number | null };
}

export interface Store {
  readonly engine: Engine;
  /** Where it is: a file path, or a server's URL without its password. */
  readonly location: string;

  /**
   * The answer under `key` bought at or after `since` (only what reuse needs: read once per request). A body over
   * `maxBytes` is left in the store unread (the SQLite binding aborts the process on a text over V8's limit).
   */
  answer(key: string, since: number, maxBytes?: number): Promise<ReusableAnswer | undefined>;
  /** Of `keys`, those a later run would reuse: answered at or after `since`, a free not-found never (it is remembered for its run only). */
  answered(keys: readonly string[], since: number): Promise<Set<string>>;
  /** Keeps a paid answer, the creators it bought and its spend entry, in one transaction. */
  commit(answer: StoredAnswer, creators: readonly string[], spend: SpendEntry | undefined): Promise<void>;
  logSpend(entry: SpendEntry): Promise<void>;

  /** Answers `claimed`, or the holder of a live claim (one older than `staleMs`, or of a dead process on this host, is taken over). */
  claim(key: string, holder: Holder, now: number, staleMs: number): Promise<'claimed' | Holder>;
  release(key: string, holder: Holder): Promise<void>;

  /**
   * Checks the budgets against the period's spend plus live runs' reservations and reserves `worstMilli`, in one
   * transaction (two processes cannot both pass a check one budget allows only once). Returns the budget overrun.
   */
  reserve(check: BudgetCheck, holder: Holder): Promise<BudgetRefusal | undefined>;
  endRun(run: string): Promise<void>;

  /** The shared pacer of one account (base URL + profile). */
  pace(account: string): SharedPace;

  /** For `--skip-bought`: newest first (ties by handle), so a caller that can send only so many keeps the newest. */
  boughtCreators(baseUrl: string, platform: string, since: number): Promise<string[]>;
  /** What was bought, newest first. */
  list(filter: ListFilter): AsyncIterable<StoredAnswer>;
  spend(filter: SpendFilter): AsyncIterable<SpendEntry>;
  stats(): Promise<StoreStats>;
  /** Deletes answers bought before `before` (the spend log stays); returns how many. */
  prune(before: number, options?: DeleteOptions): Promise<number>;
  /** Deletes a creator's answers (all base URLs) and the pages that listed it, or its record would come back from the store. */
  forget(platform: string, subject: string, options?: DeleteOptions): Promise<KindCounts>;
  /** The store's own id (its spend entries are known elsewhere as `<id>:<entry>`). */
  storeId(): Promise<string>;
  dumpAnswers(after: string | undefined, limit: number): Promise<AnswerRecord[]>;
  /** Spend entries in log order after entry `after`, each with its origin (its own, or `<store id>:<entry>`). */
  dumpSpend(after: number | undefined, limit: number): Promise<{ id: number; entry: SpendEntry }[]>;
  /** In one transaction; an answer replaces its key's only when bought later, each origin is logged once: a copy run twice adds nothing twice. */
  load(answers: readonly AnswerRecord[], spend: readonly SpendEntry[]): Promise<LoadCounts>;
  close(): Promise<void>;
}
