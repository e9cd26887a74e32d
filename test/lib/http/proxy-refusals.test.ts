/**
 * Proxies that say no: one that asks for credentials (407, or 401 as some do) and one that tunnels only to
 * port 443, as many corporate proxies are set up. Both are tiny node:http servers on loopback.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';

const sb = useSandbox();

interface TestProxy {
  url: string;
  /** `METHOD target (Proxy-Authorization: yes|no)` of every request it received. */
  seen: string[];
  server: Server;
}

/** Forwards an absolute-form request to its target. */
function forward(req: IncomingMessage, res: import('node:http').ServerResponse): void {
  const upstream = httpRequest(new URL(req.url ?? ''), { method: req.method, headers: req.headers }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

async function startProxy(
  onRequest: (req: IncomingMessage, res: import('node:http').ServerResponse) => void,
  onConnect: (req: IncomingMessage, socket: import('node:stream').Duplex) => void,
): Promise<TestProxy> {
  const seen: string[] = [];
  const mark = (req: IncomingMessage): void => {
    seen.push(`${req.method} ${req.url} (Proxy-Authorization: ${req.headers['proxy-authorization'] ? 'yes' : 'no'})`);
  };
  const server = createServer((req, res) => {
    mark(req);
    onRequest(req, res);
  });
  server.on('connect', (req: IncomingMessage, socket: import('node:stream').Duplex) => {
    mark(req);
    onConnect(req, socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

let strict: TestProxy;
let asks407: TestProxy;
let asks401: TestProxy;
let pageFor401: TestProxy;

beforeAll(async () => {
  // Forwards plain http:// requests (absolute-form), tunnels only to port 443, as curl's users meet it.
  strict = await startProxy(forward, (_req, socket) => {
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
  });
  const refuse = (status: number) => (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    req.resume();
    res
      .writeHead(status, { 'proxy-authenticate': 'Basic realm="corp"', 'content-type': 'text/html' })
      .end('<html><title>Access denied</title></html>');
  };
  const refuseTunnel =
    (status: number, reason: string) => (_req: IncomingMessage, socket: import('node:stream').Duplex) => {
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n`);
    };
  asks407 = await startProxy(refuse(407), refuseTunnel(407, 'Proxy Authentication Required'));
  asks401 = await startProxy(refuse(401), refuseTunnel(401, 'Unauthorized'));
  // A proxy that answers a wrong password with a plain 401 page and WWW-Authenticate, no Proxy-Authenticate.
  pageFor401 = await startProxy(
    (req, res) => {
      req.resume();
      res
        .writeHead(401, { 'www-authenticate': 'Basic realm="corp"', 'content-type': 'text/html' })
        .end('<html><title>401 Unauthorized</title></html>');
    },
    (_req, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'),
  );
});

afterAll(async () => {
  for (const p of [strict, asks407, asks401, pageFor401]) {
    p.server.closeAllConnections();
    await new Promise((resolve) => p.server.close(resolve));
  }
});

describe('an http:// base URL through a proxy', () => {
  it('is sent to the proxy as an absolute-form request, as curl does, not tunnelled with CONNECT', async () => {
    strict.seen.length = 0;
    const res = await runCli(['credits', '--json'], { env: { ...sandboxEnv(sb.get()), HTTP_PROXY: strict.url } });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.json<{ credits_available: number }>().credits_available).toBeGreaterThan(0);
    const port = new URL(sb.get().url).port;
    expect(strict.seen).toEqual([`GET http://127.0.0.1:${port}/public/v1/accounts/credits/ (Proxy-Authorization: no)`]);
  });

  it('a paid POST goes the same way, and is charged once', async () => {
    strict.seen.length = 0;
    const [handle] = creatorHandles(sb.get(), 1, 3);
    const before = sb.get().state.ledger.charges.length;
    const res = await runCli(
      ['enrich', 'handle', handle as string, '--platform', 'instagram', '--mode', 'raw', '--json'],
      {
        env: { ...sandboxEnv(sb.get()), HTTP_PROXY: strict.url },
        configDir: tempConfigDir(),
      },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(
      sb
        .get()
        .state.ledger.charges.slice(before)
        .map((c) => c.route),
    ).toEqual(['/public/v1/creators/enrich/handle/raw/']);
    expect(strict.seen.filter((line) => line.startsWith('POST http://'))).toHaveLength(1);
    expect(strict.seen.some((line) => line.startsWith('CONNECT'))).toBe(false);
  });
});

describe('a proxy that refuses a tunnel', () => {
  it('names the proxy and the host it would not connect to; a 403 is its rule, not retried', async () => {
    strict.seen.length = 0;
    const env = {
      CREATORS_BASE_URL: 'https://api.example.com',
      CREATORS_API_KEY: 'sbx_proxy_test',
      HTTPS_PROXY: strict.url,
    };
    const res = await runCli(['credits', '--json'], { env });
    expect(res.code).toBe(1);
    const host = new URL(strict.url).host;
    expect(res.errorJson().error).toMatchObject({
      code: 'proxy_refused',
      status: 403,
      message: `The proxy ${host} (from HTTPS_PROXY) refused to connect to api.example.com (HTTP 403).`,
    });
    expect(strict.seen).toEqual(['CONNECT api.example.com:443 (Proxy-Authorization: no)']);
  });
});

describe('a proxy that refuses the credentials', () => {
  const cases = [
    {
      name: '407 to an absolute-form request',
      proxy: () => asks407,
      base: () => sb.get().url,
      variable: 'HTTP_PROXY',
      status: 407,
    },
    {
      name: '401 to an absolute-form request',
      proxy: () => asks401,
      base: () => sb.get().url,
      variable: 'HTTP_PROXY',
      status: 401,
    },
    {
      name: '407 to CONNECT (https API)',
      proxy: () => asks407,
      base: () => 'https://api.example.com',
      variable: 'HTTPS_PROXY',
      status: 407,
    },
    {
      name: '401 to CONNECT (https API)',
      proxy: () => asks401,
      base: () => 'https://api.example.com',
      variable: 'HTTPS_PROXY',
      status: 401,
    },
    {
      name: 'a 401 page without Proxy-Authenticate (not the API key: the API answers JSON)',
      proxy: () => pageFor401,
      base: () => sb.get().url,
      variable: 'HTTP_PROXY',
      status: 401,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: exit 4 naming the proxy, never its password; sent once, not retried`, async () => {
      const proxy = c.proxy();
      proxy.seen.length = 0;
      const withPassword = proxy.url.replace('http://', 'http://ann:s3cret-pw@');
      const env = { CREATORS_BASE_URL: c.base(), CREATORS_API_KEY: 'sbx_proxy_test', [c.variable]: withPassword };
      const res = await runCli(['credits', '--debug'], { env });
      expect(res.code).toBe(4);
      const host = new URL(proxy.url).host;
      const lines = res.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('[debug]'));
      expect(lines[0]).toBe(
        `error: The proxy ${host} (from ${c.variable}) refused the credentials given for it (HTTP ${c.status}).`,
      );
      expect(lines[1]).toBe(`Check the user name and password in ${c.variable} (http://user:password@host:port).`);
      expect(res.stderr).not.toMatch(/s3cret-pw|ann:/);
      expect(proxy.seen).toHaveLength(1);
      expect(proxy.seen[0]).toContain('(Proxy-Authorization: yes)');

      const json = await runCli(['credits', '--json'], { env });
      expect(json.code).toBe(4);
      expect(json.errorJson().error).toMatchObject({ code: 'proxy_auth_failed', status: c.status });
      expect(json.stderr).not.toContain('s3cret-pw');
    });
  }

  it('a proxy that asks for credentials none were given for says where they go', async () => {
    asks407.seen.length = 0;
    const res = await runCli(['credits'], { env: { ...sandboxEnv(sb.get()), HTTP_PROXY: asks407.url } });
    expect(res.code).toBe(4);
    const host = new URL(asks407.url).host;
    expect(res.stderr).toBe(
      `error: The proxy ${host} (from HTTP_PROXY) asks for credentials (HTTP 407).\n` +
        `Put them in HTTP_PROXY: http://user:password@${host}.\n`,
    );
    expect(asks407.seen).toHaveLength(1);
  });
});
