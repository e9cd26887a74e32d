/**
 * The purchase memory: the HTTP client hands it every POST. A `purchase` is keyed by what was bought (base
 * URL, route, query, body, the handle normalised as the service does) and is (1) answered from the store
 * when bought within the freshness window; else (2) claimed, so another process buying the same record
 * waits for this answer instead of paying for its own (bounded: then busy); (3) sent, and committed with
 * its spend entry in one transaction before it is returned, so nothing is printed that the store does not
 * hold. Any other POST the service charged (a raw `creators api` call) is logged in the spend log.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { normalizeHandle } from '../../contract/handles.js';
import { PRICES, requestPriceOf } from '../../contract/prices.js';
import { BusyError, CliError, EXIT } from '../errors.js';
import { parseJson, stringifyJson } from '../exact-json.js';
import { DEFAULT_MAX_RESPONSE_MB, storedShapeMismatch } from '../http/attempt.js';
import { FROM_STORE, type HttpResponse, type Purchase, type PurchaseMemory, type RequestOptions } from '../http/client.js';
import { buildUrl } from '../http/url.js';
import { itemsOfPage } from '../paging.js';
import { isUnreachable } from './pg-errors.js';
import type { Holder, ReusableAnswer, SpendEntry, Store, StoredAnswer } from './types.js';

interface Unkept {
  answer: StoredAnswer;
  creators: string[];
  spend: SpendEntry | undefined;
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
  /** The response cap (CREATORS_MAX_RESPONSE_MB): no answer is kept or reused bigger than an answer may be. */
  maxAnswerBytes?: number | undefined;
}

