/**
 * How one HTTP exchange is carried. Requests go through undici (keep-alive pools, proxies, MockAgent in
 * tests), except, when no proxy is configured and no dispatcher was injected, GETs without a body, which
 * go through node:http(s):
 * - a GET whose body is streamed to a file (a batch download), on a connection of its own: at 1 GB it took
 *   ~1.1 s against ~1.6 s through undici here, with a third less CPU (undici copies every chunk into its
 *   WebAssembly parser's memory and back out), about what `curl -o` takes;
 * - any other GET (the JSON reads: balance, dictionaries, pages, lookups), on keep-alive connections: a
 *   command that only reads never loads undici, whose modules and WebAssembly parser took ~20-30 ms of a
 *   one-request command against ~5 ms for node:http (README, Performance). GETs are safe to send again, so
 *   a kept connection the server closed meanwhile costs a retry, never a double charge; requests that may
 *   spend (POST...) stay on undici, which also honours the server's keep-alive hint.
 */
// A static import: the build turns it into require() (scripts/build.mjs builtinsViaRequire), while
// `import('node:http')` would build its ESM facade, which on Node 22+ loads Node's own undici.
import * as http from 'node:http';
import type { Agent, IncomingMessage } from 'node:http';
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

/** Through an undici dispatcher (the default for every request), made on first use when given as a function. */
export function undiciTransport(given: Dispatcher | (() => Promise<Dispatcher>)): Transport {
  let dispatcher: Promise<Dispatcher> | undefined;
  return async (url, req) => {
    dispatcher ??= typeof given === 'function' ? given() : Promise.resolve(given);
    const [{ request }, d] = await Promise.all([import('./undici.js'), dispatcher]);
    const res = await request(url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body as string | Buffer | undefined,
      dispatcher: d,
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
 * A body-less request through node:http or node:https. The idle timeout is the socket's: no byte for that
 * long, before or during the body, ends the exchange with a TimeoutError (the body's reader sees it), and
 * there is no cap on a transfer that keeps moving. A reader that has not taken what arrived (a slow pipe)
 * is not the server's silence: as with undici's body timeout, the wait goes on. `agent` gives the
 * connection: false for one of its own, closed after.
 */
function nodeHttpTransport(agent: (https: boolean) => Promise<Agent | false>): Transport {
  return async (url, req) => {
    if (req.body !== undefined) throw new Error('the node:http transport sends no request body');
    const https = url.protocol === 'https:';
    // node:https (and with it node:tls) only for an https URL.
    const [mod, via] = await Promise.all([https ? import('node:https') : http, agent(https)]);
    return new Promise<RawResponse>((resolve, reject) => {
      let response: IncomingMessage | undefined;
      const request = mod.request(url, { method: req.method, headers: req.headers, signal: req.signal, agent: via }, (res) => {
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
}

/** A streamed GET (a download) on a connection of its own: one large transfer, nothing to reuse. */
export const nodeTransport: Transport = nodeHttpTransport(async () => false);

/**
 * GETs without a body on keep-alive connections (one pool per transport: make one per run). An idle
 * connection is closed after 10 s, or before the server's `Keep-Alive: timeout=` hint runs out (Node's
 * agent keeps a second's margin), as undici's Agent does; an idle connection does not keep the process up.
 */
export function keepAliveGetTransport(): Transport {
  const agents: { http?: Promise<Agent>; https?: Promise<Agent> } = {};
  const options = { keepAlive: true, timeout: 10_000 };
  return nodeHttpTransport((https) =>
    https
      ? (agents.https ??= import('node:https').then((m) => new m.Agent(options)))
      : (agents.http ??= Promise.resolve(new http.Agent(options))),
  );
}
