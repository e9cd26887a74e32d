/**
 * The hostile corpus: texts a stranger can put in a creator's name, bio, caption, comment or an error
 * body, a server that serves them (node:http on 127.0.0.1, port 0), and the checks every human-facing
 * stream must pass.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';

/** The API key the CLI holds in these tests; a hostile server echoes it back. */
export const KEY = 'sk_live_Zq7hostile0123456789abcdef';

/** Each control sequence on its own, named for failure messages. */
export const SEQUENCES: Record<string, string> = {
  'OSC 0 (window title)': '\x1b]0;pwned\x07',
  'CSI 2J (clear screen)': '\x1b[2J\x1b[H',
  'OSC 8 (hyperlink)': '\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\',
  BEL: '\x07',
  backspace: 'x\b\b',
  'C1 CSI (U+009B)': '\u009b31m',
  'C1 NEL (U+0085)': '\u0085',
  'C1 OSC (U+009D)': '\u009d0;title\u009c',
  'CR (overwrite)': '\rFAKE',
  DEL: '\x7f',
  'RLO (shows text reversed)': 'gnp\u202Eexe',
  'bidi isolates and marks': '\u2066\u2067\u2068\u2069\u200E\u200F\u061C\u202A\u202B\u202C\u202D',
  'zero-width space, joiners, BOM': 'na\u200Bs\u200Ca\u200D\uFEFF',
};

/** All of them in one string, between ordinary words. */
export const HOSTILE = `Evil ${Object.values(SEQUENCES).join(' ')} End`;

/**
 * Any control character a terminal acts on (C0 except tab and line feed, DEL, C1) and any invisible format
 * character that disguises text (bidi controls, zero-width characters, BOM). The corpus has no emoji or
 * Persian text, so no joiner in it is part of the writing.
 */
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;

/** Fails, naming the stream and showing where, when raw control characters are in `text`. */
export function expectNoRawControls(text: string, where: string): void {
  const at = text.search(RAW_CONTROL);
  if (at >= 0) {
    const around = JSON.stringify(text.slice(Math.max(0, at - 40), at + 20));
    expect.fail(
      `${where}: raw control character U+${text.charCodeAt(at).toString(16).padStart(4, '0')} near ${around}`,
    );
  }
}

/** Fails when any credential appears in `text`. */
export function expectNoCredential(text: string, where: string, secrets: readonly string[] = [KEY]): void {
  for (const secret of secrets) {
    if (text.includes(secret))
      expect.fail(`${where}: credential ${secret.slice(0, 8)}… printed in ${JSON.stringify(text.slice(0, 400))}`);
  }
}

export interface Reply {
  status: number;
  body: string | object;
  headers?: Record<string, string>;
}

export type Route = (req: IncomingMessage, body: string) => Reply | undefined;

export interface HostileServer {
  url: string;
  /** Replaces the routes (first match wins); unmatched requests get a 404. */
  routes(...routes: Route[]): void;
  /** The Authorization headers received, in order. */
  authorizations: string[];
}

/** A route for `method` and a path starting with `prefix` (the part after `/public/v1/`). */
export function on(
  method: string,
  prefix: string,
  reply: Reply | ((req: IncomingMessage, body: string) => Reply),
): Route {
  return (req, body) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== method || !path.startsWith(`/public/v1/${prefix}`)) return undefined;
    return typeof reply === 'function' ? reply(req, body) : reply;
  };
}

/** Starts a hostile server for the file's tests (port 0 on loopback), closed after them. */
export function useHostileServer(): { get(): HostileServer } {
  let server: ReturnType<typeof createServer> | undefined;
  let current: Route[] = [];
  const state: HostileServer = {
    url: '',
    authorizations: [],
    routes(...routes) {
      current = routes;
    },
  };
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        if (req.headers.authorization) state.authorizations.push(req.headers.authorization);
        const reply: Reply = current.map((route) => route(req, body)).find((r) => r !== undefined) ?? {
          status: 404,
          body: { detail: 'Not found.' },
        };
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        const type = typeof reply.body === 'string' ? 'text/html; charset=utf-8' : 'application/json';
        res.writeHead(reply.status, { 'content-type': type, ...reply.headers }).end(text);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });
  return { get: () => state };
}
