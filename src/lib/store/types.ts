/**
 * The store's one interface: what every engine (an SQLite file today) offers the purchase memory,
 * the budgets, the shared pacer and the `store`/`spend` commands. Engine-neutral and asynchronous, so
 * a server engine fits behind it. Times are milliseconds since the epoch; credits are integer
 * thousandths (as the price table), so sums never drift.
 */
import type { SharedPace } from '../http/pacer.js';

export type AnswerKind = 'creator' | 'page';
export type AnswerStatus = 'ok' | 'not_found';

/** A paid answer as the store holds it. */
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
  /** Records the answer holds (1 for a creator, the accounts of a page). */
  records: number;
  boughtAt: number;
  profile: string;
}

/** What reusing an answer needs of it. */
export type ReusableAnswer = Pick<StoredAnswer, 'body' | 'boughtAt' | 'records' | 'creditsMilli' | 'status'>;

/** One charged request in the spend log. */
export interface SpendEntry {
  at: number;
  profile: string;
  baseUrl: string;
  /** The command that spent (`enrich handle`, `search`...). */
  command: string;
  route: string;
  platform: string | null;
  creditsMilli: number;
  records: number;
  /** The run that spent it (budget reservations are per run). */
  run: string;
  /**
   * Names this charge wherever it is copied (a commit retried after a lost connection, `store push` run
   * twice): a store logs an origin once. Unset for a charge logged once by construction.
   */
  origin?: string | null | undefined;
}

/** A paid answer with the creators it bought, as `store push` copies it. */
export interface AnswerRecord {
  answer: StoredAnswer;
  creators: string[];
}

/** What a `load` added: answers new (or newer than the target's) and spend entries not logged there yet. */
export interface LoadCounts {
  answers: number;
  spend: number;
}

/** Who holds a claim or a budget reservation: a run of a process on a host. */
export interface Holder {
  run: string;
  pid: number;
  host: string;
}

/** The budgets in force and the start of their periods. */
export interface BudgetCheck {
  profile: string;
  worstMilli: number;
  now: number;
  daily?: { limitMilli: number; since: number } | undefined;
  monthly?: { limitMilli: number; since: number } | undefined;
}

/** A budget a run would overrun: which one, its limit, what is spent and reserved by live runs. */
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

/** Answers by kind (what a `forget` takes away: the creator's own records and the pages that listed it). */
export type KindCounts = Record<AnswerKind, number>;

/** `{ dryRun: true }`: count what would go and change nothing (works on a store opened read-only). */
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

  /** The answer under `key` bought at or after `since`, or undefined (only what reuse needs: read once per request). */
  answer(key: string, since: number): Promise<ReusableAnswer | undefined>;
  /** Which of `keys` have an answer bought at or after `since` (a dry run's count). */
  answered(keys: readonly string[], since: number): Promise<Set<string>>;
  /** Keeps a paid answer, the creators it bought and its spend entry, in one transaction. */
  commit(answer: StoredAnswer, creators: readonly string[], spend: SpendEntry | undefined): Promise<void>;
  /** Logs a charge that left no answer to keep (a request outside the memory). */
  logSpend(entry: SpendEntry): Promise<void>;

  /**
   * Claims `key` for a request about to be sent. Answers `claimed`, or the holder of a live claim (a
   * claim older than `staleMs`, or of a dead process on this host, is taken over).
   */
  claim(key: string, holder: Holder, now: number, staleMs: number): Promise<'claimed' | Holder>;
  release(key: string, holder: Holder): Promise<void>;

  /**
   * Checks the budgets against the period's logged spend plus what live runs reserved, and reserves
   * `worstMilli` for this run, in one transaction (two processes cannot both pass a check one budget
   * allows only once). Returns the budget it would overrun, or undefined when reserved.
   */
  reserve(check: BudgetCheck, holder: Holder): Promise<BudgetRefusal | undefined>;
  /** Ends the run's reservation (what it spent stays in the spend log). */
  endRun(run: string): Promise<void>;

  /** The shared pacer of one account (base URL + profile). */
  pace(account: string): SharedPace;

  /**
   * Creators bought on a platform since a time (for `--skip-bought`), normalised handles, each once,
   * the most recently bought first (ties by handle), so a caller that can send only so many keeps the newest.
   */
  boughtCreators(baseUrl: string, platform: string, since: number): Promise<string[]>;
  /** What was bought, newest first. */
  list(filter: ListFilter): AsyncIterable<StoredAnswer>;
  spend(filter: SpendFilter): AsyncIterable<SpendEntry>;
  stats(): Promise<StoreStats>;
  /** Deletes answers bought before `before` (the spend log stays); returns how many. */
  prune(before: number, options?: DeleteOptions): Promise<number>;
  /**
   * Deletes the answers about a creator on a platform (all base URLs), and the pages that listed it
   * (otherwise its record would come back from the store); returns how many of each kind.
   */
  forget(platform: string, subject: string, options?: DeleteOptions): Promise<KindCounts>;
  /** The store's own id (its spend entries are known elsewhere as `<id>:<entry>`). */
  storeId(): Promise<string>;
  /** Answers in key order after `after`, with the creators each bought (`store push` reads in slices). */
  dumpAnswers(after: string | undefined, limit: number): Promise<AnswerRecord[]>;
  /** Spend entries in log order after entry `after`, each with its origin (its own, or `<store id>:<entry>`). */
  dumpSpend(after: number | undefined, limit: number): Promise<{ id: number; entry: SpendEntry }[]>;
  /**
   * Adds copied answers (an answer replaces the one under its key only when bought later) and spend
   * entries (each origin once), in one transaction: a copy run twice, or stopped and run again, adds
   * nothing twice.
   */
  load(answers: readonly AnswerRecord[], spend: readonly SpendEntry[]): Promise<LoadCounts>;
  close(): Promise<void>;
}
