/**
 * A 2xx that is not the JSON the endpoint returns (a captive portal's or a misconfigured proxy's HTML
 * page) is an error, `malformed_response`, exit 1; flagged "may have been charged" for a billable POST.
 * Before, these commands took the page as data and exited 0.
 */
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempFile } from '../../helpers/temp.js';

const PORTAL = '<!doctype html><html><head><title>Sign in to the hotel Wi-Fi</title></head><body>Welcome</body></html>';
const HTML = { headers: { 'content-type': 'text/html; charset=utf-8' } };

describe('a 2xx answer that is not JSON', () => {
  it('keys create: exit 1, malformed_response, may have been charged, no data printed', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/accounts/tokens/', method: 'POST' }).reply(200, PORTAL, HTML);
    const res = await runCli(['keys', 'create', '--name', 'ci', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.errorJson().error).toMatchObject({ code: 'malformed_response', status: 200, maybe_charged: true });
    expect(res.errorJson().error.message).toBe(
      `The server sent a text/html page instead of JSON (HTTP 200, ${Buffer.byteLength(PORTAL)} bytes).`,
    );
  });

  it('credits (a GET): retried, then exit 1 with a hint about proxies', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/accounts/credits/', method: 'GET' }).reply(200, PORTAL, HTML).times(2);
    const res = await runCli(['credits', '--retries', '1'], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /^error: The server sent a text\/html page instead of JSON \(HTTP 200, \d+ bytes\)\.\nA proxy or captive portal may be answering instead of the API: check the network and --base-url\.\n$/,
    );
  });

  it('auth status does not say the live check is ok', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/accounts/credits/', method: 'GET' }).reply(200, PORTAL, HTML);
    const res = await runCli(['auth', 'status', '--json', '--retries', '0'], { env, dispatcher: agent });
    expect(res.code).toBe(1);
    const status = res.json<{ authenticated: boolean; live_check: string }>();
    expect(status.authenticated).toBe(false);
    expect(status.live_check).toMatch(/^failed: The server sent a text\/html page instead of JSON/);
  });

  it('enrich handle: the row is not reported as not found (not charged)', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' }).reply(200, PORTAL, HTML);
    const res = await runCli(['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--mode', 'raw', '--json'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).not.toBe(0);
    expect(res.combined).not.toContain('not charged');
    expect(res.combined).toContain('instead of JSON');
  });

  it('batch upload: no empty batch id, exit 1', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/enrichment/batch/', method: 'POST' }).reply(200, PORTAL, HTML);
    const { path } = tempFile('handles.csv', 'handle\nnoah_paws\n');
    const res = await runCli(['batch', 'upload', path, '--mode', 'raw', '--platform', 'instagram'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('instead of JSON');
  });

  it('creators api still prints a text answer as it is (it asks for JSON or text)', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/some/export/', method: 'GET' })
      .reply(200, 'a,b\n1,2\n', { headers: { 'content-type': 'text/csv' } });
    const res = await runCli(['api', 'some/export'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('a,b\n1,2\n');
  });
});
