import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * Results a storage host serves with a Content-Encoding (an object stored gzipped is served so,
 * whatever the request asked) are written decoded; a link the service gives relative to itself is
 * followed; whatever ends a download, no temporary file or descriptor is left behind.
 */
const CSV = 'input_value,status,enrichment_data\nalice,ok,"{""a"":1}"\nbob,not_found,\n';
const LINK = '/public/v1/enrichment/batch/bch_1/download/';

function served(body: Buffer, encoding: string) {
  return {
    headers: {
      'content-type': 'text/csv',
      'content-encoding': encoding,
      'content-length': String(body.length),
      'accept-ranges': 'bytes',
    },
  };
}

describe('creators batch download: encoded and oddly linked results', () => {
  for (const [encoding, encode] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    it(`results served with Content-Encoding: ${encoding} are written decoded`, async () => {
      const { agent, pool, env } = mockApi();
      pool
        .intercept({ path: LINK, method: 'GET' })
        .reply(200, { download_url: 'https://api.test/files/r.csv' }, JSON_HEADERS);
      const body = encode(Buffer.from(CSV));
      pool.intercept({ path: '/files/r.csv', method: 'GET' }).reply(200, body, served(body, encoding));
      const dir = tempDir();
      const res = await runCli(['batch', 'download', 'bch_1', '-o', join(dir, 'out.csv')], { env, dispatcher: agent });
      expect(res.stderr).toContain(`Wrote ${CSV.length} bytes`);
      expect(res.code).toBe(0);
      expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(CSV);
    });
  }

  it('a corrupt gzip stream is a failed download (exit 1), no file left', async () => {
    const { agent, pool, env } = mockApi({ recorder: true });
    pool
      .intercept({ path: LINK, method: 'GET' })
      .reply(200, { download_url: 'https://api.test/files/r.csv' }, JSON_HEADERS)
      .persist();
    const body = Buffer.from('this is not gzip at all');
    pool.intercept({ path: '/files/r.csv', method: 'GET' }).reply(200, body, served(body, 'gzip')).persist();
    const dir = tempDir();
    const res = await runCli(['batch', 'download', 'bch_1', '-o', join(dir, 'out.csv')], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Download of batch bch_1 failed/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an encoding zlib cannot decode is refused in one line (malformed_response), no file left', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: LINK, method: 'GET' })
      .reply(200, { download_url: 'https://api.test/files/r.csv' }, JSON_HEADERS);
    pool
      .intercept({ path: '/files/r.csv', method: 'GET' })
      .reply(200, 'xx', { headers: { 'content-encoding': 'compress' } });
    const dir = tempDir();
    const res = await runCli(['batch', 'download', 'bch_1', '-o', join(dir, 'out.csv')], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("Content-Encoding 'compress'");
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a compressed JSON answer is capped on its decoded size (no bomb): response_too_large, not read whole', async () => {
    const { agent, pool, env } = mockApi();
    // 8 MB of JSON in ~8 KB of gzip; the cap is 1 MB.
    const big = gzipSync(Buffer.from(`{"credits_available":1,"pad":"${'x'.repeat(8 * 1024 * 1024)}"}`));
    expect(big.length).toBeLessThan(64 * 1024);
    pool
      .intercept({ path: '/public/v1/accounts/credits/', method: 'GET' })
      .reply(200, big, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    const res = await runCli(['credits', '--json'], {
      env: { ...env, CREATORS_MAX_RESPONSE_MB: '1' },
      dispatcher: agent,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/larger than 1 MB/);
  });

  it('a compressed JSON answer within the cap is read decoded', async () => {
    const { agent, pool, env } = mockApi();
    const body = gzipSync(Buffer.from('{"credits_available":12.5,"credits_used":3}'));
    pool
      .intercept({ path: '/public/v1/accounts/credits/', method: 'GET' })
      .reply(200, body, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    const res = await runCli(['credits', '--json'], { env, dispatcher: agent });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.stringify(res.json())).toContain('12.5');
  });

  it('a relative download_url is taken from the route URL, with no Authorization header', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: LINK, method: 'GET' }).reply(200, { download_url: '/files/r.csv?sig=abc' }, JSON_HEADERS);
    let auth: unknown = 'unset';
    pool.intercept({ path: '/files/r.csv?sig=abc', method: 'GET' }).reply((opts) => {
      auth = (opts.headers as Record<string, string>).authorization;
      return { statusCode: 200, data: CSV, responseOptions: { headers: { 'content-type': 'text/csv' } } };
    });
    const dir = tempDir();
    const res = await runCli(['batch', 'download', 'bch_1', '-o', join(dir, 'out.csv')], { env, dispatcher: agent });
    expect(res.stderr).not.toMatch(/Invalid URL|Unexpected error/);
    expect(res.code).toBe(0);
    expect(auth).toBeUndefined();
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(CSV);
  });

  it('a download_url that is no http(s) URL is malformed_response in one line; no temporary file left open', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: LINK, method: 'GET' })
      .reply(200, { download_url: 'ftp://files.example/r.csv' }, JSON_HEADERS);
    const dir = tempDir();
    const res = await runCli(['batch', 'download', 'bch_1', '-o', join(dir, 'out.csv')], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('not an http(s) URL');
    expect(readdirSync(dir)).toEqual([]);
  });
});
