import type { Readable } from 'node:stream';
import type { Query } from './url.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method: Method;
  path: string;
  query?: Query;
  body?: unknown;
  /** A streamed body is a factory called once per attempt, so it can be sent again under the retry rules. */
  rawBody?: {
    data: string | Buffer | (() => Readable | AsyncIterable<Uint8Array>);
    contentType: string;
    length?: number;
  };
  noAuth?: boolean;
  timeoutMs?: number;
  /** `json` refuses a 2xx that is not JSON (`malformed_response`); `json-or-text` is for `creators api`. */
  responseType?: 'json' | 'json-or-text' | 'text' | 'stream';
  /** Skips the base URL and path rules; the bearer still goes only to the API origin. */
  absoluteUrl?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** A GET that creates something on the server (the default exclusion list on first read). */
  createsState?: boolean;
  /** A POST a dry run may send: the OAuth refresh, without which a dry run's free reads fail once the token expires. */
  credentialUpkeep?: boolean;
  /**
   * A free read a dry run still sends because the real run sends it first to check its input; other reads are only
   * planned.
   */
  inputCheck?: boolean;
  /**
   * An answer the purchase memory holds within the freshness window is returned unsent; without it, never answered from
   * the store.
   */
  purchase?: Purchase | undefined;
  /**
   * Top-level fields of an answer from the store the caller takes as their stored text (`JsonText`, exact JSON not
   * parsed: a bulk run writes it out as it is), where the store's text and the route's shape allow; else parsed.
   */
  unparsed?: readonly string[] | undefined;
  /** What a person is waiting for, shown by the wait spinner ("Searching…"); else `Waiting for <host>…`. */
  label?: string | undefined;
}

/**
 * What a billable request buys: a creator record (enrichment, socials, overlap) or a page (Discovery, posts, comments).
 */
export interface Purchase {
  kind: 'creator' | 'page';
  platform?: string | undefined;
  /** As the service normalises it (handle) or lower-cased (email); none for pages. */
  subject?: string | undefined;
}

/** Implemented in lib/store: may answer from the store, otherwise calls `send` and keeps what it paid for. */
export interface PurchaseMemory {
  request<T>(req: RequestOptions, send: () => Promise<HttpResponse<T>>): Promise<HttpResponse<T>>;
}

/** Marks an answer from the store with its purchase time (ms since the epoch). Not enumerable, never printed. */
export const FROM_STORE: unique symbol = Symbol('creators.fromStore');

/** Copies the store's mark to an object made from an answer (a page re-shaped for printing). */
export function keepStoredMark<T extends object>(from: unknown, to: T): T {
  const at = storedAt(from);
  if (at !== undefined) Object.defineProperty(to, FROM_STORE, { value: at, enumerable: false });
  return to;
}

export function storedAt(data: unknown): number | undefined {
  return data !== null && typeof data === 'object'
    ? ((data as { [FROM_STORE]?: number })[FROM_STORE] ?? undefined)
    : undefined;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  url: string;
  storedAt?: number | undefined;
}
