import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';

/** The query of the redirect the browser was sent to: `code` and `state`, or `error`. */
export type CallbackParams = URLSearchParams;

export interface CallbackServer {
  /** `http://127.0.0.1:<port>/callback`: the registered redirect URI. */
  redirectUri: string;
  port: number;
  /** Resolves with the first redirect that carries `code` or `error`. */
  received: Promise<CallbackParams>;
  /** Answers the waiting browser with a short success or failure page. */
  finish(ok: boolean, message: string): void;
  close(): Promise<void>;
}

export const CALLBACK_PATH = '/callback';

/**
 * A one-shot HTTP listener on 127.0.0.1 (never all interfaces) for the OAuth redirect. The
 * browser's request is held open until `finish` so its page can say whether the login really
 * worked (after the token exchange), not merely that a code arrived.
 */
export async function startCallbackServer(port = 0): Promise<CallbackServer> {
  let resolveReceived!: (p: CallbackParams) => void;
  const received = new Promise<CallbackParams>((r) => (resolveReceived = r));
  let waiting: ServerResponse | undefined;
  let done: { ok: boolean; message: string } | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    const params = url.searchParams;
    if (!params.has('code') && !params.has('error')) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Missing code.\n');
      return;
    }
    if (waiting || done) {
      res.writeHead(409, { 'content-type': 'text/html; charset=utf-8' }).end(page(false, 'This login was already handled. You can close this tab.'));
      return;
    }
    waiting = res;
    resolveReceived(params);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new UsageError(`Port ${port} on 127.0.0.1 is already in use.`, { hint: 'Pick another with --port, or leave it out for a random port.' })
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
    finish(ok, message) {
      done ??= { ok, message };
      waiting?.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(page(ok, message));
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
