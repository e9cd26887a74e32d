/**
 * Request bodies. The whole body is read before routing (bodies are small and it keeps
 * keep-alive connections clean); parsing happens later, where DRF parses: after auth and
 * throttling, so a malformed body from an unauthenticated caller is still a 401.
 */
import type { IncomingMessage } from 'node:http';
import { detail, type Reply } from './respond.js';

/** Above the 10 MB batch CSV limit plus multipart overhead. */
export const MAX_BODY_BYTES = 12 * 1024 * 1024;

/** Reads the body; past the cap the rest is drained and `undefined` returned. */
export async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    if (!tooLarge) chunks.push(chunk);
  }
  return tooLarge ? undefined : Buffer.concat(chunks);
}

export function tooLarge(): Reply {
  return detail(413, 'Request body too large.');
}

/** `application/json; charset=utf-8` -> `application/json`. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export type ParsedBody = { ok: true; body: unknown } | { ok: false; reply: Reply };

/** Parses JSON text, with DRF's error wording on failure. */
export function parseJson(raw: Buffer): ParsedBody {
  try {
    return { ok: true, body: JSON.parse(raw.toString('utf8')) as unknown };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, reply: detail(400, `JSON parse error - ${reason}`) };
  }
}

/**
 * Like DRF's parsers: JSON (also with no content type, as hand-written requests often omit it)
 * and url-encoded forms (the OAuth token endpoint takes both) are parsed; multipart is left to
 * the route as raw bytes; any other media type with a body is a 415.
 */
export function parseBody(raw: Buffer, type: string): ParsedBody {
  if (raw.length === 0) return { ok: true, body: undefined };
  if (type === '' || type === 'application/json' || type.endsWith('+json')) return parseJson(raw);
  if (type === 'application/x-www-form-urlencoded') {
    return { ok: true, body: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
  }
  if (type === 'multipart/form-data') return { ok: true, body: undefined };
  return { ok: false, reply: detail(415, `Unsupported media type "${type}" in request.`) };
}
