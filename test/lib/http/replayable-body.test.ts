import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBatch } from '../../../src/lib/api/batch.js';
import { multipartBody } from '../../../src/lib/batch/multipart.js';
import { NetworkError } from '../../../src/lib/errors.js';
import { HttpClient } from '../../../src/lib/http/client.js';
import { tempDir } from '../../helpers/temp.js';

/** A local API whose answers the test scripts, recording each request's whole body. */
let server: Server;
let agent: Agent;
let dir: string;
let bodies: string[];
let answer: (n: number, res: ServerResponse) => void;

beforeEach(async () => {
  dir = tempDir('creators-upload-retry-');
  bodies = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      answer(bodies.length, res);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  agent = new Agent();
});

afterEach(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

function client(sleeps: number[]): HttpClient {
  const { port } = server.address() as AddressInfo;
  return new HttpClient({
    baseUrl: new URL(`http://127.0.0.1:${port}`),
    credential: async () => 'sk_test_123',
    dispatcher: agent,
    timeoutMs: 5000,
    retries: 3,
    rateLimitPerMinute: 100_000,
    now: () => Date.now(),
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0,
  });
}

async function body() {
  const file = join(dir, 'part.csv');
  writeFileSync(file, `handle\n${Array.from({ length: 2000 }, (_, i) => `user_${i}`).join('\n')}\n`);
  return multipartBody([['enrichment_mode', 'raw']], {
    field: 'file',
    filename: 'batch.csv',
    contentType: 'text/csv',
    path: file,
  });
}

const json = (res: ServerResponse, status: number, data: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(data));
};

describe('a streamed upload body (createBatch)', () => {
  it('is sent again, whole and from a fresh stream, after the server refused it unstarted (503)', async () => {
    answer = (n, res) =>
      n === 1
        ? json(res, 503, { detail: 'Service unavailable.' })
        : json(res, 201, { batch_id: 'bch_1', status: 'queued' });
    const sleeps: number[] = [];
    const multipart = await body();
    const created = await createBatch(client(sleeps), multipart);
    expect(created).toMatchObject({ batch_id: 'bch_1', status: 'queued' });
    expect(bodies).toHaveLength(2);
    expect(Buffer.byteLength(bodies[0] as string)).toBe(multipart.length);
    expect(bodies[1]).toBe(bodies[0]);
    expect(bodies[1]).toContain('user_1999');
    expect(sleeps).toEqual([250]); // the core's back-off (random 0: half of 500 ms)
  });

  it('is not sent again after a timeout once sent (the job may exist), and says so', async () => {
    answer = () => {}; // takes the whole upload and never answers
    const sleeps: number[] = [];
    const err = await createBatch(client(sleeps), await body(), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toMatch(
      /^Request timed out after 0\.3 s \(POST \/public\/v1\/enrichment\/batch\/\)\.$/,
    );
    expect((err as NetworkError).maybeCharged).toBe(true);
    expect(bodies).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});
