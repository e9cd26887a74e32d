/**
 * Replies and the error body shapes of the real service (api-contract.md §2.2). Route handlers
 * return a Reply or throw an ApiError carrying one; server.ts is the only place that writes to
 * the socket.
 */
import type { ServerResponse } from 'node:http';

export interface Reply {
  status: number;
  /** JSON-serialised unless `raw` is given; omitted for 204. */
  body?: unknown;
  /** A non-JSON body (CSV export, HTML page...), sent as is with `contentType`. */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string | number>;
}

/** Nested DRF field errors: `{field: ["msg"]}` or `{filters: {engagement_percent: ["msg"]}}`. */
export interface FieldErrors {
  [field: string]: string[] | FieldErrors;
}

/** Thrown from handlers and helpers; the server sends its reply. */
export class ApiError extends Error {
  readonly reply: Reply;

  constructor(reply: Reply) {
    super(`sandbox ${reply.status}: ${JSON.stringify(reply.body)}`);
    this.name = 'ApiError';
    this.reply = reply;
  }
}

export function json(body: unknown, status = 200, headers?: Record<string, string | number>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

export function created(body: unknown): Reply {
  return { status: 201, body };
}

export function noContent(): Reply {
  return { status: 204 };
}

/** DRF's own shape: `{"detail": "..."}` (auth, throttling, 404, 405, parse errors). */
export function detail(status: number, message: string, extra: Record<string, unknown> = {}): Reply {
  return { status, body: { detail: message, ...extra } };
}

/** The service's wrapped message: `{"error": "..."}` (e.g. 404 "Exclusion list not found."). */
export function errorText(status: number, message: string, extra: Record<string, unknown> = {}): Reply {
  return { status, body: { error: message, ...extra } };
}

/** Non-field serializer errors: `{"error": ["..."]}`. */
export function errorList(status: number, messages: string[]): Reply {
  return { status, body: { error: messages } };
}

/** Field errors wrapped by the service: `{"error": {"limit": ["..."]}}`, possibly nested. */
export function fieldErrors(status: number, fields: FieldErrors): Reply {
  return { status, body: { error: fields } };
}

/** A single field error, the common case: `fieldError('limit', 'Ensure ...')`. */
export function fieldError(field: string, message: string, status = 400): ApiError {
  return new ApiError(fieldErrors(status, { [field]: [message] }));
}

/** DRF's 404 for unknown routes and objects. */
export function notFound(): Reply {
  return detail(404, 'Not found.');
}

/** DRF's 405, with the Allow header DRF sends. */
export function methodNotAllowed(method: string, allowed: readonly string[]): Reply {
  return {
    status: 405,
    body: { detail: `Method "${method}" not allowed.` },
    headers: { Allow: allowed.join(', ') },
  };
}

/**
 * An integer written as bare digits however large (a TikTok user id beyond 2^53, as the real service
 * sends it): `JSON.stringify` alone would need a number and round it.
 */
export class BigIntegerValue {
  constructor(readonly digits: string) {}
  toJSON(): string {
    bigIntegersWritten++;
    return `${BIG_MARK}${this.digits}`;
  }
}

const BIG_MARK = `\u0000big-${Math.random().toString(36).slice(2)}:`;
const BIG_MARKED = new RegExp(`"\\\\u0000${BIG_MARK.slice(1)}(-?\\d+)"`, 'g');
let bigIntegersWritten = 0;

/** `JSON.stringify` with each `BigIntegerValue` as its bare digits. */
export function jsonText(body: unknown): string {
  bigIntegersWritten = 0;
  const text = JSON.stringify(body);
  return bigIntegersWritten === 0 ? text : text.replace(BIG_MARKED, '$1');
}

/** Writes a reply. JSON bodies are compact, as DRF's JSONRenderer produces them. */
export function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string | number> = { ...(reply.headers ?? {}) };
  let payload: string | Buffer | undefined;
  if (reply.raw !== undefined) {
    payload = reply.raw;
    headers['Content-Type'] = reply.contentType ?? 'application/octet-stream';
  } else if (reply.status !== 204 && reply.body !== undefined) {
    payload = jsonText(reply.body);
    headers['Content-Type'] = reply.contentType ?? 'application/json';
  }
  if (payload !== undefined) headers['Content-Length'] = Buffer.byteLength(payload);
  res.writeHead(reply.status, headers);
  res.end(payload);
}
