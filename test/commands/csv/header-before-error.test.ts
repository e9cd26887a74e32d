import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { tempDir } from '../../helpers/temp.js';

const DISCOVERY = '/public/v1/discovery/';
const HTML = { headers: { 'content-type': 'text/html' } };

/**
 * stdout is not a file that can be taken back: a csv/tsv header written before the first request fails
 * would read as an empty answer. The header waits for the first row, or the end of a successful list.
 */
describe('no csv/tsv header on stdout before an error', () => {
  it.each([
    ['csv', []],
    ['csv', ['--fields', 'user_id,profile.username']],
    ['tsv', ['--fields', 'user_id']],
    ['tsv', ['--all', '--fields', 'user_id']],
  ])('search --format %s %j whose first page fails: stdout empty, exit 1', async (format, extra) => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: DISCOVERY, method: 'POST' }).reply(500, '<html><title>Bad gateway</title></html>', HTML);
    const res = await runCli(['search', '--platform', 'instagram', '--format', format, ...extra], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^error: Server error \(HTTP 500\): Bad gateway/);
  });

  it('similar --fields whose request fails: stdout empty', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: (p: string) => p.startsWith('/public/v1/discovery/'), method: 'POST' })
      .reply(500, '<html><title>Bad gateway</title></html>', HTML);
    const res = await runCli(
      ['similar', 'somebody', '--platform', 'instagram', '--format', 'csv', '--fields', 'user_id'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
  });

  it('an empty successful list still gets its header (scripts parse it)', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: DISCOVERY, method: 'POST' }).reply(200, { total: 0, accounts: [] }, JSON_HEADERS);
    const res = await runCli(
      ['search', '--platform', 'instagram', '--format', 'csv', '--fields', 'user_id,profile.username'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('user_id,profile.username\n');
  });

  it('the header comes with the first row', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: DISCOVERY, method: 'POST' })
      .reply(200, { total: 1, accounts: [{ user_id: '7', profile: { username: 'ann' } }] }, JSON_HEADERS);
    const res = await runCli(
      ['search', '--platform', 'instagram', '--format', 'csv', '--fields', 'user_id,profile.username'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('user_id,profile.username\n7,ann\n');
  });

  it('bulk enrichment stopped before its first row (402): no header on stdout, no file with -o, the stop report', async () => {
    for (const output of [undefined, join(tempDir(), 'out.csv')]) {
      const { agent, pool, env } = mockApi();
      pool
        .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
        .reply(402, { detail: 'Not enough credits.' }, JSON_HEADERS)
        .persist();
      const argv = [
        'enrich',
        'handle',
        'a',
        'b',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--format',
        'csv',
        '--yes',
        ...(output ? ['-o', output] : []),
      ];
      const res = await runCli(argv, { env, dispatcher: agent });
      expect(res.code).toBe(5);
      expect(res.stdout).toBe('');
      if (output) expect(existsSync(output)).toBe(false);
      expect(res.stderr).toMatch(/^Spent 0 credits in this run; no rows written/m);
    }
  });
});
