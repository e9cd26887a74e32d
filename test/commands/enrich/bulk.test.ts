import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { csvObjects, tempFile } from './helpers.js';

const found = (handle: string) => ({
  result: { instagram: { username: handle, follower_count: 10 } },
  credits_cost: 0.03,
});

/** Answers by handle: `fail*` -> 500, `bad*` -> 400, `missing*` -> not found, else found. */
function scriptedApi(extra?: (handle: string, n: number) => { status: number; body: unknown } | undefined) {
  const api = mockApi();
  const seen: string[] = [];
  api.pool
    .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
    .reply((opts) => {
      const { handle } = JSON.parse(String(opts.body)) as { handle: string };
      seen.push(handle);
      const special = extra?.(handle, seen.length);
      if (special) return { statusCode: special.status, data: special.body as object, responseOptions: JSON_HEADERS };
      if (handle.startsWith('fail'))
        return { statusCode: 500, data: { detail: 'boom' }, responseOptions: JSON_HEADERS };
      if (handle.startsWith('bad'))
        return { statusCode: 400, data: { error: { handle: ['Not a valid handle.'] } }, responseOptions: JSON_HEADERS };
      if (handle.startsWith('missing'))
        return { statusCode: 200, data: { result: null, credits_cost: 0 }, responseOptions: JSON_HEADERS };
      return { statusCode: 200, data: found(handle), responseOptions: JSON_HEADERS };
    })
    .persist();
  return { ...api, seen };
}

const args = (input: string, ...more: string[]) => [
  'enrich',
  'handle',
  '--platform',
  'instagram',
  '--mode',
  'raw',
  '--input',
  input,
  ...more,
];

