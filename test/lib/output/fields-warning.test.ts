import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { closest, FieldsCheck } from '../../../src/lib/output/fields-check.js';
import type { Terminal } from '../../../src/lib/io/terminal.js';

const sb = useSandbox({ credits: 1000 });
const SEARCH = ['search', '--platform', 'instagram', '--limit', '3'];
const TYPO = "warning: --fields: no record has 'profile.usrname'; did you mean 'profile.username'?\n";

/** `--fields` with a path no record has: printed as asked (exit 0), and said once on stderr with the nearest path. */
describe('--fields with a path no printed record has', () => {
  it.each([
    ['csv', false],
    ['tsv', false],
    ['json', false],
    ['jsonl', false],
    ['table', true],
    ['table', false],
  ])(
    'search --format %s (terminal: %s): one warning with a suggestion, output as asked, exit 0',
    async (format, tty) => {
      const res = await runCli([...SEARCH, '--format', format, '--fields', 'user_id,profile.usrname'], {
        env: sandboxEnv(sb.get(), { NO_COLOR: '1' }),
        tty,
        columns: 120,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr.match(/warning: --fields/g)).toHaveLength(1);
      expect(res.stderr).toContain(TYPO);
      if (format === 'json')
        expect(res.json<Array<Record<string, unknown>>>().map((r) => Object.keys(r))).toEqual([
          ['user_id'],
          ['user_id'],
          ['user_id'],
        ]);
      if (format === 'csv') expect(res.stdout.split('\n')[0]).toBe('user_id,profile.usrname');
    },
  );

  it('a path some record has, and a whole object, are not warned about', async () => {
    const res = await runCli([...SEARCH, '--format', 'csv', '--fields', 'user_id,profile,profile.username'], {
      env: sandboxEnv(sb.get()),
    });
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain('warning');
  });

  it('a name nothing resembles: the warning without a guess', async () => {
    const res = await runCli([...SEARCH, '--json', '--fields', 'zzzzqqqq'], { env: sandboxEnv(sb.get()) });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe("warning: --fields: no record has 'zzzzqqqq'\n");
  });

  it('a single record (enrich) and bulk enrichment rows (csv)', async () => {
    const [one, two] = creatorHandles(sb.get(), 2);
    const single = await runCli(
      [
        'enrich',
        'handle',
        one as string,
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--json',
        '--fields',
        'result.instagram.usernam',
        '--yes',
      ],
      { env: sandboxEnv(sb.get()) },
    );
    expect(single.code, single.stderr).toBe(0);
    expect(single.stderr).toContain(
      "warning: --fields: no record has 'result.instagram.usernam'; did you mean 'result.instagram.username'?",
    );
    const bulk = await runCli(
      [
        'enrich',
        'handle',
        one as string,
        two as string,
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--format',
        'csv',
        '--fields',
        'handle,stauts',
        '--yes',
      ],
      { env: sandboxEnv(sb.get()) },
    );
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(bulk.stderr.match(/warning: --fields/g)).toHaveLength(1);
    expect(bulk.stderr).toContain("warning: --fields: no record has 'stauts'; did you mean 'status'?");
  });

  it('an empty list says nothing (no record to compare with)', async () => {
    const res = await runCli(
      ['search', '--platform', 'instagram', '--min-followers', '999999999999', '--json', '--fields', 'profile.usrname'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('--fields');
  });
});

describe('closest', () => {
  it('prefers a path ending in the name, then a near spelling, else nothing', () => {
    const known = ['user_id', 'profile', 'profile.username', 'profile.full_name', 'profile.followers'];
    expect(closest('username', known)).toBe('profile.username');
    expect(closest('profile.usrname', known)).toBe('profile.username');
    expect(closest('profile.folowers', known)).toBe('profile.followers');
    expect(closest('userid', known)).toBe('user_id');
    expect(closest('engagement', known)).toBeUndefined();
  });
});

describe('FieldsCheck', () => {
  it('names the fields in the words it is given (the app gives --fields), and names nothing without them', () => {
    const warned = (named?: { fields: string }): string[] => {
      const lines: string[] = [];
      const check = FieldsCheck.for({ fields: ['usrname'], named });
      check?.see({ username: 'a' });
      check?.warn({ warn: (line: string) => lines.push(line) } as unknown as Terminal);
      return lines;
    };
    expect(warned({ fields: '--fields' })).toEqual(["--fields: no record has 'usrname'; did you mean 'username'?"]);
    expect(warned()).toEqual(["no record has 'usrname'; did you mean 'username'?"]);
  });
});
