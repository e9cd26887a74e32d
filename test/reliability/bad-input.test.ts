import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { faults, figures, ledgerMark } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The bad input corpus: each input gets a clear message, the documented exit code, and nothing
 * billable is sent. A never-firing fault rule (`p=0`) counts every request that reaches the sandbox.
 */
const sb = useSandbox({ seed: 6 });
const dir = tempDir('creators-bad-');
const file = (name: string, content: string | Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const INVALID_UTF8 = Buffer.concat([Buffer.from('handle\nnasa\n'), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('\n')]);

/** [name, argv, exit code, message pattern]; every argv is tried against the live sandbox. */
const CORPUS: [string, () => string[], number, RegExp][] = [
  [
    'empty CSV (enrich)',
    () => ['enrich', 'handle', '--input', file('empty.csv', ''), '--platform', 'instagram'],
    2,
    /holds no rows/,
  ],
  [
    'empty CSV (batch)',
    () => ['batch', 'upload', file('empty2.csv', ''), '--mode', 'raw', '--platform', 'instagram'],
    2,
    /is empty/,
  ],
  [
    'header only (batch)',
    () => ['batch', 'upload', file('header.csv', 'handle\n'), '--mode', 'raw', '--platform', 'instagram'],
    2,
    /No handles in column 'handle'/,
  ],
  [
    'wrong column (enrich)',
    () => [
      'enrich',
      'handle',
      '--input',
      file('col.csv', 'handle\nnasa\n'),
      '--column',
      'nope',
      '--platform',
      'instagram',
    ],
    2,
    /Column 'nope' is not in the input/,
  ],
  [
    'wrong column (batch)',
    () => [
      'batch',
      'upload',
      file('col2.csv', 'handle\nnasa\n'),
      '--column',
      'nope',
      '--mode',
      'raw',
      '--platform',
      'instagram',
    ],
    2,
    /Column 'nope' is not in the input/,
  ],
  [
    'invalid UTF-8 (enrich)',
    () => ['enrich', 'handle', '--input', file('bad-utf8.csv', INVALID_UTF8), '--platform', 'instagram'],
    2,
    /is not valid UTF-8/,
  ],
  [
    'invalid UTF-8 (batch)',
    () => ['batch', 'upload', file('bad-utf8-2.csv', INVALID_UTF8), '--mode', 'raw', '--platform', 'instagram'],
    2,
    /is not valid UTF-8/,
  ],
  [
    '10,001 exclude handles',
    () => [
      'search',
      '--platform',
      'instagram',
      '--exclude-handles',
      file('ex.txt', Array.from({ length: 10_001 }, (_, i) => `h${i}`).join('\n')),
    ],
    2,
    /10,001 handles; the API takes at most 10,000/,
  ],
  ['non-numeric key id', () => ['keys', 'delete', 'abc', '--yes'], 2, /Invalid key id 'abc'/],
  ['non-numeric exclusion list', () => ['exclusions', 'get', 'abc'], 2, /Invalid exclusion list 'abc'/],
  ['path-like batch id ../x', () => ['batch', 'status', '../x'], 2, /Invalid batch id '\.\.\/x'/],
  ['path-like event id a/b', () => ['events', 'get', 'a/b'], 2, /Invalid event id 'a\/b'/],
  ['path-like list x?y', () => ['exclusions', 'entries', 'x?y'], 2, /Invalid exclusion list 'x\?y'/],
  ['path-like subscription ../x', () => ['listening', 'subscriptions', 'get', '../x'], 2, /Invalid subscription id/],
  ['path-like app id', () => ['apps', 'revoke', '../x', '--yes'], 2, /Invalid app id/],
  ['path-like batch download', () => ['batch', 'download', 'a/b', '-o', join(dir, 'never.csv')], 2, /Invalid batch id/],
  ['path-like post id', () => ['post', '../x', '--platform', 'instagram'], 2, /Cannot find a post id/],
  ['unknown platform (search)', () => ['search', '--platform', 'myspace'], 2, /Unknown platform 'myspace'/],
  [
    'unknown platform (enrich)',
    () => ['enrich', 'handle', 'nasa', '--platform', 'myspace'],
    2,
    /Unknown platform 'myspace'/,
  ],
  [
    'huge --limit',
    () => ['search', '--platform', 'instagram', '--limit', '99999999999999999999'],
    2,
    /Invalid --limit/,
  ],
  ['negative --limit', () => ['search', '--platform', 'instagram', '--limit', '-5'], 2, /Invalid --limit '-5'/],
  ['--limit 1e309', () => ['dict', 'languages', '--limit', '1e309'], 2, /Invalid --limit/],
  ['negative --page-size', () => ['events', 'list', '--page-size', '-1'], 2, /Invalid --page-size/],
  [
    'malformed --filters',
    () => ['search', '--platform', 'instagram', '--filters', file('f.json', '{"a":')],
    2,
    /--filters .* is not valid JSON/,
  ],
  [
    'malformed --body',
    () => ['listening', 'subscriptions', 'create', '--body', file('b.json', '{nope')],
    2,
    /--body .* is not valid JSON/,
  ],
  [
    'malformed api --input',
    () => ['api', 'discovery/', '-X', 'POST', '--input', file('i.json', '[1,')],
    2,
    /--input .* is not valid JSON/,
  ],
  ['unknown --format', () => ['credits', '--format', 'xml'], 2, /Unknown format 'xml'/],
  [
    'unknown --format (billable)',
    () => ['search', '--platform', 'instagram', '--format', 'yaml'],
    2,
    /Unknown format 'yaml'/,
  ],
];

describe('bad input corpus', () => {
  it.each(CORPUS)('%s: a clear message, the documented exit code, nothing sent', async (_name, argv, code, message) => {
    faults(sb.get(), 'delay:0 * * p=0');
    const mark = ledgerMark(sb.get());
    const args = argv();
    const inputs = args.filter((a) => a.startsWith(dir) && existsSync(a));
    const before = inputs.map(sha);
    const res = await runCli(args, { env: sandboxEnv(sb.get()) });
    expect(res.code).toBe(code);
    const [first, ...rest] = res.stderr.trim().split('\n');
    expect(first).toMatch(/^error: /);
    expect(first).toMatch(message);
    expect(rest.length).toBeLessThanOrEqual(1); // at most a hint line
    expect(res.stdout).toBe('');
    expect(figures(sb.get()).rules[0]?.matched).toBe(0); // no request reached the API at all
    expect(mark.since().count).toBe(0);
    expect(inputs.map(sha)).toEqual(before);
    expect(existsSync(join(dir, 'never.csv'))).toBe(false);
  });

  it('BOM, CRLF and quoted newlines are read as data, not as part of the handles', async () => {
    const path = file('bom.csv', '\ufeffhandle,note\r\nnasa,"line one\r\nline two"\r\n@spacex,plain\r\n');
    const res = await runCli(
      ['enrich', 'handle', '--input', path, '--platform', 'instagram', '--mode', 'raw', '--dry-run'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    const plan = res.json<{ body: { handle: string }; cost_basis: string }>();
    expect(plan.body.handle).toBe('nasa');
    expect(plan.cost_basis).toMatch(/^2 handles/);
  });

  it('header only (enrich): nothing to do, nothing sent, exit 0 with an empty result', async () => {
    faults(sb.get(), 'delay:0 * * p=0');
    const res = await runCli(
      ['enrich', 'handle', '--input', file('h2.csv', 'handle\n'), '--platform', 'instagram', '--json'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    expect(res.json()).toEqual([]);
    expect(figures(sb.get()).rules[0]?.matched).toBe(0);
  });

  it('a batch file of 10 MB + 1 byte is split in two (cli.md), priced before anything is sent', async () => {
    const rows: string[] = ['handle'];
    let size = 7;
    for (let i = 0; size < 10 * 1024 * 1024; i++) {
      const row = `creator_${String(i).padStart(18, '0')}`;
      rows.push(row);
      size += row.length + 1;
    }
    let text = `${rows.join('\n')}\n`;
    text = text.slice(0, text.lastIndexOf('\n', 10 * 1024 * 1024) + 1);
    text += 'z'.repeat(10 * 1024 * 1024 + 1 - Buffer.byteLength(text));
    const path = file('big.csv', text);
    expect(readFileSync(path).length).toBe(10 * 1024 * 1024 + 1);
    faults(sb.get(), 'delay:0 * * p=0');
    const mark = ledgerMark(sb.get());
    const res = await runCli(
      ['batch', 'upload', path, '--mode', 'raw', '--platform', 'instagram', '--max-credits', '100'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/split into 2 batches of at most 10 MB/);
    expect(figures(sb.get()).rules[0]?.matched).toBe(0);
    expect(mark.since().count).toBe(0);
  });
});
