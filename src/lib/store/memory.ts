/**
 * The purchase memory: the HTTP client hands it every POST. A `purchase` is keyed by what was bought (base
 * URL, route, query, body, the handle normalised as the service does) and is (1) answered from the store
 * when bought within the freshness window; else (2) claimed, so another process buying the same record
 * waits for this answer instead of paying for its own (bounded: then busy); (3) sent, and committed with
 * its spend entry in one transaction before it is returned, so nothing is printed that the store does not
 * hold. Any other POST the service charged (a raw `creators api` call) is logged in the spend log.
 */
import { createHash, hash as cryptoHash } from 'node:crypto';
import { RecentSet } from '../recent-set.js';
import { normalizeHandle } from '../../contract/handles.js';
import { BATCH_ROUTE } from '../../contract/prices.js';
import { readCharge, routeOf } from '../api/charge.js';
import { formatCredits } from '../words.js';
import { BusyError, CliError, EXIT } from '../errors.js';
import { canonicalEntries, JsonText, parseJson, stringifyJson } from '../exact-json.js';
import { DEFAULT_MAX_RESPONSE_MB, storedShallowMismatch, storedShapeMismatch } from '../http/attempt.js';
import {
  FROM_STORE,
  type HttpResponse,
  type Purchase,
  type PurchaseMemory,
  type RequestOptions,
} from '../http/types.js';
import { buildUrl } from '../http/url.js';
import { itemsOfPage } from '../paging.js';
import { holderOf, SILENT_MS } from './core.js';
import { storedKey } from './schema.js';
import { appendOutbox, drainOutbox } from './outbox.js';
import { backoffMs, mayRetry, POLICIES } from '../retry-policy.js';
import type { Holder, KeptAnswer, ReusableAnswer, SpendEntry, Store, StoredAnswer } from './types.js';

interface Unkept {
  answer: StoredAnswer;
  creators: string[];
  spend: SpendEntry | undefined;
  /** Why the outbox could not take it either (then it is in the run's output only). */
  lost?: unknown;
}

/** Default freshness windows (interface contract): creator records 14 days, pages 24 hours. */
export const DEFAULT_MAX_AGE_MS = { creator: 14 * 86_400_000, page: 86_400_000 } as const;

export interface MaxAge {
  creator: number;
  page: number;
}

export interface MemoryOptions {
  store: Store;
  /** The API origin and path prefix (`https://host/`): sandbox and production never share answers. */
  baseUrl: string;
  profile: string;
  command: string;
  maxAge: MaxAge;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
  claimWaitMs?: number | undefined;
  run?: string | undefined;
  /** A notice for the user (the terminal's): a wait they should know of. */
  notice?: ((line: string) => void) | undefined;
  /** A warning for the user (the terminal's): a charge the service named and was not believed. */
  warn?: ((line: string) => void) | undefined;
  /** Where paid answers the store cannot take are kept (lib/store/outbox.ts) until a run puts them in it. */
  outbox?: string | undefined;
  /** The response cap (CREATORS_MAX_RESPONSE_MB): no answer is kept or reused bigger than an answer may be. */
  maxAnswerBytes?: number | undefined;
}

/** Answers read ahead and not yet asked for, at most (a few MB). */
const AHEAD_MAX = 512;

/** Answers kept in one transaction at most (a group commit's statements, ~5 an answer). */
const GROUP_MAX = 64;

/** A commit slower than this puts its answer in the outbox while it waits (see `keep`). */
const SLOW_COMMIT_MS = 500;

/** A wait for another process's purchase of the same record is said from this long. */
const CLAIM_WAIT_SAID_MS = 3_000;

/**
 * libsql aborts the process reading a text over V8's string limit (about 512 MiB): nothing that size is kept or read
 * back, whatever the cap.
 */
const ANSWER_CEILING_BYTES = 500 * 1024 * 1024;