describe('bulk enrichment', () => {
  it('a file --input names that cannot be read is refused by that name, before anything is sent (exit 2)', async () => {
    const { dir } = tempFile('in.csv', 'handle\nann\n');
    // No interceptor: a request would fail the run otherwise (MockAgent refuses real connections).
    const { agent, env } = mockApi();
    const res = await runCli(args('nope.csv'), { env, dispatcher: agent, cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe("error: Cannot read --input file 'nope.csv': no such file.\n");
  });

  it('one failed row does not stop the run: exit 3, every row written, failures explained, POST 500 not retried', async () => {
    const { dir, path } = tempFile('in.csv', 'handle\nann\nfail1\nbob\nbad1\nmissing1\ncid\n');
    const api = scriptedApi();
    const res = await runCli([...args(path), '-o', `${dir}/out.csv`], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/2 of 6 rows failed/);
    const rows = csvObjects(readFileSync(`${dir}/out.csv`, 'utf8'));
    expect(rows.map((r) => [r.handle, r.status])).toEqual([
      ['ann', 'ok'],
      ['fail1', 'error'],
      ['bob', 'ok'],
      ['bad1', 'error'],
      ['missing1', 'not_found'],
      ['cid', 'ok'],
    ]);
    expect(rows[1]!.error).toMatch(/boom.*may have been processed/);
    expect(rows[3]!.error).toMatch(/Not a valid handle/);
    expect(api.seen.filter((h) => h === 'fail1')).toHaveLength(1);
  });

  it('a 429 is waited out (shared backoff) and retried; the row succeeds', async () => {
    const { path } = tempFile('in.csv', 'handle\na1\na2\na3\na4\na5\na6\n');
    const api = scriptedApi((_h, n) =>
      n === 2 ? { status: 429, body: { detail: 'Request was throttled.', retry_after: 3 } } : undefined,
    );
    const sleeps: number[] = [];
    const res = await runCli([...args(path), '--format', 'jsonl'], { env: api.env, dispatcher: api.agent, sleeps });
    expect(res.code).toBe(0);
    const out = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((r) => r.input.handle)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    expect(out.every((r) => r.status === 'ok')).toBe(true);
    expect(api.seen).toHaveLength(7);
    expect(sleeps).toContain(3000);
  });

  it('a rejected credential stops the run: exit 4, rows done so far kept in the committed file', async () => {
    const { dir, path } = tempFile('in.csv', `handle\n${Array.from({ length: 20 }, (_, i) => `h${i}`).join('\n')}\n`);
    const api = scriptedApi((_h, n) => (n >= 6 ? { status: 401, body: { detail: 'Invalid token.' } } : undefined));
    const res = await runCli([...args(path), '--concurrency', '1', '-o', `${dir}/out.csv`], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(4);
    const rows = csvObjects(readFileSync(`${dir}/out.csv`, 'utf8'));
    expect(rows.map((r) => r.handle)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4']);
    expect(api.seen.length).toBeLessThan(20);
  });

  it('Ctrl-C stops cleanly: rows done so far in input order in the committed file, exit 130', async () => {
    const { dir, path } = tempFile('in.csv', `handle\n${Array.from({ length: 40 }, (_, i) => `h${i}`).join('\n')}\n`);
    const controller = new AbortController();
    const api = scriptedApi((_h, n) => {
      if (n === 10) controller.abort();
      return undefined;
    });
    const res = await runCli([...args(path), '-o', `${dir}/out.csv`], {
      env: api.env,
      dispatcher: api.agent,
      signal: controller.signal,
    });
    expect(res.code).toBe(130);
    expect(res.stderr).toMatch(/Interrupted: \d+ rows written/);
    const rows = csvObjects(readFileSync(`${dir}/out.csv`, 'utf8'));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.length).toBeLessThan(40);
    const order = rows.map((r) => Number(r.handle!.slice(1)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(rows.every((r) => r.status === 'ok')).toBe(true);
    expect(api.seen.length).toBeLessThan(20);
    expect(readdirSync(dir).sort()).toEqual(['in.csv', 'out.csv']);
  });

  it('shows a progress line with done/failed/credits on a terminal only, then a summary', async () => {
    const { path } = tempFile('in.csv', 'handle\na\nfail\nb\n');
    const api = scriptedApi();
    api.pool
      .intercept({ path: '/public/v1/accounts/credits/', method: 'GET' })
      .reply(200, { credits_available: 99.5, credits_used: 0.5 }, JSON_HEADERS);
    const tty = await runCli([...args(path), '--format', 'csv'], {
      env: api.env,
      dispatcher: api.agent,
      stderrTTY: true,
    });
    expect(tty.code).toBe(3);
    // Rows report in the order they complete (an answered row waits for its resume journal line to reach the disk).
    expect(tty.stderr).toMatch(/\r\x1b\[2Kenrich handle: 1\/3 rows, [01] failed, 0(\.03)? credits, ETA/);
    expect(tty.stderr).toMatch(/3 rows: 2 enriched, 0 not found, 1 failed; 0\.06 credits spent, 99\.5 left\./);
    const piped = await runCli([...args(path), '--format', 'csv'], { env: api.env, dispatcher: api.agent });
    expect(piped.stderr).not.toMatch(/\r|rows:/);
    const quiet = await runCli([...args(path), '--format', 'csv', '--quiet'], {
      env: api.env,
      dispatcher: api.agent,
      stderrTTY: true,
    });
    expect(quiet.stderr).not.toMatch(/\r/);
  });

  it('invalid values in a file fail their row only, without a request', async () => {
    const { path } = tempFile('in.csv', `handle\nok1\n${'x'.repeat(201)}\n`);
    const api = scriptedApi();
    const res = await runCli([...args(path), '--format', 'jsonl'], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(3);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows[1]).toMatchObject({ status: 'error', error: expect.stringMatching(/too long/) });
    expect(api.seen).toEqual(['ok1']);
  });

  it('several arguments print a terminal table; --max-rows stops early', async () => {
    const api = scriptedApi();
    const res = await runCli(
      ['enrich', 'handle', 'ann', 'missing_x', 'bob', '--platform', 'instagram', '--mode', 'raw', '--max-rows', '2'],
      { env: api.env, dispatcher: api.agent, tty: true },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/ann.*ok/);
    expect(res.stdout).toMatch(/missing_x.*not_found/);
    expect(res.stdout).not.toMatch(/bob/);
    expect(res.stderr).toContain('--max-rows 2: 1 of 3 values was not enriched.');
  });

  it('--max-rows on a CSV says that the rest of the input was not read', async () => {
    const api = scriptedApi();
    const res = await runCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        '-',
        '--max-rows',
        '1',
        '--format',
        'csv',
      ],
      {
        env: api.env,
        dispatcher: api.agent,
        stdin: 'handle\nann\nbob\n',
      },
    );
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(2);
    expect(res.stderr).toContain('Stopped after 1 row (--max-rows); the rest of - was not read or enriched.');
  });

  it('on a terminal, the progress line is cleared before the table is drawn', async () => {
    const api = scriptedApi();
    const res = await runCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        '-',
        '--format',
        'table',
        '--no-color',
      ],
      {
        env: api.env,
        dispatcher: api.agent,
        stdin: 'handle\nann\nbob\n',
        stdoutTTY: true,
        stderrTTY: true,
      },
    );
    expect(res.code).toBe(0);
    const beforeTable = res.combined.slice(0, res.combined.indexOf('┌'));
    // The first row always draws the progress line; the last thing before the table is its clearing.
    expect(beforeTable).toContain('enrich handle:');
    expect(beforeTable.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('rows streaming to a terminal get no progress line glued to them', async () => {
    const api = scriptedApi();
    const res = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', '-', '--format', 'csv'],
      {
        env: api.env,
        dispatcher: api.agent,
        stdin: 'handle\nann\nbob\n',
        stdoutTTY: true,
        stderrTTY: true,
      },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain('\r');
  });

  it('says so when it had to guess the column (the first one)', async () => {
    const api = scriptedApi();
    const res = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', '-', '--format', 'csv'],
      {
        env: api.env,
        dispatcher: api.agent,
        stdin: 'name,notes\nann,likes cats\n',
      },
    );
    expect(res.stderr).toContain(
      "warning: No handle column recognised in -: using the first column, 'name'. Name the right one with --column.",
    );
  });
});
