/**
 * Requests go through undici (pools, proxies, MockAgent in tests), except bodyless GETs when no proxy or injected
 * dispatcher is in play: node:http(s) streams a download with less CPU (undici copies every chunk through its
 * WebAssembly parser) and spares a read-only command loading undici (README, Performance). A GET is safe to resend,
 * so a kept connection the server closed costs a retry, never a double charge; requests that may spend stay on undici.
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
  /** With `maxBytes`, a longer body is not read further: the exchange is closed and `ResponseTooLarge` thrown. */
  text(maxBytes?: number): Promise<string>;
}

export class ResponseTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly bytes: number,
  ) {
    super(`response larger than ${limit} bytes`);
    this.name = 'ResponseTooLarge';
  }
}

/**
 * A hostile or broken server cannot make the process hold more than the cap; an announced length over it fails at once.
 */
export async function readCapped(
  body: Readable,
  headers: RawResponse['headers'],
  maxBytes: number | undefined,
): Promise<string> {
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
  signal: AbortSignal;
  /** For the response headers, and for each next piece of the body. */
  idleTimeoutMs: number;
}

export type Transport = (url: URL, req: TransportRequest) => Promise<RawResponse>;

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

/** Named like the signal timeouts the client checks for. */
function idleTimeout(ms: number): Error {
  return Object.assign(new Error(`no data for ${Math.round(ms / 1000)} s`), {
    name: 'TimeoutError',
    code: 'ETIMEDOUT',
  });
}

/** No cap on a transfer that keeps moving; a reader that has not taken what arrived is not the server's silence. */
function nodeHttpTransport(agent: (https: boolean) => Promise<Agent | false>): Transport {
  return async (url, req) => {
    if (req.body !== undefined) throw new Error('the node:http transport sends no request body');
    const https = url.protocol === 'https:';
    const [mod, via] = await Promise.all([https ? import('node:https') : http, agent(https)]);
    return new Promise<RawResponse>((resolve, reject) => {
      let response: IncomingMessage | undefined;
      const request = mod.request(
        url,
        { method: req.method, headers: req.headers, signal: req.signal, agent: via },
        (res) => {
          response = res;
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body: res,
            text: (maxBytes) => readCapped(res, res.headers, maxBytes),
          });
        },
      );
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

export const nodeTransport: Transport = nodeHttpTransport(async () => false);

/**
 * One pool per transport (make one per run); idle connections close after 10 s or before the server's `Keep-Alive`
 * hint.
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