function sizeText(bytes: number): string {
  const round = (n: number): number => Math.round(n * 100) / 100;
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`;
  return bytes >= 1024 ? `${round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** What a stored answer is about, as the user names it: `instagram:noah_paws`, or its route. */
function answerName(req: Pick<RequestOptions, 'path' | 'purchase'>): string {
  const p = req.purchase;
  if (p?.subject) return `${p.platform ? `${p.platform}:` : ''}${p.subject}`;
  return `${routeOf(req.path)}${p?.platform ? ` (${p.platform})` : ''}`;
}

/**
 * A stored answer that cannot be reused (not JSON, not the route's shape, over the cap): named, with what to run,
 * and never bought again behind the user's back. One line (a bulk row's error shows the message only).
 */
function damagedAnswer(
  req: Pick<RequestOptions, 'path' | 'purchase'>,
  key: string,
  boughtAt: number,
  why: string,
): CliError {
  const p = req.purchase;
  const forget =
    p?.platform && p.subject && !p.subject.includes('@')
      ? `\`creators store forget ${p.platform}:${p.subject}\`, or `
      : '';
  return new CliError(
    `The store's answer for ${answerName(req)} (key ${key.slice(0, 12)}, bought ${new Date(boughtAt).toISOString()}) is damaged: ${why}; nothing was bought. To buy it again, run ${forget}the command with --max-age 0.`,
    EXIT.ERROR,
    { code: 'stored_answer_damaged' },
  );
}

export interface MemoryTally {
  reused: number;
  bought: number;
  windowMs: number | undefined;
}

/**
 * Sorted keys, recursively: two bodies that mean the same have the same text. The key of a body `plainCanonical`
 * cannot write (array-index names, exact numbers) is this copy written out, as every earlier build wrote it: an
 * object orders array-index names by number whatever the sort, so a direct writer would spell a different key.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export { routeOf };

/**
 * The request as bought: what the key is made of (the handle as the service normalises it; a comparison's
 * creators normalised and sorted, so one pair is one purchase whatever the order or spelling; Similar's
 * reference by URL or username as one handle, so `similar noah` and `similar <noah's URL>` are one purchase).
 */
export function requestText(req: Pick<RequestOptions, 'path' | 'query' | 'body'>): string {
  let body = req.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (typeof b.handle === 'string') body = { ...b, handle: normalizeHandle(b.handle) };
    if (
      (b.filter_key === 'url' || b.filter_key === 'username') &&
      typeof b.filter_value === 'string' &&
      normalizeHandle(b.filter_value)
    ) {
      body = {
        ...(body as Record<string, unknown>),
        filter_key: 'username',
        filter_value: normalizeHandle(b.filter_value),
      };
    }
    const filters = b.filters as Record<string, unknown> | null | undefined;
    const excluded = filters && typeof filters === 'object' ? filters.exclude_handles : undefined;
    // The service normalises excluded handles: one set of creators left out, one key, whatever the spelling or order.
    if (Array.isArray(excluded) && excluded.every((h) => typeof h === 'string')) {
      const handles = [...new Set((excluded as string[]).map((h) => normalizeHandle(h) || h))].sort();
      body = { ...(body as Record<string, unknown>), filters: { ...filters, exclude_handles: handles } };
    }
    if (Array.isArray(b.creators) && b.creators.every((c) => typeof c === 'string')) {
      body = { ...(body as Record<string, unknown>), creators: (b.creators as string[]).map(normalizeHandle).sort() };
    }
  }
  const request = { route: routeOf(req.path), query: req.query ?? null, body: body ?? null };
  return plainCanonical(request) ?? stringifyJson(canonical(request));
}

/**
 * `stringifyJson(canonical(value))` in one native stringify for plain data (objects with no array-index or `__proto__`
 * key, arrays, strings, finite numbers, booleans, null): every key, sorted, as the stringify's list of properties
 * orders every object's the same way. A bulk run keys every row twice. Undefined for anything else.
 */
function plainCanonical(value: unknown): string | undefined {
  const names: string[] = [];
  if (!plainData(value, names, 0)) return undefined;
  return JSON.stringify(value, sortedNames(names));
}

/** The last names met and their sorted copy: the requests of a run name the same keys in the same order. */
let lastNames: readonly string[] = [];
let lastSorted: string[] = [];

function sortedNames(names: string[]): string[] {
  if (names.length !== lastNames.length || names.some((name, i) => name !== lastNames[i])) {
    lastNames = names;
    lastSorted = [...names].sort();
  }
  return lastSorted;
}

function plainData(value: unknown, names: string[], depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth > 64) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          // A hole is written null by both; plainData(undefined) refuses it all the same.
          if (!plainData(value[i], names, depth + 1)) return false;
        }
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const name in value) {
        if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
        const first = name.charCodeAt(0);
        if ((first >= 0x30 && first <= 0x39) || name === '__proto__') return false;
        if (!plainData((value as Record<string, unknown>)[name], names, depth + 1)) return false;
        if (!names.includes(name)) names.push(name);
      }
      return true;
    }
    default:
      return false;
  }
}

