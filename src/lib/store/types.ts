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
  /**
   * Names this charge wherever it is copied (a retried commit, `store push` run twice): a store logs an origin once.
   */
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

/** Who holds a claim or a reservation: the file lock's identity (`io/process-alive.ts`), and the run. */
export interface Holder {
  run: string;
  pid: number;
  host: string;
  /** The machine's boot id and the process's start time, where the system tells them (Linux). */
  boot?: string | undefined;
  start?: string | undefined;
}

/** A claim, a reservation or a pace, as `store doctor` shows it: stuck unless `live`. */
export interface SharedEntry {
  kind: 'claim' | 'reservation' | 'pace';
  /** The claimed key, the reserving run, or the paced account. */
  id: string;
  holder: Holder | undefined;
  /** When its holder last said it was alive (the database's clock). */
  seenAt: number | null;
  state: 'live' | 'dead' | 'silent' | 'ahead';
  /** Claimed, started, or (a pace) the next free slot. */
  at: number;
  reservedMilli: number | null;
  profile?: string | undefined;
  /** The database's clock when this was read (what `seenAt` and `at` are measured against). */
  clock: number;
}

export interface DoctorReport {
  entries: SharedEntry[];
  stuck: number;
  cleared: number;
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
  answers: {
    kind: AnswerKind;
    count: number;
    records: number;
    creditsMilli: number;
    oldest: number | null;
    newest: number | null;
  }[];
  spend: { entries: number; creditsMilli: number; oldest: number | null; newest: number | null };
}

/** A paid answer to keep, the creators it bought and its charge. */
export interface KeptAnswer {
  answer: StoredAnswer;
  creators: readonly string[];
  spend: SpendEntry | undefined;
}

/** Paid answers and the creators they bought. */
export interface AnswerStore {
  /**
   * The answer under `key` bought at or after `since` (only what reuse needs: read once per request). A body over
   * `maxBytes` is left in the store unread (the SQLite binding aborts the process on a text over V8's limit).
   */
  answer(key: string, since: number, maxBytes?: number): Promise<ReusableAnswer | undefined>;
  /**
   * Of `keys`, those a later run would reuse: answered at or after `since`, a free not-found never (it is remembered
   * for its run only).
   */
  answered(keys: readonly string[], since: number): Promise<Set<string>>;
  /**
   * Whether any answer of `route` for `baseUrl` bought at or after `since` is held that a later run would reuse: when
   * none is, a count of what the store holds needs no keys.
   */
  holdsAny(baseUrl: string, route: string, since: number): Promise<boolean>;
  /** `answer` for many keys in one statement: those held since `since`, by key. */
  answers(keys: readonly string[], since: number, maxBytes?: number): Promise<Map<string, ReusableAnswer>>;
  /**
   * Keeps a paid answer, the creators it bought and its spend entry, in one transaction; ends `release`'s claim on it
   * in the same one.
   */
  commit(
    answer: StoredAnswer,
    creators: readonly string[],
    spend: SpendEntry | undefined,
    release?: Holder,
  ): Promise<void>;
  /**
   * `commit` for several answers in one transaction (one fsync, one round trip): all are kept, or none and the error
   * is thrown.
   */
  commitMany(items: readonly KeptAnswer[], release?: Holder): Promise<void>;
  /** For `--skip-bought`: newest first (ties by handle), so a caller that can send only so many keeps the newest. */
  boughtCreators(baseUrl: string, platform: string, since: number): Promise<string[]>;
}

/** The spend log and the budgets checked against it. */
export interface SpendStore {
  logSpend(entry: SpendEntry): Promise<void>;
  /**
   * Checks the budgets against the period's spend plus live runs' reservations and reserves `worstMilli`, in one
   * transaction (two processes cannot both pass a check one budget allows only once). Returns the budget overrun.
   */
  reserve(check: BudgetCheck, holder: Holder): Promise<BudgetRefusal | undefined>;
  endRun(run: string): Promise<void>;
  spend(filter: SpendFilter): AsyncIterable<SpendEntry>;
}

/** The account's pace, shared by every process using the store. */
export interface PaceStore {
  pace(account: string): SharedPace;
}

/** Purchases in flight. */
export interface ClaimStore {
  /**
   * `claimed`, or the live holder of the key (a dead or silent one is taken over: `core.ts`); given `fresh`, the
   * answer held for it since then instead, if any (then nothing is claimed).
   */
  claim(
    key: string,
    holder: Holder,
    fresh?: { since: number; maxBytes?: number | undefined },
  ): Promise<'claimed' | Holder | { answer: ReusableAnswer }>;
  release(key: string, holder: Holder): Promise<void>;
}

/** What `creators store` does. */
export interface StoreAdmin {
  readonly engine: Engine;
  /** Where it is: a file path, or a server's URL without its password. */
  readonly location: string;
  /** What was bought, newest first. */
  list(filter: ListFilter): AsyncIterable<StoredAnswer>;
  stats(): Promise<StoreStats>;
  /** Deletes answers bought before `before` (the spend log stays); returns how many. */
  prune(before: number, options?: DeleteOptions): Promise<number>;
  /**
   * Deletes a creator's answers (all base URLs) and the pages that listed it, or its record would come back from the
   * store.
   */
  forget(platform: string, subject: string, options?: DeleteOptions): Promise<KindCounts>;
  /** Claims, reservations and paces with their holders' liveness. */
  shared(): Promise<SharedEntry[]>;
  /** Clears the stuck ones (`all`: every one not of this process); `dryRun` only says what. */
  doctor(options?: { dryRun?: boolean | undefined; all?: boolean | undefined }): Promise<DoctorReport>;
  /** How far the store's clock is ahead of `localNow` (a team store's server; 0 for a file). */
  clockOffset(localNow: () => number): Promise<number>;
  /** The store's own id (its spend entries are known elsewhere as `<id>:<entry>`). */
  storeId(): Promise<string>;
  dumpAnswers(after: string | undefined, limit: number): Promise<AnswerRecord[]>;
  /** Spend entries in log order after entry `after`, each with its origin (its own, or `<store id>:<entry>`). */
  dumpSpend(after: number | undefined, limit: number): Promise<{ id: number; entry: SpendEntry }[]>;
  /**
   * In one transaction; an answer replaces its key's only when bought later, each origin is logged once: a copy run
   * twice adds nothing twice.
   */
  load(answers: readonly AnswerRecord[], spend: readonly SpendEntry[]): Promise<LoadCounts>;
  close(): Promise<void>;
}

/** The store, by role: the money rules are `core.ts`, over one dialect per engine (`sqlite.ts`, `postgres.ts`). */
export interface Store extends AnswerStore, SpendStore, PaceStore, ClaimStore, StoreAdmin {}
