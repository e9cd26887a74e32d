import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';

export type CallbackParams = URLSearchParams;

export interface CallbackServer {
  /** `http://127.0.0.1:<port>/callback`: the registered redirect URI. */
  redirectUri: string;
  port: number;
  /** Only a redirect with the expected state: any local process or web page can reach this port. */
  received: Promise<CallbackParams>;
  /** The `state` of this login attempt; until it is set, every callback is ignored. */
  expectState(state: string): void;
  finish(ok: boolean, message: string): void;
  close(): Promise<void>;
}

export const CALLBACK_PATH = '/callback';

/** No framing (clickjacking), nothing loaded or run, and the callback address (with its code) never a referrer. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export interface CallbackServerOptions {
  onIgnored?: ((why: string) => void) | undefined;
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The browser's request is held open until `finish`, so its page says whether the login really worked. */
export async function startCallbackServer(port = 0, options: CallbackServerOptions = {}): Promise<CallbackServer> {
  let resolveReceived!: (p: CallbackParams) => void;
  const received = new Promise<CallbackParams>((r) => (resolveReceived = r));
  let waiting: ServerResponse | undefined;
  let done: { ok: boolean; message: string } | undefined;
  let expected: string | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const answer = (status: number, body: string, html = false): void => {
      res
        .writeHead(status, {
          ...PAGE_HEADERS,
          'content-type': html ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
        })
        .end(body);
    };
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      answer(404, 'Not found.\n');
      return;
    }
    const params = url.searchParams;
    if (!params.has('code') && !params.has('error')) {
      answer(400, 'Missing code.\n');
      return;
    }
    if (waiting || done) {
      answer(409, page(false, 'This login was already handled. You can close this tab.'), true);
      return;
    }
    const state = params.get('state');
    if (expected === undefined || state === null || !sameState(state, expected)) {
      // Not this login's redirect (a stale tab, or someone else's request): the login keeps waiting.
      answer(
        400,
        page(
          false,
          'This address does not belong to the login in progress, so it was ignored. You can close this tab.',
        ),
        true,
      );
      options.onIgnored?.(state === null ? 'no state' : 'a state that does not match');
      return;
    }
    waiting = res;
    resolveReceived(params);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new UsageError(`Port ${port} on 127.0.0.1 is already in use.`, {
              hint: 'Pick another with --port, or leave it out for a random port.',
            })
          : err,
      );
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;

  return {
    redirectUri: `http://127.0.0.1:${actual}${CALLBACK_PATH}`,
    port: actual,
    received,
    expectState(state) {
      expected = state;
    },
    finish(ok, message) {
      done ??= { ok, message };
      waiting
        ?.writeHead(ok ? 200 : 400, {
          ...PAGE_HEADERS,
          'content-type': 'text/html; charset=utf-8',
          connection: 'close',
        })
        .end(page(ok, message));
      waiting = undefined;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function page(ok: boolean, message: string): string {
  const text = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const title = ok ? 'Logged in' : 'Login failed';
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>creators: ${title}</title></head>` +
    `<body style="font-family:sans-serif;max-width:32em;margin:4em auto"><h1>${title}</h1><p>${text}</p></body></html>\n`
  );
}
