import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy in front of a sandbox that holds the requests a test picks until the test releases
 * them: "the spinner shows while the request waits" is then checked while the request is known to be
 * waiting, however slow the machine, instead of inside a latency window a stalled machine may miss.
 * Everything else passes straight through. Point the CLI at `url` (CREATORS_BASE_URL).
 */
export interface HoldProxy {
  url: string;
  /** How many held requests have arrived (held or already released). */
  readonly held: number;
  /** Lets every held request (and every later one) through. */
  release(): void;
  close(): Promise<void>;
}

export async function holdProxy(target: string, hold: (req: IncomingMessage) => boolean): Promise<HoldProxy> {
  const upstream = new URL(target);
  let released = false;
  let held = 0;
  let releaseAll!: () => void;
  const gate = new Promise<void>((resolve) => {
    releaseAll = resolve;
  });
  const server: Server = createServer((req, res) => {
    const forward = (): void => {
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    };
    if (!released && hold(req)) {
      held++;
      // The body is read by the forwarded request after the release; pause keeps it buffered meanwhile.
      req.pause();
      void gate.then(forward);
    } else {
      forward();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get held() {
      return held;
    },
    release() {
      released = true;
      releaseAll();
    },
    close() {
      releaseAll();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
