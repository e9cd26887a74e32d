import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/lib/http/client.js';
import { keepAliveGetTransport, nodeTransport, type Transport } from '../../../src/lib/http/transport.js';
import { NetworkError } from '../../../src/lib/errors.js';

/**
 * A host with slow answers: `/trickle` sends 16 x 1 KB, 100 ms apart (~1.6 s in all, past the 1 s timeout; each gap a tenth of it, so a
 * loaded machine's stall does not read as silence), `/big` 8 MB as fast as
 * it is read, `/stall` sends 1 KB then nothing, `/silent` never answers, `/gone` answers 403 with a body,
 * `/json` answers JSON naming the client's port (one port, one connection).
 */
let server: Server;
let base = '';
const held = new Set<ServerResponse>();
const seenHeaders: Record<string, string | string[] | undefined>[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenHeaders.push(req.headers);
    const piece = Buffer.alloc(1024, 'a');
    held.add(res);
    res.on('close', () => held.delete(res));
    if (req.url === '/trickle') {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': 16 * 1024 });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(piece);
        if (++sent === 16) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      res.on('close', () => clearInterval(timer));
    } else if (req.url === '/big') {
      // 8 MB as fast as the reader takes it: more than every buffer on the way holds.
      const block = Buffer.alloc(64 * 1024, 'b');
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': 128 * block.length });
      let sent = 0;
      const pump = (): void => {
        while (sent < 128) {
          sent++;
          if (!res.write(block)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    } else if (req.url === '/stall') {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': 16 * 1024 });
      res.write(piece);
    } else if (req.url === '/gone') {
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
    } else if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ port: req.socket.remotePort }));
    } else if (req.url !== '/silent') {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(
  streamTransport: Transport | undefined,
  dispatcher: Agent | MockAgent,
  getTransport?: Transport,
): HttpClient {
  return new HttpClient({
    baseUrl: new URL('https://api.test'),
    dispatcher,
    streamTransport,
    getTransport,
    timeoutMs: 1_000,
    retries: 0,
    rateLimitPerMinute: 100_000,
    now: Date.now,
    sleep: async () => {},
  });
}

async function drain(body: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of body) n += (chunk as Buffer).length;
  return n;
}

describe.each([
  ['node:http', nodeTransport],
  ['undici', undefined],
])('a streamed GET over %s', (_name, transport) => {
  it('has no cap on a body that keeps coming: only the idle time between pieces is limited', async () => {
    const agent = new Agent();
    const res = await client(transport, agent).request<Readable>({
      method: 'GET',
      path: '',
      absoluteUrl: `${base}/trickle`,
      noAuth: true,
      responseType: 'stream',
      headers: { 'x-probe': 'yes' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(16 * 1024));
    expect(await drain(res.data)).toBe(16 * 1024);
    expect(seenHeaders.at(-1)?.['x-probe']).toBe('yes');
    expect(seenHeaders.at(-1)?.authorization).toBeUndefined();
    await agent.close();
  });

  it('ends a body that stops for longer than the timeout with a timeout error', async () => {
    const agent = new Agent();
    const res = await client(transport, agent).request<Readable>({
      method: 'GET',
      path: '',
      absoluteUrl: `${base}/stall`,
      noAuth: true,
      responseType: 'stream',
    });
    const started = Date.now();
    const err = await drain(res.data).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(`${(err as Error).name} ${(err as { code?: string }).code}`).toMatch(/TimeoutError|UND_ERR_BODY_TIMEOUT/);
    // Cut by the 1 s timeout, not left hanging: the error's name proves the cause; this bound only
    // rules out a far longer wait, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    await agent.close();
  });

  it('does not cut off a reader that stops reading for longer than the timeout (a slow pipe is not a silent server)', async () => {
    const agent = new Agent();
    const res = await client(transport, agent).request<Readable>({
      method: 'GET',
      path: '',
      absoluteUrl: `${base}/big`,
      noAuth: true,
      responseType: 'stream',
    });
    const it = res.data[Symbol.asyncIterator]();
    let n = ((await it.next()).value as Buffer).length;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (let r = await it.next(); !r.done; r = await it.next()) n += (r.value as Buffer).length;
    expect(n).toBe(8 * 1024 * 1024);
    await agent.close();
  });

  it('times out waiting for headers, as a network error naming the timeout', async () => {
    const agent = new Agent();
    const err = await client(transport, agent)
      .request({ method: 'GET', path: '', absoluteUrl: `${base}/silent`, noAuth: true, responseType: 'stream' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe('Request timed out after 1 s (GET /silent).');
    await agent.close();
  });

  it('turns an error status into an error carrying it (an expired link is a 403)', async () => {
    const agent = new Agent();
    const err = await client(transport, agent)
      .request({ method: 'GET', path: '', absoluteUrl: `${base}/gone`, noAuth: true, responseType: 'stream' })
      .catch((e: unknown) => e);
    expect((err as { status?: number }).status).toBe(403);
    await agent.close();
  });
});

describe('the json timeout', () => {
  it('still covers the whole body of a json or text response', async () => {
    const agent = new Agent();
    const err = await client(nodeTransport, agent)
      .request({ method: 'GET', path: '', absoluteUrl: `${base}/trickle`, noAuth: true, responseType: 'text' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/^Request timed out after/);
    await agent.close();
  });
});

describe('GETs without a body over keep-alive node:http (the reads of a run without a proxy)', () => {
  it('reuses one connection for the reads of a run', async () => {
    const agent = new Agent();
    const http = client(undefined, agent, keepAliveGetTransport());
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await http.request<{ port: number }>({
        method: 'GET',
        path: '',
        absoluteUrl: `${base}/json`,
        noAuth: true,
      });
      ports.push(res.data.port);
    }
    expect(new Set(ports).size).toBe(1);
    await agent.close();
  });

  it('never touches the dispatcher for a GET, which carries every other request (a POST may spend)', async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock.get('https://api.test').intercept({ path: '/public/v1/spend/', method: 'POST' }).reply(200, { spent: true });
    const http = client(undefined, mock, keepAliveGetTransport());
    const read = await http.request<{ port: number }>({
      method: 'GET',
      path: '',
      absoluteUrl: `${base}/json`,
      noAuth: true,
    });
    expect(typeof read.data.port).toBe('number');
    const spent = await http.request<{ spent: boolean }>({ method: 'POST', path: 'spend', noAuth: true, body: {} });
    expect(spent.data).toEqual({ spent: true });
    mock.assertNoPendingInterceptors();
    await mock.close();
  });

  it('keeps the json timeout over the whole body, and the size cap', async () => {
    const agent = new Agent();
    const slow = await client(undefined, agent, keepAliveGetTransport())
      .request({ method: 'GET', path: '', absoluteUrl: `${base}/trickle`, noAuth: true, responseType: 'text' })
      .catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(NetworkError);
    expect((slow as Error).message).toMatch(/^Request timed out after/);
    const capped = await new HttpClient({
      baseUrl: new URL('https://api.test'),
      dispatcher: agent,
      getTransport: keepAliveGetTransport(),
      maxResponseBytes: 1024 * 1024,
      timeoutMs: 5_000,
      retries: 0,
      rateLimitPerMinute: 100_000,
      now: Date.now,
      sleep: async () => {},
    })
      .request({ method: 'GET', path: '', absoluteUrl: `${base}/big`, noAuth: true, responseType: 'text' })
      .catch((e: unknown) => e);
    expect((capped as { code?: string }).code).toBe('response_too_large');
    await agent.close();
  });
});