const sha256: (text: string) => string =
  typeof cryptoHash === 'function'
    ? (text) => cryptoHash('sha256', text, 'hex')
    : (text) => createHash('sha256').update(text).digest('hex');

/** The key of a request's canonical text (`requestText`). */
function keyOfText(baseUrl: string, text: string): string {
  return storedKey(sha256(`${baseUrl}\n${text}`));
}

export function answerKey(baseUrl: string, req: Pick<RequestOptions, 'path' | 'query' | 'body'>): string {
  return keyOfText(baseUrl, requestText(req));
}

function creatorsOf(purchase: Purchase, data: unknown, found: boolean): string[] {
  if (purchase.kind === 'creator')
    return found && purchase.subject && !purchase.subject.includes('@') ? [purchase.subject] : [];
  const accounts = (data as { accounts?: unknown } | null)?.accounts;
  if (!Array.isArray(accounts)) return [];
  const handles: string[] = [];
  for (const a of accounts) {
    const profile = (a as { profile?: { username?: unknown } } | null)?.profile;
    const name = profile?.username ?? (a as { username?: unknown } | null)?.username;
    if (typeof name === 'string' && name) handles.push(normalizeHandle(name));
  }
  return handles;
}

/** What the service charged, as the spend log takes it (`readCharge`). */
export function chargedMilli(
  req: Pick<RequestOptions, 'path' | 'query'>,
  data: unknown,
  isFound: boolean,
): number | undefined {
  return readCharge(req, data, isFound).milli;
}

function missedNames(missed: readonly Unkept[]): string {
  const names = missed.map((u) =>
    u.answer.subject ? `${u.answer.platform ?? ''}:${u.answer.subject}` : `${u.answer.route} page`,
  );
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}

/** Whether a creator answer found someone (enrichment's `result`, socials' list): a not-found answer is free. */
function found(data: unknown): boolean {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
  const o = data as Record<string, unknown>;
  if (o.status === 'not_found' || o.success === false) return false;
  if (Array.isArray(o.details)) return o.details.length > 0;
  const r = o.result;
  if (r && typeof r === 'object') return Object.keys(r).length > 0;
  if (Array.isArray(o.socials)) return o.socials.length > 0;
  return r === undefined;
}

/**
 * A stored answer's data as a request would get it: parsed exactly, marked `storedAt` (lib/http) with when it was
 * bought.
 */
export function storedData(hit: Pick<StoredAnswer, 'body' | 'boughtAt'>): unknown {
  const data = parseJson(hit.body);
  if (data !== null && typeof data === 'object')
    Object.defineProperty(data, FROM_STORE, { value: hit.boughtAt, enumerable: false });
  return data;
}

