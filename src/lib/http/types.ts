/**
 * The shapes of a request and its answer, shared by the client facade (client.ts), the retry loop
 * (retry.ts) and one attempt (attempt.ts); everything outside lib/http imports them through client.ts.
 */
import type { Readable } from 'node:stream';
import type { Query } from './url.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method: Method;
  /** API path; `/public/v1/` and the trailing slash are added when missing. */
  path: string;
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /**
   * A body that is not JSON (multipart, form), with its content type. A streamed body is given as a
   * function returning a fresh stream, called once per attempt, so the request can be sent again
   * under the usual retry rules (a POST only when the server refused it unstarted).
   */
  rawBody?: { data: string | Buffer | (() => Readable | AsyncIterable<Uint8Array>); contentType: string; length?: number };
  /** Sends no Authorization header (OAuth register, presigned downloads). */
  noAuth?: boolean;
  /** Per-request timeout in ms (default from `--timeout`). */
  timeoutMs?: number;
  /**
   * `json` (default) parses the body and refuses a 2xx that is not JSON (`malformed_response`);
   * `json-or-text` hands back a non-JSON body as a string (`creators api`); `text` returns the body as a
   * string; `stream` hands back the open body.
   */
  responseType?: 'json' | 'json-or-text' | 'text' | 'stream';
  /** Absolute URL (a `next` link, a download URL); skips base URL and path rules. Auth only on the API origin. */
  absoluteUrl?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** A GET that creates something on the server (the default exclusion list on first read). */
  createsState?: boolean;
  /**
   * A POST a dry run may send because it only keeps the credential alive (the OAuth token refresh):
   * without it a dry run's free reads would fail once the access token expires.
   */
  credentialUpkeep?: boolean;
  /**
   * A free read a dry run still makes because the real run makes it first to check its input (the
   * exclusion-list ids of a search, the days a campaign has left): its plan is printed after it, saying
   * so. Any other read in a dry run is answered by its plan and never sent.
   */
  inputCheck?: boolean;
  /**
   * What this billable request buys, for the purchase memory (lib/store): an answer it already holds
   * within the freshness window is returned instead of sending, and a new one is committed before it
   * is returned. Requests without it are never answered from the store (their charges are still logged).
   */
  purchase?: Purchase | undefined;
  /** What a person is waiting for, shown by the wait spinner ("Searching…"); else `Waiting for <host>…`. */
  label?: string | undefined;
}

/** What a billable request buys: a creator record (enrichment, socials, overlap) or a page (Discovery, posts, comments). */
export interface Purchase {
  kind: 'creator' | 'page';
  platform?: string | undefined;
  /** The creator bought, as the service normalises it (handle) or lower-cased (email); none for pages. */
  subject?: string | undefined;
}

/**
 * The purchase memory as the HTTP client sees it: every POST goes through `request`, which may answer
 * from the store, and otherwise calls `send` and keeps what it paid for. Implemented in lib/store.
 */
export interface PurchaseMemory {
  request<T>(req: RequestOptions, send: () => Promise<HttpResponse<T>>): Promise<HttpResponse<T>>;
}

/** Marks an answer that came from the store (not the wire): its purchase time, ms since the epoch. Not enumerable, never printed. */
export const FROM_STORE: unique symbol = Symbol('creators.fromStore');

/** Copies the store's mark from an answer to an object made from it (a page re-shaped for printing). */
export function keepStoredMark<T extends object>(from: unknown, to: T): T {
  const at = storedAt(from);
  if (at !== undefined) Object.defineProperty(to, FROM_STORE, { value: at, enumerable: false });
  return to;
}

/** When an answer taken from the store was bought, or undefined for an answer from the wire. */
export function storedAt(data: unknown): number | undefined {
  return data !== null && typeof data === 'object' ? ((data as { [FROM_STORE]?: number })[FROM_STORE] ?? undefined) : undefined;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  url: string;
  /** Set when the answer came from the purchase memory: when it was bought. */
  storedAt?: number | undefined;
}
