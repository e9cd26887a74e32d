import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

describe('creators help', () => {
  it('help exit-codes, environment and formatting say what they are about', async () => {
    const env = await runCli(['help', 'environment']);
    expect(env.code).toBe(0);
    for (const name of [
      'CREATORS_BASE_URL',
      'CREATORS_API_KEY',
      'CREATORS_PROFILE',
      'CREATORS_FORMAT',
      'CREATORS_DEBUG',
      'CREATORS_MAX_CREDITS',
      'CREATORS_CONFIG_DIR',
      'NO_COLOR',
    ]) {
      expect(env.stdout, name).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
    }
    const formatting = await runCli(['help', 'formatting']);
    expect(formatting.code).toBe(0);
    for (const word of ['table', 'json', 'jsonl', 'csv', 'tsv', '--fields', '-o'])
      expect(formatting.stdout, word).toContain(word);
    const codes = await runCli(['help', 'exit-codes']);
    expect(codes.code).toBe(0);
    expect(codes.stdout).toMatch(/^  5\s.*credit/im);
  });

  it('help exit-codes documents every code', async () => {
    const res = await runCli(['help', 'exit-codes']);
    for (const code of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '130'])
      expect(res.stdout).toMatch(new RegExp(`^  ${code}\\s`, 'm'));
  });

  it("help <command> prints that command's help", async () => {
    const res = await runCli(['help', 'dict']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Usage: creators dict');
  });

  // `help` prints commander's help text, which (unlike --help) leaves out the examples added after it.
  it('help <command path> prints the help of a nested command, as --help does up to its examples', async () => {
    const res = await runCli(['help', 'auth', 'status']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Usage: creators auth status \[options\]\n\nShow base URL/);
    expect((await runCli(['auth', 'status', '--help'])).stdout.startsWith(res.stdout)).toBe(true);
  });

  it('help alone prints the help of the whole program, as --help does up to its examples', async () => {
    const res = await runCli(['help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Usage: creators \[options\] \[command\]\n/);
    expect((await runCli(['--help'])).stdout.startsWith(res.stdout)).toBe(true);
  });

  it.each([['nothing-here'], ['constructor'], ['auth', 'nope']])(
    'help %j is a usage error (exit 2)',
    async (...words) => {
      const res = await runCli(['help', ...words]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(
        new RegExp(
          `^error: No help topic or command '${words.join(' ')}'\\.\\nTopics: exit-codes, environment, formatting, filters; `,
        ),
      );
    },
  );

  it('-o writes the topic to a file and nothing to stdout', async () => {
    const dir = tempDir('creators-help-');
    const res = await runCli(['help', 'environment', '-o', join(dir, 'env.txt')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(readFileSync(join(dir, 'env.txt'), 'utf8')).toBe((await runCli(['help', 'environment'])).stdout);
  });
});

describe('creators <group> help [verb]', () => {
  it.each([
    [
      ['keys', 'help'],
      ['keys', '--help'],
    ],
    [
      ['listening', 'help'],
      ['listening', '--help'],
    ],
    [
      ['keys', 'help', 'create'],
      ['keys', 'create', '--help'],
    ],
    [
      ['listening', 'subscriptions', 'help', 'get'],
      ['listening', 'subscriptions', 'get', '--help'],
    ],
  ])('%j prints the same help as %j, exit 0', async (argv, same) => {
    const res = await runCli(argv);
    const expected = await runCli(same);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe(expected.stdout);
  });

  it("a group's help does not list a help command (creators help <command> is the one)", async () => {
    const res = await runCli(['keys', '--help']);
    expect(res.stdout).not.toMatch(/^\s+help\b/m);
  });
});