/** libsql aborts the process reading a text over V8's string limit (about 512 MiB): nothing that size is kept or read back, whatever the cap. */
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
function damagedAnswer(req: Pick<RequestOptions, 'path' | 'purchase'>, key: string, boughtAt: number, why: string): CliError {
  const p = req.purchase;
  const forget = p?.platform && p.subject && !p.subject.includes('@') ? `\`creators store forget ${p.platform}:${p.subject}\`, or ` : '';
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

/** Sorted keys, recursively: two bodies that mean the same have the same text. */
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

export function routeOf(path: string): string {
  return path.replace(/^\/+/, '').replace(/^public\/v1\//, '').replace(/\/+$/, '');
}

/**
 * The request as bought: what the key is made of (the handle as the service normalises it; a comparison's
 * creators normalised and sorted, so one pair is one purchase whatever the order or spelling).
 */
export function requestText(req: Pick<RequestOptions, 'path' | 'query' | 'body'>): string {
  let body = req.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (typeof b.handle === 'string') body = { ...b, handle: normalizeHandle(b.handle) };
    if (Array.isArray(b.creators) && b.creators.every((c) => typeof c === 'string')) {
      body = { ...(body as Record<string, unknown>), creators: (b.creators as string[]).map(normalizeHandle).sort() };
    }
  }
  return stringifyJson(canonical({ route: routeOf(req.path), query: req.query ?? null, body: body ?? null }));
}

export function answerKey(baseUrl: string, req: Pick<RequestOptions, 'path' | 'query' | 'body'>): string {
  return createHash('sha256').update(`${baseUrl}\n${requestText(req)}`).digest('hex');
}

function creatorsOf(purchase: Purchase, data: unknown, found: boolean): string[] {
  if (purchase.kind === 'creator') return found && purchase.subject && !purchase.subject.includes('@') ? [purchase.subject] : [];
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

/**
 * What the service charged: its own `credits_cost` when it says; else the price table (per creator returned
 * for Discovery, per request elsewhere; nothing found is free); undefined for a route the table does not price.
 */
export function chargedMilli(req: Pick<RequestOptions, 'path' | 'query'>, data: unknown, isFound: boolean): number | undefined {
  const said = data && typeof data === 'object' ? (data as { credits_cost?: unknown }).credits_cost : undefined;
  if (said !== undefined && said !== null && said !== '' && Number.isFinite(Number(said))) return Math.round(Number(said) * 1000);
  if (!isFound) return 0;
  const route = routeOf(req.path);
  const perCreator = [PRICES.discoveryPerCreator, PRICES.discoveryPerCreatorWithFilterValues, PRICES.similarPerCreator].filter((p) => p.route === route);
  if (perCreator.length > 0) {
    const withValues = String((req.query as Record<string, unknown> | undefined)?.return_filter_values ?? '') === 'true';
    const price = perCreator.find((p) => ('query' in p) === withValues) ?? perCreator[0];
    return (itemsOfPage(data)?.length ?? 0) * (price?.chargedMilli ?? 0);
  }
  return requestPriceOf(route)?.chargedMilli;
}

function missedNames(missed: readonly Unkept[]): string {
  const names = missed.map((u) => (u.answer.subject ? `${u.answer.platform ?? ''}:${u.answer.subject}` : `${u.answer.route} page`));
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

/** A stored answer's data as a request would get it: parsed exactly, marked `storedAt` (lib/http) with when it was bought. */
export function storedData(hit: Pick<StoredAnswer, 'body' | 'boughtAt'>): unknown {
  const data = parseJson(hit.body);
  if (data !== null && typeof data === 'object') Object.defineProperty(data, FROM_STORE, { value: hit.boughtAt, enumerable: false });
  return data;
}

export class PurchaseMemoryImpl implements PurchaseMemory {
  readonly holder: Holder;
  readonly tally: MemoryTally = { reused: 0, bought: 0, windowMs: undefined };
  spentMilli = 0;
  /** A paid answer the store could not keep (a full disk): it is still printed, no purchase starts after it, the command ends with this error. */
  failure: unknown = undefined;
  private charges = 0;
  /** Set when a workflow has already said what came from the store (no second notice at the end). */
  announced = false;
  /** Paid answers a team store out of reach could not keep: kept once it is back, or in the local store (`settle`). */
  private readonly unkept: Unkept[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  /** The free not-founds this run bought: reused by it, never by a later run (one transient miss must not hide a creator). */
  private readonly notFound = new Set<string>();
  private readonly maxAnswerBytes: number;

  constructor(private readonly o: MemoryOptions) {
    this.holder = { run: o.run ?? createHash('sha256').update(`${process.pid}:${o.now()}:${Math.random()}`).digest('hex').slice(0, 16), pid: process.pid, host: hostname() };
    this.maxAnswerBytes = Math.min(o.maxAnswerBytes ?? DEFAULT_MAX_RESPONSE_MB * 1024 * 1024, ANSWER_CEILING_BYTES);
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
    const key = answerKey(this.o.baseUrl, req);
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
      throw damagedAnswer(req, key, hit.boughtAt, `${sizeText(bytes)}, over the ${sizeText(this.maxAnswerBytes)} an answer may be (CREATORS_MAX_RESPONSE_MB)`);
    }
    let data: unknown;
    try {
      data = storedData(hit);
    } catch {
      throw damagedAnswer(req, key, hit.boughtAt, 'not valid JSON');
    }
    const url = req.absoluteUrl ? new URL(req.absoluteUrl) : buildUrl(new URL(this.o.baseUrl), req.path, req.query);
    const mismatch = await storedShapeMismatch(req, url, data);
    if (mismatch !== undefined) throw damagedAnswer(req, key, hit.boughtAt, `not the endpoint's shape (${mismatch})`);
    return data;
  }

  /** How many of these requests the store would answer now (a run's count before its money gate). */
  async countStored(reqs: readonly RequestOptions[]): Promise<number> {
    const byWindow = new Map<number, string[]>();
    for (const req of reqs) {
      if (!req.purchase) continue;
      const window = this.windowFor(req.purchase);
      if (window <= 0) continue;
      const keys = byWindow.get(window) ?? [];
      keys.push(answerKey(this.o.baseUrl, req));
      byWindow.set(window, keys);
    }
    let n = 0;
    for (const [window, keys] of byWindow) n += (await this.o.store.answered(keys, this.o.now() - window)).size;
    return n;
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
    const key = answerKey(this.o.baseUrl, req);
    const window = this.windowFor(purchase);
    const started = this.o.now();
    const reuse = async (since: number): Promise<HttpResponse<T> | undefined> => {
      const hit = await this.o.store.answer(key, since, this.maxAnswerBytes);
      return hit && this.reusable(key, hit) ? this.fromStore<T>(req, key, hit, window) : undefined;
    };
    if (window > 0) {
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
      return await this.buy(req, send, purchase, key, window, started, reuse);
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
    reuse: (since: number) => Promise<HttpResponse<T> | undefined>,
  ): Promise<HttpResponse<T>> {
    const waitUntil = started + (this.o.claimWaitMs ?? 120_000);
    for (;;) {
      const claim = await this.o.store.claim(key, this.holder, this.o.now(), Math.max(this.o.claimWaitMs ?? 120_000, 60_000));
      if (claim === 'claimed') break;
      const hit = await reuse(window > 0 ? started - window : started);
      if (hit) return hit;
      if (this.o.now() >= waitUntil) {
        throw new BusyError(`Another process (pid ${claim.pid} on ${claim.host}) is buying the same record and has not answered yet; not bought twice.`, {
          hint: 'Re-run once it has finished: its answer will come from the store.',
        });
      }
      await this.o.sleep(200, this.o.signal);
    }
    try {
      // Answered by another process between the first look and the claim.
      const late = window > 0 ? await reuse(started - window) : undefined;
      if (late) return late;
      const res = await send();
      await this.keep(req, purchase, key, res.data).catch((err: unknown) => {
        this.failure ??= err;
      });
      return res;
    } finally {
      await this.o.store.release(key, this.holder).catch(() => undefined);
    }
  }

  private async fromStore<T>(req: RequestOptions, key: string, hit: ReusableAnswer, window: number): Promise<HttpResponse<T>> {
    const data = await this.checked(req, key, hit);
    this.tally.reused++;
    this.tally.windowMs = this.tally.windowMs === undefined ? window : Math.min(this.tally.windowMs, window);
    return { status: 200, headers: {}, data: data as T, url: '', storedAt: hit.boughtAt };
  }

  private async keep(req: RequestOptions, purchase: Purchase, key: string, data: unknown): Promise<void> {
    const now = this.o.now();
    const isFound = purchase.kind === 'page' || found(data);
    const creditsMilli = chargedMilli(req, data, isFound) ?? 0;
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
    // Named by run, key and time: a commit tried again (after a lost connection) logs the charge once.
    const spend = creditsMilli > 0 ? { ...this.spendEntry(route, purchase.platform, creditsMilli, records, now), origin: `${this.holder.run}:${key}:${now}` } : undefined;
    const creators = creatorsOf(purchase, data, isFound);
    const bytes = Buffer.byteLength(answer.body);
    if (bytes > this.maxAnswerBytes) {
      // Paid for and printed, but never kept bigger than an answer may be (read back, it could not be reused): its charge is logged.
      if (spend) await this.o.store.logSpend(spend);
      throw new CliError(
        `The answer bought for ${answerName(req)} is ${sizeText(bytes)}, over the ${sizeText(this.maxAnswerBytes)} an answer may be: it was printed but not kept in the store; nothing more was bought.`,
        EXIT.ERROR,
        { code: 'store_answer_too_large', hint: 'CREATORS_MAX_RESPONSE_MB sets the cap, in megabytes.' },
      );
    }
    if (answer.status === 'not_found' && creditsMilli === 0) this.notFound.add(key);
    try {
      await this.o.store.commit(answer, creators, spend);
    } catch (err) {
      if (isUnreachable(err)) this.unkept.push({ answer, creators, spend });
      throw err;
    }
  }

  private spendEntry(route: string, platform: string | undefined, creditsMilli: number, records: number, at: number): SpendEntry {
    return { at, profile: this.o.profile, baseUrl: this.o.baseUrl, command: this.o.command, route, platform: platform ?? null, creditsMilli, records, run: this.holder.run };
  }

  /**
   * Keeps the paid answers an unreachable team store missed: in it once it answers again (a few tries), else in
   * `local()` (which `store push` copies into the team store). Answers one line saying which.
   */
  async settle(local: () => Promise<{ store: Store; where: string } | undefined>): Promise<string | undefined> {
    if (this.unkept.length === 0) return undefined;
    const missed = this.unkept.splice(0);
    const one = missed.length === 1;
    const what = `${missed.length} paid ${one ? 'answer' : 'answers'} (${missedNames(missed)})`;
    const are = one ? 'is' : 'are';
    const commitAll = async (store: Store): Promise<void> => {
      for (const u of missed) await store.commit(u.answer, u.creators, u.spend);
    };
    for (const wait of [250, 1000, 2000]) {
      try {
        await this.o.sleep(wait, this.o.signal);
        await commitAll(this.o.store);
        return `The team store was out of reach for part of this run; ${what} it missed ${are} kept in it now.`;
      } catch {
        if (this.o.signal?.aborted) break;
      }
    }
    try {
      const fallback = await local();
      if (fallback) {
        await commitAll(fallback.store);
        return `The team store is out of reach: ${what} ${are} kept in the local store ${fallback.where}; \`creators store push\` copies ${one ? 'it' : 'them'} into the team store once it is back.`;
      }
    } catch {
      // Said below: the answers were printed, and are in no store.
    }
    return `The team store is out of reach and the local store could not take ${one ? 'it' : 'them'}: ${what} ${are} in this run's output only.`;
  }

  private async logCharge(req: RequestOptions, data: unknown): Promise<void> {
    const creditsMilli = chargedMilli(req, data, true);
    if (!creditsMilli || creditsMilli <= 0) return;
    const body = req.body as { platform?: unknown } | undefined;
    this.spentMilli += creditsMilli;
    const entry = this.spendEntry(routeOf(req.path), typeof body?.platform === 'string' ? body.platform : undefined, creditsMilli, itemsOfPage(data)?.length ?? 1, this.o.now());
    // Named by run and count: a log retried after a lost connection logs the charge once.
    await this.o.store.logSpend({ ...entry, origin: `${this.holder.run}:charge:${++this.charges}` });
  }
}