export class PurchaseMemoryImpl implements PurchaseMemory {
  readonly holder: Holder;
  readonly tally: MemoryTally = { reused: 0, bought: 0, windowMs: undefined };
  spentMilli = 0;
  /**
   * A paid answer the store could not keep (a full disk): it is kept in the outbox and printed, no purchase starts
   * after it, the command ends with this error.
   */
  failure: unknown = undefined;
  private charges = 0;
  /** Routes whose `credits_cost` was not believed this run (one warning each). */
  private readonly doubted = new Set<string>();
  /** Set when a workflow has already said what came from the store (no second notice at the end). */
  announced = false;
  /** Paid answers the store could not take: in the outbox (fsynced before each was returned), said by `settle`. */
  private readonly unkept: Unkept[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  /**
   * The free not-founds this run bought: reused by it, never by a later run (one transient miss must not hide a
   * creator). The last 10,000 only, so a run of many misses stays flat: an older one is asked again, for free.
   */
  private readonly notFound = new RecentSet<string>(10_000);
  private readonly maxAnswerBytes: number;
  /**
   * Answers read ahead for requests about to be made (`prefetch`), by request text (the request then needs no hash of
   * its own): `null` when the store held none then. Taken by the request; bounded, the oldest dropped first.
   */
  private readonly ahead = new Map<string, { key: string; hit: ReusableAnswer | null; window: number }>();
  /** Answers waiting for the next group commit (`grouped`), and whether one is under way. */
  private readonly waiting: { item: KeptAnswer; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private committing = false;
  private readonly urls = new Map<string, URL>();
  private readonly pathnames = new WeakMap<URL, string>();

  constructor(private readonly o: MemoryOptions) {
    this.holder = holderOf(
      o.run ?? createHash('sha256').update(`${process.pid}:${o.now()}:${Math.random()}`).digest('hex').slice(0, 16),
    );
    this.maxAnswerBytes = Math.min(o.maxAnswerBytes ?? DEFAULT_MAX_RESPONSE_MB * 1024 * 1024, ANSWER_CEILING_BYTES);
  }

  /**
   * The request's key. Not cached: a canonical text and a one-shot SHA-256 cost about what a cache's own key (the
   * request as text) did, and a bulk run's passes are a whole input apart.
   */
  private keyOf(req: RequestOptions): string {
    return answerKey(this.o.baseUrl, req);
  }

  /** The store's time (a team store's server's clock), for whatever a run shares through it. */
  now(): number {
    return this.o.now();
  }

  get store(): Store {
    return this.o.store;
  }

  windowFor(purchase: Purchase): number {
    return this.o.maxAge[purchase.kind];
  }

  /**
   * A dry run's look (changes nothing). With `marginMs`, only an answer still fresh that much later: a plan
   * that leaves it unpriced stays a bound if the run reaches it a little after the look.
   */
  async peek(req: RequestOptions, marginMs = 0): Promise<ReusableAnswer | undefined> {
    if (!req.purchase) return undefined;
    const window = this.windowFor(req.purchase);
    if (window <= 0) return undefined;
    const key = this.keyOf(req);
    const hit = await this.o.store.answer(key, this.o.now() - window + Math.max(0, marginMs), this.maxAnswerBytes);
    if (!hit || !this.reusable(key, hit)) return undefined;
    // A damaged answer is named before anything is priced or bought.
    await this.checked(req, key, hit);
    return hit;
  }

  /** A free not-found is remembered for the run only: one another run bought is asked again (it costs nothing). */
  private reusable(key: string, hit: ReusableAnswer): boolean {
    return !(hit.status === 'not_found' && hit.creditsMilli === 0) || this.notFound.has(key);
  }

  /** The stored answer's data, or the error naming it as damaged: over the cap, not JSON, or not its route's shape. */
  private async checked(req: RequestOptions, key: string, hit: ReusableAnswer): Promise<unknown> {
    const bytes = hit.bytes ?? Buffer.byteLength(hit.body);
    if (bytes > this.maxAnswerBytes) {
      throw damagedAnswer(
        req,
        key,
        hit.boughtAt,
        `${sizeText(bytes)}, over the ${sizeText(this.maxAnswerBytes)} an answer may be (CREATORS_MAX_RESPONSE_MB)`,
      );
    }
    const url = this.urlOf(req);
    if (req.unparsed !== undefined && req.unparsed.length > 0) {
      const shallow = await this.unparsed(req, req.unparsed, url, hit);
      if (shallow !== undefined) return shallow;
    }
    let data: unknown;
    try {
      data = storedData(hit);
    } catch {
      throw damagedAnswer(req, key, hit.boughtAt, 'not valid JSON');
    }
    const mismatch = await storedShapeMismatch(req, url, data);
    if (mismatch !== undefined) throw damagedAnswer(req, key, hit.boughtAt, `not the endpoint's shape (${mismatch})`);
    return data;
  }

  /** The request's URL (only its path is read): one a route, not one a row. */
  private urlOf(req: RequestOptions): URL {
    if (req.absoluteUrl) return new URL(req.absoluteUrl);
    let url = this.urls.get(req.path);
    if (url === undefined) {
      url = buildUrl(new URL(this.o.baseUrl), req.path);
      if (this.urls.size >= 64) this.urls.clear();
      this.urls.set(req.path, url);
      this.pathnames.set(url, url.pathname);
    }
    return url;
  }

  /**
   * A stored answer as the store writes it (`canonicalEntries`) whose route's shape its top level tells: the fields the
   * request takes unparsed stay their text (`JsonText`), the rest parsed. Undefined when it must be parsed whole (any
   * other text, a shape that reads deeper, one that does not fit: then the caller says why).
   */
  private async unparsed(
    req: RequestOptions,
    unparsed: readonly string[],
    url: URL,
    hit: ReusableAnswer,
  ): Promise<unknown> {
    const entries = canonicalEntries(hit.body);
    if (entries === undefined) return undefined;
    const data: Record<string, unknown> = {};
    const nested: string[] = [];
    for (const [name, text] of entries) {
      const first = text.charCodeAt(0);
      if (first !== 0x7b && first !== 0x5b) data[name] = parseJson(text);
      else if (!unparsed.includes(name)) data[name] = parseJson(text);
      else {
        // Checked as an empty object or array: the shape must not read inside it (else parsed whole).
        data[name] = first === 0x7b ? {} : [];
        nested.push(name);
      }
    }
    const pathname = this.pathnames.get(url) ?? url.pathname;
    if ((await storedShallowMismatch(req, pathname, data, nested)) !== undefined) return undefined;
    for (const [name, text] of entries) if (nested.includes(name)) data[name] = new JsonText(text);
    Object.defineProperty(data, FROM_STORE, { value: hit.boughtAt, enumerable: false });
    return data;
  }

  /** How many of these requests the store would answer now (a run's count before its money gate). */
  async countStored(reqs: readonly RequestOptions[]): Promise<number> {
    // A route the store holds no fresh answer of (a first run) is counted without a key a row: one look.
    const empty = new Map<string, boolean>();
    const byWindow = new Map<number, string[]>();
    for (const req of reqs) {
      if (!req.purchase) continue;
      const window = this.windowFor(req.purchase);
      if (window <= 0) continue;
      const route = routeOf(req.path);
      const look = `${window}\n${route}`;
      let none = empty.get(look);
      if (none === undefined) {
        none = !(await this.o.store.holdsAny(this.o.baseUrl, route, this.o.now() - window));
        empty.set(look, none);
      }
      if (none) continue;
      const keys = byWindow.get(window) ?? [];
      keys.push(this.keyOf(req));
      byWindow.set(window, keys);
    }
    let n = 0;
    for (const [window, keys] of byWindow) n += (await this.o.store.answered(keys, this.o.now() - window)).size;
    return n;
  }

  /**
   * Reads the stored answers of requests about to be made in one statement per window (no round trip a row on a
   * server, one statement for many rows on a file); each request then takes its own without asking the store.
   */
  async prefetch(reqs: readonly RequestOptions[]): Promise<void> {
    if (this.failure !== undefined) return;
    const byWindow = new Map<number, { keys: string[]; texts: string[] }>();
    for (const req of reqs) {
      if (!req.purchase) continue;
      const window = this.windowFor(req.purchase);
      if (window <= 0) continue;
      const text = requestText(req);
      if (this.ahead.has(text)) continue;
      let slice = byWindow.get(window);
      if (slice === undefined) byWindow.set(window, (slice = { keys: [], texts: [] }));
      slice.keys.push(keyOfText(this.o.baseUrl, text));
      slice.texts.push(text);
    }
    for (const [window, { keys, texts }] of byWindow) {
      const held = await this.o.store.answers(keys, this.o.now() - window, this.maxAnswerBytes);
      keys.forEach((key, i) => this.ahead.set(texts[i] as string, { key, hit: held.get(key) ?? null, window }));
    }
    for (const key of this.ahead.keys()) {
      if (this.ahead.size <= AHEAD_MAX) break;
      this.ahead.delete(key);
    }
  }

  async request<T>(req: RequestOptions, send: () => Promise<HttpResponse<T>>): Promise<HttpResponse<T>> {
    if (this.failure !== undefined) throw this.failure;
    const purchase = req.purchase;
    if (!purchase) {
      const res = await send();
      await this.logCharge(req, res.data).catch((err: unknown) => {
        this.failure ??= err;
      });
      return res;
    }
    const window = this.windowFor(purchase);
    const text = requestText(req);
    // Read ahead (`prefetch`): a held answer is used as read; one missing then is looked for again by the claim.
    const ahead = window > 0 ? this.ahead.get(text) : undefined;
    if (ahead) this.ahead.delete(text);
    const key = ahead?.key ?? keyOfText(this.o.baseUrl, text);
    const started = this.o.now();
    const reuse = async (since: number): Promise<HttpResponse<T> | undefined> => {
      const hit = await this.o.store.answer(key, since, this.maxAnswerBytes);
      return hit && this.reusable(key, hit) ? this.fromStore<T>(req, key, hit, window) : undefined;
    };
    if (
      ahead?.hit &&
      ahead.window === window &&
      ahead.hit.boughtAt >= started - window &&
      this.reusable(key, ahead.hit)
    )
      return this.fromStore<T>(req, key, ahead.hit, window);
    // A server answers each look in a round trip: there the claim looks too (one trip for both), except for a
    // free not-found this run bought, which only this run reuses.
    const lookedAhead = ahead !== undefined && ahead.hit === null && !this.notFound.has(key);
    if (window > 0 && !lookedAhead && (this.o.store.engine !== 'postgres' || this.notFound.has(key))) {
      const hit = await reuse(started - window);
      if (hit) return hit;
    }
    // The same record asked again by this run while on its way (a bulk input naming a creator twice): the
    // store's claim belongs to the run and would not hold it back, so it waits here and reuses that answer.
    for (let pending = this.inFlight.get(key); pending; pending = this.inFlight.get(key)) {
      await pending;
      if (this.failure !== undefined) throw this.failure;
      // Bought after this request began: fresh even with --max-age 0.
      const hit = await reuse(window > 0 ? started - window : started);
      if (hit) return hit;
    }
    let landed!: () => void;
    const flight = new Promise<void>((resolve) => (landed = resolve));
    this.inFlight.set(key, flight);
    try {
      return await this.buy(req, send, purchase, key, window, started);
    } finally {
      this.inFlight.delete(key);
      landed();
    }
  }

  private async buy<T>(
    req: RequestOptions,
    send: () => Promise<HttpResponse<T>>,
    purchase: Purchase,
    key: string,
    window: number,
    started: number,
  ): Promise<HttpResponse<T>> {
    const policy = { ...POLICIES.claimWait, deadlineMs: this.o.claimWaitMs ?? POLICIES.claimWait.deadlineMs };
    const waitUntil = started + policy.deadlineMs;
    // With --max-age 0 nothing held is reused, but for an answer bought while this request waited for it.
    const since = window > 0 ? started - window : undefined;
    let said: Holder | undefined;
    for (let looks = 1; ; looks++) {
      const waited = looks > 1;
      const look = since ?? (waited ? started : undefined);
      const claim = await this.o.store.claim(
        key,
        this.holder,
        look === undefined ? undefined : { since: look, maxBytes: this.maxAnswerBytes },
      );
      if (claim === 'claimed') {
        // The holder waited for fell silent (another machine) or died: this run buys it now, and says so.
        if (said)
          this.o.notice?.(
            `Pid ${said.pid} on ${said.host} stopped buying ${answerName(req)} (gone, or silent ${SILENT_MS / 1000} s on another machine): buying it here.`,
          );
        break;
      }
      if ('answer' in claim) return this.fromStore<T>(req, key, claim.answer, window);
      if (!said && this.o.now() - started >= CLAIM_WAIT_SAID_MS) {
        said = claim;
        const until =
          claim.host === this.holder.host
            ? 'while that process lives'
            : `while it answers (it is taken over after ${SILENT_MS / 1000} s of silence)`;
        this.o.notice?.(
          `Waiting for pid ${claim.pid} on ${claim.host}, which is buying the same record (${answerName(req)}), ${until}, up to ${Math.round((waitUntil - started) / 1000)} s.`,
        );
      }
      if (!mayRetry(policy, looks, this.o.now() - started)) {
        throw new BusyError(
          `Another process (pid ${claim.pid} on ${claim.host}) is buying the same record and has not answered yet; not bought twice.`,
          {
            hint: 'Re-run once it has finished: its answer will come from the store (CREATORS_STORE_CLAIM_WAIT sets how long to wait). `creators store doctor` shows who holds what.',
          },
        );
      }
      await this.o.sleep(backoffMs(policy, looks), this.o.signal);
    }
    // Kept with its answer in one transaction; released on its own only when the answer was not kept.
    let kept = false;
    try {
      const res = await send();
      await this.keep(req, purchase, key, res.data).then(
        () => {
          kept = true;
        },
        (err: unknown) => {
          this.failure ??= err;
        },
      );
      return res;
    } finally {
      if (!kept) await this.o.store.release(key, this.holder).catch(() => undefined);
    }
  }

  private async fromStore<T>(
    req: RequestOptions,
    key: string,
    hit: ReusableAnswer,
    window: number,
  ): Promise<HttpResponse<T>> {
    const data = await this.checked(req, key, hit);
    this.tally.reused++;
    this.tally.windowMs = this.tally.windowMs === undefined ? window : Math.min(this.tally.windowMs, window);
    return { status: 200, headers: {}, data: data as T, url: '', storedAt: hit.boughtAt };
  }

  private async keep(req: RequestOptions, purchase: Purchase, key: string, data: unknown): Promise<void> {
    const now = this.o.now();
    const isFound = purchase.kind === 'page' || found(data);
    const creditsMilli = this.charged(req, data, isFound) ?? 0;
    const records = purchase.kind === 'page' ? (itemsOfPage(data)?.length ?? 0) : isFound ? 1 : 0;
    const route = routeOf(req.path);
    const answer: StoredAnswer = {
      key,
      baseUrl: this.o.baseUrl,
      route,
      kind: purchase.kind,
      platform: purchase.platform ?? null,
      subject: purchase.subject ?? null,
      request: requestText(req),
      body: stringifyJson(data),
      status: isFound ? 'ok' : 'not_found',
      creditsMilli,
      records,
      boughtAt: now,
      profile: this.o.profile,
    };
    this.tally.bought++;
    this.spentMilli += creditsMilli;
    // Named by run, key and time: a commit tried again (after a lost connection) logs the charge once. Their hash's
    // first 96 bits as 16 characters: the text itself (47) was written twice a record (the entry and its unique index).
    const spend =
      creditsMilli > 0
        ? {
            ...this.spendEntry(route, purchase.platform, creditsMilli, records, now),
            origin: createHash('sha256').update(`${this.holder.run}:${key}:${now}`).digest('base64url').slice(0, 16),
          }
        : undefined;
    const creators = creatorsOf(purchase, data, isFound);
    const bytes = Buffer.byteLength(answer.body);
    if (bytes > this.maxAnswerBytes) {
      // Paid for and printed, but never kept bigger than an answer may be (read back, it could not be reused): its
      // charge is logged.
      if (spend) await this.o.store.logSpend(spend);
      throw new CliError(
        `The answer bought for ${answerName(req)} is ${sizeText(bytes)}, over the ${sizeText(this.maxAnswerBytes)} an answer may be: it was printed but not kept in the store; nothing more was bought.`,
        EXIT.ERROR,
        { code: 'store_answer_too_large', hint: 'CREATORS_MAX_RESPONSE_MB sets the cap, in megabytes.' },
      );
    }
    if (answer.status === 'not_found' && creditsMilli === 0) this.notFound.add(key);
    // A commit that does not land at once (the store locked, a slow server) leaves the answer on disk in the
    // outbox meanwhile: a kill during the wait must not lose what was paid. Landed later, the line is harmless
    // (the next run's drain finds the answer held and its charge logged).
    const committing = this.grouped({ answer, creators, spend });
    let outboxed = false;
    const early = setTimeout(() => {
      try {
        if (this.o.outbox === undefined) return;
        appendOutbox(this.o.outbox, [{ answer, creators, spend }]);
        outboxed = true;
      } catch {
        // Tried again below if the commit fails too.
      }
    }, SLOW_COMMIT_MS);
    try {
      await committing;
    } catch (err) {
      // Whatever stopped the commit, the paid answer is on disk before it is returned.
      const u: Unkept = { answer, creators, spend };
      try {
        if (this.o.outbox === undefined) throw new Error('no outbox');
        if (!outboxed) appendOutbox(this.o.outbox, [{ answer, creators, spend }]);
      } catch (lost) {
        u.lost = lost;
      }
      this.unkept.push(u);
      throw err;
    } finally {
      clearTimeout(early);
    }
  }

  /**
   * Group commit: answers arriving while a commit is under way go together in the next one (one transaction, one
   * fsync or round trip for all), so a run with many rows in flight does not wait for a commit a row. Each still
   * returns only once its own transaction is committed, or fails with it (then `keep` puts it in the outbox).
   */
  private grouped(item: KeptAnswer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.committing) void this.commitWaiting();
    });
  }

  private async commitWaiting(): Promise<void> {
    this.committing = true;
    try {
      // A file's commit blocks the process while it syncs: the answers ready in this turn of the event loop go with it.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.waiting.length > 0) {
        const group = this.waiting.splice(0, GROUP_MAX);
        try {
          await this.o.store.commitMany(
            group.map((g) => g.item),
            this.holder,
          );
          for (const g of group) g.resolve();
        } catch (err) {
          for (const g of group) g.reject(err);
        }
      }
    } finally {
      this.committing = false;
    }
  }

  spendEntry(
    route: string,
    platform: string | undefined,
    creditsMilli: number,
    records: number,
    at: number,
  ): SpendEntry {
    return {
      at,
      profile: this.o.profile,
      baseUrl: this.o.baseUrl,
      command: this.o.command,
      route,
      platform: platform ?? null,
      creditsMilli,
      records,
      run: this.holder.run,
    };
  }

  /**
   * The end of a run whose store refused paid answers: one try to put the outbox in the store now, else one
   * line naming them, where they are and that the next run puts them in the store before it buys.
   */
  async settle(): Promise<string | undefined> {
    if (this.unkept.length === 0) return undefined;
    const missed = this.unkept.splice(0);
    const kept = missed.filter((u) => u.lost === undefined);
    const lost = missed.filter((u) => u.lost !== undefined);
    // A free answer (a not-found) is kept the same way, but not called paid.
    const what = (us: readonly Unkept[]): string => {
      const paid = us.filter((u) => u.answer.creditsMilli > 0).length;
      const kind = paid === us.length ? 'paid ' : paid === 0 ? 'free ' : '';
      return `${us.length} ${kind}${us.length === 1 ? 'answer' : 'answers'} (${missedNames(us)}${kind === '' ? `; ${paid} paid` : ''})`;
    };
    const lines: string[] = [];
    if (kept.length > 0 && this.o.outbox !== undefined) {
      let now = false;
      try {
        await drainOutbox(this.o.outbox, this.o.store, `${this.holder.run}-${process.pid}`);
        now = true;
      } catch {
        // Still refused: the outbox keeps them for the next run.
      }
      const are = kept.length === 1 ? 'is' : 'are';
      lines.push(
        now
          ? `The store could not take ${what(kept)} when ${kept.length === 1 ? 'it' : 'they'} arrived; ${kept.length === 1 ? 'it is' : 'they are'} kept in it now.`
          : `The store could not take ${what(kept)}; ${kept.length === 1 ? 'it' : 'they'} ${are} kept in the outbox ${this.o.outbox}, and the next run puts ${kept.length === 1 ? 'it' : 'them'} in the store before it buys anything, so ${kept.length === 1 ? 'it is' : 'they are'} not bought again.`,
      );
    }
    if (lost.length > 0) {
      const why =
        lost[0]?.lost instanceof Error && this.o.outbox !== undefined
          ? ` nor the outbox ${this.o.outbox} (${(lost[0].lost as Error).message})`
          : '';
      lines.push(
        `The store could not take ${what(lost)}${why}: ${lost.length === 1 ? 'it is' : 'they are'} in this run's output only.`,
      );
    }
    return lines.join(' ');
  }

  /** What an answer cost, as the spend log takes it; a `credits_cost` not believed is said once a run per route. */
  private charged(req: RequestOptions, data: unknown, isFound: boolean): number | undefined {
    const { milli, refused } = readCharge(req, data, isFound);
    const route = routeOf(req.path);
    if (refused && !this.doubted.has(route)) {
      this.doubted.add(route);
      const most =
        refused.mostMilli === undefined ? '' : ` (at most ${formatCredits(refused.mostMilli)} for this answer)`;
      const logged =
        milli === undefined
          ? 'nothing is logged for it'
          : `the price table's ${formatCredits(milli)} is logged instead`;
      this.o.warn?.(
        `The service's credits_cost ${refused.said} for ${route} is not a charge that route makes${most}; ${logged}.`,
      );
    }
    return milli;
  }

  /**
   * Logs what a POST outside the memory's purchases cost (a raw `creators api` call; any purchase with
   * `--no-store`). Batch jobs are logged from the job's own figures (`logJob`), never from their create.
   */
  async logCharge(req: RequestOptions, data: unknown): Promise<void> {
    const route = routeOf(req.path);
    if (route === BATCH_ROUTE || route.startsWith(`${BATCH_ROUTE}/`) || route.startsWith('creators/enrich/public'))
      return;
    const isFound = !req.purchase || req.purchase.kind === 'page' || found(data);
    const creditsMilli = this.charged(req, data, isFound);
    if (!creditsMilli || creditsMilli <= 0) return;
    const body = req.body as { platform?: unknown } | undefined;
    this.spentMilli += creditsMilli;
    const records = req.purchase?.kind === 'creator' ? 1 : (itemsOfPage(data)?.length ?? 1);
    const entry = this.spendEntry(
      route,
      typeof body?.platform === 'string' ? body.platform : undefined,
      creditsMilli,
      records,
      this.o.now(),
    );
    // Named by run and count: a log retried after a lost connection logs the charge once.
    const spend = { ...entry, origin: `${this.holder.run}:charge:${++this.charges}` };
    try {
      await this.o.store.logSpend(spend);
    } catch (err) {
      // The spend log must equal the ledger: a charge the store cannot take waits in the outbox like an answer.
      try {
        if (this.o.outbox === undefined) throw new Error('no outbox');
        appendOutbox(this.o.outbox, [{ spend }]);
        this.o.warn?.(
          `The charge of ${route} (${formatCredits(creditsMilli)} credits) is kept in the outbox ${this.o.outbox} until the store takes it (the next run puts it there).`,
        );
      } catch {
        this.o.warn?.(
          `The charge of ${route} (${formatCredits(creditsMilli)} credits) is in no spend log: the store and its outbox both refused it.`,
        );
      }
      throw err;
    }
  }
}
