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
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  url: string;
}
