/**
 * A hostile server cannot make the CLI hold an unbounded body nor keep it waiting attempt after attempt:
 * JSON bodies are capped (CREATORS_MAX_RESPONSE_MB) and all attempts of one request share one deadline
 * (twice --timeout). Streamed downloads stay uncapped.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/lib/http/client.js';
import { runCli } from '../helpers/run-cli.js';
import { until } from '../helpers/until.js';

const MB = 1024 * 1024;

let server: Server;
let base = '';
const open = new Set<ServerResponse>();
/** Per path: requests seen, and bytes the server managed to hand to the socket before it closed. */
const seen = new Map<string, { requests: number; sent: number[] }>();

function stats(path: string): { requests: number; sent: number[] } {
  let s = seen.get(path);
  if (!s) seen.set(path, (s = { requests: 0, sent: [] }));
  return s;
}

/** Writes `total` bytes of one JSON array as fast as the reader takes them (never all held in memory here). */
function pumpJson(res: ServerResponse, total: number, record: (sent: number) => void): void {
  const block = Buffer.from(`${'{"id":12345678,"name":"aaaaaaaaaaaaaaaaaaaaaaaaaaaa"},'.repeat(1024)}`);
  let sent = 0;
  res.write('[');
  const pump = (): void => {
    while (sent + block.length < total) {
      sent += block.length;
      if (!res.write(block)) return void res.once('drain', pump);
    }
    res.end('{"id":1}]');
  };
  res.on('close', () => record(sent));
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const path = (req.url ?? '').split('?')[0] as string;
    const s = stats(path);
    s.requests++;
    req.resume();
    if (path.startsWith('/public/v1/huge')) {
      // 70 MB of JSON, chunked: no content-length announces it.
      res.writeHead(200, { 'content-type': 'application/json' });
      pumpJson(res, 70 * MB, (n) => s.sent.push(n));
    } else if (path.startsWith('/public/v1/creators/enrich/handle/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      pumpJson(res, 70 * MB, (n) => s.sent.push(n));
    } else if (path.startsWith('/public/v1/announced')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 70 * MB });
      res.write('[');
      res.on('close', () => s.sent.push(1));
    } else if (path.startsWith('/public/v1/endless')) {
      // A JSON body that never ends, a little at a time.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const timer = setInterval(() => res.write('1,'), 50);
      res.on('close', () => clearInterval(timer));
    } else if (path === '/download') {
      pumpJson(res, 3 * MB, (n) => s.sent.push(n));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  CREATORS_BASE_URL: base,
  CREATORS_API_KEY: 'sk_test_limits',
  ...extra,
});

async function closed(path: string, count = 1): Promise<number[]> {
  await until(`${count} closed replies on ${path}`, () => stats(path).sent.length >= count);
  return stats(path).sent;
}

describe('the JSON response cap', () => {
  it('stops reading a 70 MB body past a 2 MB cap: one clear error, exit 1, not retried, the rest never read', async () => {
    const r = await runCli(['api', '/huge', '--json'], { env: env({ CREATORS_MAX_RESPONSE_MB: '2' }) });
    expect(r.code).toBe(1);
    const { error } = r.errorJson() as {
      error: { code: string; message: string; hint?: string; maybe_charged?: boolean };
    };
    expect(error.code).toBe('response_too_large');
    expect(error.message).toBe("The server's response (HTTP 200) is larger than 2 MB; it was not read further.");
    expect(error.hint).toContain('CREATORS_MAX_RESPONSE_MB');
    expect(stats('/public/v1/huge/').requests).toBe(1);
    // Bounded memory: the connection was closed long before the server could push the 70 MB.
    const [sent] = await closed('/public/v1/huge/');
    expect(sent).toBeLessThan(20 * MB);
  });

  it('refuses a body whose content-length is over the cap before reading it', async () => {
    const r = await runCli(['api', '/announced'], { env: env({ CREATORS_MAX_RESPONSE_MB: '1' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("The server's response (HTTP 200) is larger than 1 MB; it was not read further.");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('flags a billable POST whose answer was too large as maybe charged', async () => {
    const r = await runCli(['enrich', 'handle', 'someone', '--platform', 'instagram', '--json'], {
      env: env({ CREATORS_MAX_RESPONSE_MB: '1' }),
    });
    expect(r.code).toBe(1);
    const { error } = r.errorJson() as { error: { code: string; maybe_charged?: boolean } };
    expect(error.code).toBe('response_too_large');
    expect(error.maybe_charged).toBe(true);
    expect(stats('/public/v1/creators/enrich/handle/full/').requests).toBe(1);
  });

  it('refuses a cap that is not a positive number as a usage error', async () => {
    const r = await runCli(['api', '/huge'], { env: env({ CREATORS_MAX_RESPONSE_MB: 'lots' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Invalid CREATORS_MAX_RESPONSE_MB 'lots'");
  });

  it('does not apply to a streamed body (a download)', async () => {
    const agent = new Agent();
    const client = new HttpClient({
      baseUrl: new URL(base),
      dispatcher: agent,
      timeoutMs: 5_000,
      retries: 0,
      maxResponseBytes: 1 * MB,
      rateLimitPerMinute: 100_000,
      now: Date.now,
      sleep: async () => {},
    });
    const res = await client.request<Readable>({
      method: 'GET',
      path: '',
      absoluteUrl: `${base}/download`,
      noAuth: true,
      responseType: 'stream',
    });
    let n = 0;
    for await (const chunk of res.data) n += (chunk as Buffer).length;
    expect(n).toBeGreaterThan(2 * MB);
    await agent.close();
  });
});

describe('the deadline of one request', () => {
  it('gives up on an endless JSON body after twice --timeout in all, not --timeout per attempt of the retry budget', async () => {
    // Real clock, instant back-off sleeps: only the time spent in attempts counts.
    const r = await runCli(['api', '/endless', '--timeout', '0.4', '--retries', '6', '--json'], {
      env: env(),
      now: Date.now,
    });
    expect(r.code).toBe(1);
    const { error } = r.errorJson();
    expect(error.message).toMatch(
      /timed out after 0\.4 s.*gave up after \d attempts: all attempts of one request get 0\.8 s, twice --timeout/,
    );
    // Without the deadline all 7 attempts of the budget are made.
    expect(stats('/public/v1/endless/').requests).toBeLessThanOrEqual(3);
  });
});
