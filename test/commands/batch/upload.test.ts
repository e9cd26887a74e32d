import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchWorld } from '../../../src/sandbox/batch/jobs.js';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { mockApi } from '../../helpers/mock-api.js';
import { tempDir, writeCsv } from './helpers.js';

const sb = useSandbox({ credits: 100_000 });
const jobs = () => batchWorld(sb.get().state).jobs;
const job = (id: string) => {
  const j = jobs().get(id);
  if (!j) throw new Error(`no job ${id}`);
  return j;
};

describe('creators batch upload', () => {
  it('piped: prints only the id; keeps one column, drops blanks and duplicates and says so', async () => {
    const dir = tempDir();
    const file = writeCsv(dir, 'in.csv', [
      'name,Handle,notes',
      'A,@alpha,x',
      'B,,y',
      'C,beta,"z, z"',
      'D,Alpha,w',
      'E,gamma,v',
    ]);
    const res = await runCli(['batch', 'upload', file, '--mode', 'raw', '--platform', 'Instagram'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^bch_[0-9a-f]{32}\n$/);
    expect(res.stderr).toContain("Read 3 unique handles from column 'Handle'");
    expect(res.stderr).toContain('1 duplicate skipped, 1 blank removed');
    const j = job(res.stdout.trim());
    expect(j.values).toEqual(['@alpha', 'beta', 'gamma']);
    expect(j.ctx).toMatchObject({ mode: 'raw', platform: 'instagram', kind: 'handle' });
    expect(j.includeLookalikes).toBeNull();
  });

  it('on a terminal: a sentence per batch; full mode sends the booleans and metadata as strings', async () => {
    const dir = tempDir();
    const file = writeCsv(dir, 'in.csv', ['username', 'one', 'two']);
    const res = await runCli(
      [
        'batch',
        'upload',
        file,
        '--mode',
        'full',
        '--platform',
        'tiktok',
        '--audience',
        '--email-required',
        'must_have',
        '--metadata',
        'campaign=Q4 Outreach',
        '--metadata',
        'run.n=3',
      ],
      { env: sandboxEnv(sb.get()), tty: true },
    );
    expect(res.code).toBe(0);
    const id = /Batch (bch_\w+) created: 2 rows, status validating\./.exec(res.stdout)?.[1];
    expect(id).toBeDefined();
    expect(res.stderr).toContain(`creators batch poll ${id}`);
    const j = job(id as string);
    expect(j).toMatchObject({
      includeAudienceData: true,
      includeLookalikes: false,
      emailRequired: 'must_have',
      metadata: { campaign: 'Q4 Outreach', run: { n: 3 } },
    });
  });

  it('detects an email column by content and prints the create response with --json', async () => {
    const dir = tempDir();
    const file = writeCsv(dir, 'in.csv', ['who,contact', 'Ann,ann@example.com', 'Bob,bob@example.org']);
    const res = await runCli(['batch', 'upload', file, '--mode', 'basic', '--json'], { env: sandboxEnv(sb.get()) });
    expect(res.code).toBe(0);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ status: 'validating', enrichment_mode: 'basic', total_rows: 2 });
    expect(job(body.batch_id as string).values).toEqual(['ann@example.com', 'bob@example.org']);
  });

  it('reads standard input and takes --column', async () => {
    const res = await runCli(['batch', 'upload', '-', '--mode', 'advanced', '--column', 'work'], {
      env: sandboxEnv(sb.get()),
      stdin: 'home,work\nx@a.io,y@b.io\n',
    });
    expect(res.code).toBe(0);
    expect(job(res.stdout.trim()).values).toEqual(['y@b.io']);
  });

  it('splits a file over 10 MB into several batches, printing each id', async () => {
    const dir = tempDir();
    const path = join(dir, 'big.csv');
    const pad = 'x'.repeat(80);
    const lines = ['handle'];
    for (let i = 0; lines.length * 100 < 11_000_000; i++)
      lines.push(`https://www.instagram.com/${pad}${String(i).padStart(8, '0')}/`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    expect(statSync(path).size).toBeGreaterThan(11_000_000);
    const before = jobs().size;
    const res = await runCli(['batch', 'upload', path, '--mode', 'raw', '--platform', 'instagram'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.stderr).toContain('split into 2 batches');
    expect(res.code).toBe(0);
    const ids = res.stdout.trim().split('\n');
    expect(ids).toHaveLength(2);
    expect(jobs().size).toBe(before + 2);
    const rows = ids.map((id) => job(id).values.length);
    expect(rows[0]! + rows[1]!).toBe(lines.length - 1);
    expect(job(ids[1]!).values.at(-1)).toBe(lines.at(-1));
    expect(readdirSync(dir)).toEqual(['big.csv']);
  });

  it.each([
    [
      '--json',
      'up.json',
      (text: string, id: string) =>
        expect(JSON.parse(text)).toMatchObject({ batch_id: id, status: 'validating', total_rows: 2 }),
    ],
    [
      '',
      'up.json',
      (text: string, id: string) => expect(JSON.parse(text)).toMatchObject({ batch_id: id, status: 'validating' }),
    ],
    [
      '--format jsonl',
      'up.jsonl',
      (text: string, id: string) =>
        expect(
          text
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l)),
        ).toEqual([expect.objectContaining({ batch_id: id })]),
    ],
    ['', 'ids.csv', (text: string, id: string) => expect(text).toBe(`${id}\n`)],
    ['', 'ids.txt', (text: string, id: string) => expect(text).toBe(`${id}\n`)],
  ])(
    '%s -o %s: every byte goes to the file, nothing to stdout (piped and on a terminal)',
    async (flag, name, check) => {
      for (const tty of [false, true]) {
        const dir = tempDir();
        const file = writeCsv(dir, 'in.csv', ['handle', `o_${name}_${tty}_1`, `o_${name}_${tty}_2`]);
        const out = join(dir, name);
        const before = new Set(jobs().keys());
        const res = await runCli(
          [
            'batch',
            'upload',
            file,
            '--mode',
            'raw',
            '--platform',
            'instagram',
            ...(flag ? flag.split(' ') : []),
            '-o',
            out,
          ],
          { env: sandboxEnv(sb.get()), tty },
        );
        expect(res.code).toBe(0);
        expect(res.stdout).toBe('');
        const id = [...jobs().keys()].find((k) => !before.has(k)) as string;
        expect(id).toMatch(/^bch_/);
        check(readFileSync(out, 'utf8'), id);
        expect(readdirSync(dir).sort()).toEqual(['in.csv', name].sort());
      }
    },
  );

  it('jsonl to stdout: one create response per line', async () => {
    const file = writeCsv(tempDir(), 'in.csv', ['handle', 'jl_1']);
    const res = await runCli(
      ['batch', 'upload', file, '--mode', 'raw', '--platform', 'instagram', '--format', 'jsonl'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(job(JSON.parse(lines[0]!).batch_id).values).toEqual(['jl_1']);
  });

  it('a failure after the first of several parts keeps the ids of the jobs already created in the -o file', async () => {
    const dir = tempDir();
    const path = join(dir, 'big.csv');
    const pad = 'y'.repeat(80);
    const lines = ['handle'];
    for (let i = 0; lines.length * 100 < 11_000_000; i++)
      lines.push(`https://www.instagram.com/${pad}${String(i).padStart(8, '0')}/`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    const { agent, pool, env } = mockApi();
    const first = 'bch_0123456789abcdef0123456789abcdef';
    pool
      .intercept({ path: '/public/v1/enrichment/batch/', method: 'POST' })
      .reply(200, { batch_id: first, status: 'processing' }, { headers: { 'content-type': 'application/json' } });
    pool
      .intercept({ path: '/public/v1/enrichment/batch/', method: 'POST' })
      .reply(400, { detail: 'File rejected.' }, { headers: { 'content-type': 'application/json' } });
    const out = join(dir, 'ids.txt');
    const res = await runCli(['batch', 'upload', path, '--mode', 'raw', '--platform', 'instagram', '-o', out], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('File rejected');
    expect(res.stderr).toContain(`the upload stopped after 1 of 2 batches; ${out} holds the ids of those created.`);
    expect(readFileSync(out, 'utf8')).toBe(`${first}\n`);
  });

  it('--dry-run -o writes the plan to the file and sends nothing', async () => {
    const dir = tempDir();
    const file = writeCsv(dir, 'in.csv', ['handle', 'a', 'b']);
    const { agent, env } = mockApi();
    const out = join(dir, 'plan.json');
    const res = await runCli(
      ['batch', 'upload', file, '--mode', 'raw', '--platform', 'instagram', '--dry-run', '-o', out],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      dry_run: true,
      method: 'POST',
      worst_case_credits: 0.06,
      cost_basis: '2 rows x 0.03 (raw), charged only for rows with data',
    });
  });

  it('--dry-run prints the plan and worst case (rows x mode price) and sends nothing', async () => {
    const dir = tempDir();
    const file = writeCsv(dir, 'in.csv', ['handle', 'a', 'b', 'c']);
    const { agent, env } = mockApi();
    const res = await runCli(
      ['batch', 'upload', file, '--mode', 'full', '--platform', 'instagram', '--dry-run', '--json'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    const plan = res.json<Record<string, any>>();
    expect(plan).toMatchObject({
      dry_run: true,
      method: 'POST',
      url: 'https://api.test/public/v1/enrichment/batch/',
      worst_case_credits: 3,
    });
    expect(plan.body).toMatchObject({
      enrichment_mode: 'full',
      platform: 'instagram',
      include_lookalikes: 'false',
      include_audience_data: 'false',
    });
  });

  it('--max-credits below the worst case refuses with exit 5 and sends nothing', async () => {
    const dir = tempDir();
    const file = writeCsv(dir, 'in.csv', ['email', 'a@b.io', 'c@d.io']);
    const { agent, env } = mockApi();
    const res = await runCli(['batch', 'upload', file, '--mode', 'advanced', '--max-credits', '3'], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('Worst-case cost 4 credits exceeds --max-credits 3');
  });

  it.each([
    [['--mode', 'basic', '--min-followers', '1000'], /--min-followers is not accepted by batch enrichment/],
    [['--mode', 'basic', '--exclude-platforms', 'tiktok'], /--exclude-platforms is not accepted/],
    [[], /--mode is required/],
    [['--mode', 'turbo'], /Unknown --mode 'turbo'/],
    [['--mode', 'raw'], /--platform is required for --mode raw/],
    [['--mode', 'raw', '--platform', 'myspace'], /Unknown platform 'myspace'/],
    [['--mode', 'raw', '--platform', 'youtube', '--audience'], /apply to --mode full only/],
    [['--mode', 'basic', '--platform', 'youtube'], /--platform apply to handle modes/],
    [['--mode', 'raw', '--platform', 'youtube', '--email-required', 'maybe'], /Invalid --email-required/],
    [['--mode', 'raw', '--platform', 'youtube', '--column', 'nope'], /Column 'nope' is not in the input/],
    [['--mode', 'raw', '--platform', 'youtube', '--metadata', 'novalue'], /Malformed --metadata/],
  ])('refuses %j with exit 2 before sending anything', async (flags, message) => {
    const dir = tempDir();
    const file = writeCsv(dir, 'in.csv', ['handle', 'a']);
    const { agent, env } = mockApi();
    const res = await runCli(['batch', 'upload', file, ...flags], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it('refuses a missing, empty or blank-only input with exit 2', async () => {
    const dir = tempDir();
    const { agent, env } = mockApi();
    const missing = await runCli(['batch', 'upload', join(dir, 'nope.csv'), '--mode', 'basic'], {
      env,
      dispatcher: agent,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const empty = await runCli(['batch', 'upload', writeCsv(dir, 'e.csv', []), '--mode', 'basic'], {
      env,
      dispatcher: agent,
    });
    expect(empty.code).toBe(2);
    const blank = await runCli(['batch', 'upload', writeCsv(dir, 'b.csv', ['email', ' ', '']), '--mode', 'basic'], {
      env,
      dispatcher: agent,
    });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain("No emails in column 'email'");
  });

  it('refuses invalid UTF-8, an unclosed quote and a stray quote with exit 2 naming where, sending nothing (the rules of enrich --input)', async () => {
    const dir = tempDir();
    const { agent, env } = mockApi();
    const latin1 = join(dir, 'latin1.csv');
    writeFileSync(latin1, Buffer.concat([Buffer.from('handle\nok\nJos'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const bad = await runCli(['batch', 'upload', latin1, '--mode', 'raw', '--platform', 'instagram'], {
      env,
      dispatcher: agent,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`'${latin1}' is not valid UTF-8 (line 3, byte 13).`);
    const open = writeCsv(dir, 'open.csv', ['handle', 'ann', '"bob', 'cy']);
    const unclosed = await runCli(['batch', 'upload', open, '--mode', 'raw', '--platform', 'instagram', '--json'], {
      env,
      dispatcher: agent,
    });
    expect(unclosed.code).toBe(2);
    expect(unclosed.errorJson().error.code).toBe('bad_csv');
    expect(unclosed.errorJson().error.message).toContain(
      'is not valid CSV: a quote is never closed (the input ends on line 4)',
    );
    // MockAgent has no interceptors: any request would have failed these runs with a network error.
    // A quote inside an unquoted value is refused, as enrich --input refuses it (it used to be uploaded, billed).
    const stray = writeCsv(dir, 'stray.csv', ['handle', 'o"neil', 'ann']);
    const refused = await runCli(['batch', 'upload', stray, '--mode', 'raw', '--platform', 'instagram'], {
      env,
      dispatcher: agent,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2, field 1: a quote inside an unquoted value');
  });

  it('retries an upload the server refused unstarted (429) with a fresh stream', async () => {
    const dir = tempDir();
    const file = writeCsv(dir, 'in.csv', ['handle', 'a']);
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/enrichment/batch/', method: 'POST' })
      .reply(
        429,
        { detail: 'Request was throttled.', retry_after: 2 },
        { headers: { 'content-type': 'application/json' } },
      );
    pool
      .intercept({ path: '/public/v1/enrichment/batch/', method: 'POST' })
      .reply(
        200,
        { batch_id: 'bch_0123456789abcdef0123456789abcdef', status: 'processing' },
        { headers: { 'content-type': 'application/json' } },
      );
    const sleeps: number[] = [];
    const res = await runCli(['batch', 'upload', file, '--mode', 'raw', '--platform', 'twitch'], {
      env,
      dispatcher: agent,
      sleeps,
    });
    // The HTTP core retries it (the body is a stream factory) and says so like for any other request.
    // A one-off request: the retry notice alone (the lowered pace is explained only when more requests follow).
    expect(res.stderr).toBe(
      "Read 1 unique handle from column 'handle' of " +
        file +
        '.\n' +
        'Rate limited (HTTP 429): Request was throttled; retrying in 2 s (attempt 2 of 4).\n',
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('bch_0123456789abcdef0123456789abcdef\n');
    expect(sleeps).toContain(2000);
  });
});
