/**
 * How one HTTP exchange is carried. Requests go through undici (keep-alive pools, proxies, MockAgent in
 * tests). A GET whose body is streamed to a file (a batch download) may go through node:http instead:
 * at 1 GB it took ~1.1 s against ~1.6 s through undici here, with a third less CPU (undici copies every
 * chunk into its WebAssembly parser's memory and back out), about what `curl -o` takes. The context
 * uses it only when no proxy is configured and no dispatcher was injected.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

export interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /**
   * The whole body as text (an error response, or a JSON one). With `maxBytes`, a body longer than that
   * is not read further: the exchange is closed and a `ResponseTooLarge` is thrown.
   */
  text(maxBytes?: number): Promise<string>;
}

/** A body over the size cap; `bytes` is how much arrived (or was announced) before the read stopped. */
export class ResponseTooLarge extends Error {
  constructor(readonly limit: number, readonly bytes: number) {
    super(`response larger than ${limit} bytes`);
    this.name = 'ResponseTooLarge';
  }
}

/**
 * Reads a body to text, stopping (and destroying the body) once it passes `maxBytes`: a hostile or
 * broken server cannot make the process hold more than the cap. A `content-length` over the cap fails
 * before anything is read.
 */
export async function readCapped(body: Readable, headers: RawResponse['headers'], maxBytes: number | undefined): Promise<string> {
  if (maxBytes === undefined) {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  const announced = Number(headers['content-length']);
  if (Number.isFinite(announced) && announced > maxBytes) {
    body.destroy();
    throw new ResponseTooLarge(maxBytes, announced);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > maxBytes) {
      body.destroy();
      throw new ResponseTooLarge(maxBytes, size);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | NodeJS.ReadableStream | undefined;
  /** Aborts the exchange (Ctrl-C, the caller's timeout). */
  signal: AbortSignal;
  /** Longest wait for the response headers, and for each next piece of the body. */
  idleTimeoutMs: number;
}

export type Transport = (url: URL, req: TransportRequest) => Promise<RawResponse>;

/** Through an undici dispatcher (the default for every request). */
export function undiciTransport(dispatcher: Dispatcher): Transport {
  return async (url, req) => {
    const { request } = await import('./undici.js');
    const res = await request(url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body as string | Buffer | undefined,
      dispatcher,
      signal: req.signal,
      headersTimeout: req.idleTimeoutMs,
      bodyTimeout: req.idleTimeoutMs,
    });
    const headers = res.headers as RawResponse['headers'];
    return {
      statusCode: res.statusCode,
      headers,
      body: res.body,
      text: (maxBytes) => (maxBytes === undefined ? res.body.text() : readCapped(res.body, headers, maxBytes)),
    };
  };
}

/** A timeout of the node:http transport, named like the signal timeouts the client checks for. */
function idleTimeout(ms: number): Error {
  return Object.assign(new Error(`no data for ${Math.round(ms / 1000)} s`), { name: 'TimeoutError', code: 'ETIMEDOUT' });
}

/**
 * A body-less request through node:http or node:https on its own connection (closed after: one large
 * transfer, nothing to reuse). The idle timeout is the socket's: no byte for that long, before or during
 * the body, ends the exchange with a TimeoutError (the body's reader sees it), and there is no cap on a
 * transfer that keeps moving. A reader that has not taken what arrived (a slow pipe) is not the server's
 * silence: as with undici's body timeout, the wait goes on.
 */
export const nodeTransport: Transport = async (url, req) => {
  if (req.body !== undefined) throw new Error('nodeTransport sends no request body');
  const mod = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<RawResponse>((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const request = mod.request(url, { method: req.method, headers: req.headers, signal: req.signal, agent: false }, (res) => {
      response = res;
      resolve({
        statusCode: res.statusCode ?? 0,
        headers: res.headers,
        body: res,
        text: (maxBytes) => readCapped(res, res.headers, maxBytes),
      });
    });
    const onIdle = (): void => {
      if (response !== undefined && response.readableLength > 0) {
        request.setTimeout(req.idleTimeoutMs, onIdle);
        return;
      }
      const err = idleTimeout(req.idleTimeoutMs);
      if (response !== undefined) response.destroy(err);
      else request.destroy(err);
    };
    request.setTimeout(req.idleTimeoutMs, onIdle);
    request.on('error', reject);
    request.end();
  });
};
