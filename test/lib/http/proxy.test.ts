import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { proxyFor } from '../../../src/lib/http/dispatcher.js';

/** A tiny forward proxy on loopback that counts what passes through it (CONNECT and absolute-form). */
let proxy: Server;
let proxied: string[] = [];
let proxyUrl = '';

beforeAll(async () => {
  proxy = createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket, head) => {
    proxied.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

const sb = useSandbox();

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A SOCKS5 proxy without authentication (RFC 1928, CONNECT only) that records where it connected. */
async function socks5Proxy(): Promise<{ url: string; connects: string[]; close(): Promise<void> }> {
  const connects: string[] = [];
  const server = createNetServer((client) => {
    client.once('data', (hello) => {
      if (hello[0] !== 5) return client.destroy();
      client.write(Buffer.from([5, 0]));
      client.once('data', (req) => {
        const type = req[3];
        let host: string;
        let at: number;
        if (type === 1) {
          host = [...req.subarray(4, 8)].join('.');
          at = 8;
        } else if (type === 3) {
          host = req.subarray(5, 5 + (req[4] as number)).toString();
          at = 5 + (req[4] as number);
        } else return client.destroy();
        const port = req.readUInt16BE(at);
        connects.push(`${host}:${port}`);
        const upstream = connect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('proxy settings', () => {
  it('sends requests through HTTP_PROXY', async () => {
    proxied = [];
    const res = await runCli(['credits', '--json'], { env: { ...sandboxEnv(sb.get()), HTTP_PROXY: proxyUrl } });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.json<{ credits_available: number }>().credits_available).toBeGreaterThan(0);
    const port = new URL(sb.get().url).port;
    expect(proxied.some((line) => line.includes(`127.0.0.1:${port}`))).toBe(true);
  });

  it('takes a proxy given without a scheme (host:port) as http://, as curl does', async () => {
    proxied = [];
    const res = await runCli(['credits', '--json'], {
      env: { ...sandboxEnv(sb.get()), HTTP_PROXY: proxyUrl.replace(/^http:\/\//, '') },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(proxied.length).toBeGreaterThan(0);
  });

  it('bypasses the proxy for an address in a NO_PROXY CIDR range', async () => {
    proxied = [];
    const res = await runCli(['credits', '--json'], {
      env: { ...sandboxEnv(sb.get()), HTTP_PROXY: proxyUrl, NO_PROXY: 'intranet.example,127.0.0.0/8' },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(proxied).toEqual([]);
  });

  it('takes http_proxy over HTTP_PROXY when both are set, as curl does', async () => {
    proxied = [];
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const res = await runCli(['credits', '--json'], {
      env: { ...sandboxEnv(sb.get()), HTTP_PROXY: dead, http_proxy: proxyUrl },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(proxied).toHaveLength(1);
  });

  it('a socks5:// proxy carries the request, with no experimental-feature notice on stderr', async () => {
    const socks = await socks5Proxy();
    // Node prints every process warning on stderr (the CLI runs in this process here: its warnings are this one's).
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const res = await runCli(['credits', '--json'], { env: { ...sandboxEnv(sb.get()), HTTP_PROXY: socks.url } });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      expect(JSON.parse(res.stdout)).toHaveProperty('credits_available');
      expect(socks.connects).toEqual([new URL(sb.get().url).host]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await socks.close();
    }
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    proxied = [];
    const res = await runCli(['credits', '--json'], {
      env: { ...sandboxEnv(sb.get()), http_proxy: proxyUrl, NO_PROXY: '127.0.0.1' },
    });
    expect(res.code).toBe(0);
    expect(proxied).toEqual([]);
  });

  it('a download goes through the proxy too (its file host included), and arrives whole', async () => {
    const file = Buffer.alloc(300_000, 'x');
    const files = createServer((req, res) => {
      if (req.url === '/b1.csv')
        res.writeHead(200, { 'content-type': 'text/csv', 'content-length': file.length }).end(file);
      else res.writeHead(404).end();
    });
    const api = createServer((req, res) => {
      if (req.url !== '/public/v1/enrichment/batch/b1/download/') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          download_url: `http://127.0.0.1:${(files.address() as AddressInfo).port}/b1.csv`,
          filename: 'b1.csv',
          expires_in: 300,
        }),
      );
    });
    await Promise.all([files, api].map((srv) => new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))));
    const [filesPort, apiPort] = [files, api].map((srv) => (srv.address() as AddressInfo).port);
    try {
      proxied = [];
      const res = await runCli(['batch', 'download', 'b1'], {
        env: {
          CREATORS_BASE_URL: `http://127.0.0.1:${apiPort}`,
          CREATORS_API_KEY: 'sbx_proxy_test',
          HTTP_PROXY: proxyUrl,
        },
      });
      expect(res.code).toBe(0);
      expect(res.stdout.length).toBe(file.length);
      expect(proxied.some((line) => line.includes(`127.0.0.1:${apiPort}`))).toBe(true);
      expect(proxied.some((line) => line.includes(`127.0.0.1:${filesPort}`))).toBe(true);
    } finally {
      for (const srv of [files, api]) {
        srv.closeAllConnections();
        await new Promise((resolve) => srv.close(resolve));
      }
    }
  });

  it('a proxy that cannot be reached is named as the proxy, its credentials never shown', async () => {
    const closed = await closedPort();
    const res = await runCli(['credits', '--retries', '0', '--debug'], {
      env: { ...sandboxEnv(sb.get()), HTTP_PROXY: `http://ann:s3cret@127.0.0.1:${closed}` },
    });
    expect(res.code).toBe(1);
    const lines = res.stderr.split('\n').filter((line) => !line.startsWith('[debug]') && !line.startsWith('    at '));
    expect(lines[0]).toBe(
      `error: Cannot connect to the proxy 127.0.0.1:${closed} (from HTTP_PROXY): connection refused.`,
    );
    expect(lines[1]).toBe('Is HTTP_PROXY right? A host the proxy must not be used for goes in NO_PROXY.');
    expect(res.stderr).not.toMatch(/s3cret|ann:|base URL/);
  });

  it('HTTPS_PROXY for an https API (host:port without a scheme), and the JSON error', async () => {
    const closed = await closedPort();
    // The proxy is refused before anything else happens: api.example.com is never looked up.
    const env = {
      CREATORS_BASE_URL: 'https://api.example.com',
      CREATORS_API_KEY: 'sbx_proxy_test',
      HTTPS_PROXY: `127.0.0.1:${closed}`,
      HTTP_PROXY: 'http://127.0.0.1:1',
    };
    const res = await runCli(['credits', '--retries', '0', '--json'], { env });
    expect(res.code).toBe(1);
    expect(res.errorJson().error).toMatchObject({
      code: 'proxy_unreachable',
      message: `Cannot connect to the proxy 127.0.0.1:${closed} (from HTTPS_PROXY): connection refused.`,
    });
  });

  it('without proxy variables, connects directly', async () => {
    proxied = [];
    const res = await runCli(['credits', '--json'], { env: sandboxEnv(sb.get()) });
    expect(res.code).toBe(0);
    expect(proxied).toEqual([]);
  });
});

describe('proxyFor: which proxy an error names', () => {
  const u = (s: string): URL => new URL(s);
  it('reads the variables as curl does: the lower-case one first when both are set', () => {
    const both = {
      HTTPS_PROXY: 'upper:3128',
      https_proxy: 'lower:3128',
      HTTP_PROXY: 'UP:8080',
      http_proxy: 'low:8080',
    };
    expect(proxyFor(both, u('https://api.example.com'))).toEqual({
      host: 'lower:3128',
      variable: 'https_proxy',
      credentials: false,
    });
    expect(proxyFor(both, u('http://api.example.com'))).toEqual({
      host: 'low:8080',
      variable: 'http_proxy',
      credentials: false,
    });
    expect(
      proxyFor({ HTTP_PROXY: 'p:1', NO_PROXY: '', no_proxy: 'api.example.com' }, u('http://api.example.com')),
    ).toBeUndefined();
  });

  it('NO_PROXY with IP addresses and CIDR ranges (IPv4 and IPv6), as curl reads them', () => {
    const env = (noProxy: string) => ({ HTTP_PROXY: 'p:8080', NO_PROXY: noProxy });
    const via = { host: 'p:8080', variable: 'HTTP_PROXY', credentials: false };
    expect(proxyFor(env('10.0.0.0/8'), u('http://10.20.30.40:9000'))).toBeUndefined();
    expect(proxyFor(env('10.0.0.0/8'), u('http://11.0.0.1'))).toEqual(via);
    expect(proxyFor(env('192.168.1.0/24, example.org'), u('http://192.168.1.77'))).toBeUndefined();
    expect(proxyFor(env('192.168.1.0/24'), u('http://192.168.2.1'))).toEqual(via);
    expect(proxyFor(env('127.0.0.1'), u('http://127.0.0.1:4000'))).toBeUndefined();
    expect(proxyFor(env('fd00::/8'), u('http://[fd12::1]:8080'))).toBeUndefined();
    expect(proxyFor(env('::1'), u('http://[::1]:8080'))).toBeUndefined();
    expect(proxyFor(env('fd00::/8'), u('http://10.0.0.1'))).toEqual(via);
    // A range never matches a host name, and a malformed range matches nothing.
    expect(proxyFor(env('10.0.0.0/8'), u('http://intranet.example'))).toEqual(via);
    expect(proxyFor(env('10.0.0.0/99'), u('http://10.0.0.1'))).toEqual(via);
  });

  it('follows undici: https takes HTTPS_PROXY then HTTP_PROXY, http only HTTP_PROXY; NO_PROXY exempts; no credentials', () => {
    expect(
      proxyFor({ HTTPS_PROXY: 'http://a:b@p1:3128', HTTP_PROXY: 'p2:8080' }, u('https://api.example.com')),
    ).toEqual({ host: 'p1:3128', variable: 'HTTPS_PROXY', credentials: true });
    expect(proxyFor({ http_proxy: 'p2:8080' }, u('https://api.example.com'))).toEqual({
      host: 'p2:8080',
      variable: 'http_proxy',
      credentials: false,
    });
    expect(proxyFor({ HTTPS_PROXY: 'p1:3128' }, u('http://api.example.com'))).toBeUndefined();
    expect(proxyFor({ HTTP_PROXY: 'p2:8080', NO_PROXY: '.example.com' }, u('http://api.example.com'))).toBeUndefined();
    expect(proxyFor({ HTTP_PROXY: 'p2:8080', no_proxy: 'api.example.com:8443' }, u('http://api.example.com'))).toEqual({
      host: 'p2:8080',
      variable: 'HTTP_PROXY',
      credentials: false,
    });
    expect(proxyFor({ HTTP_PROXY: 'p2:8080', NO_PROXY: '*' }, u('http://api.example.com'))).toBeUndefined();
    expect(proxyFor({}, u('http://api.example.com'))).toBeUndefined();
  });
});
