/**
 * `creators overlap` on a terminal: below the table, each creator's audience (and all of them together) as one
 * bar split into unique and overlapping, with the unique percentage, at 60, 100 and 200 columns, in Unicode
 * and ASCII; machine formats are what a pipe gets.
 */
import { describe, expect, it } from 'vitest';
import { shareText } from '../../src/lib/output/charts.js';
import { displayWidth } from '../../src/lib/io/width.js';
import { runCli, tempConfigDir, type RunOptions } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 42, credits: 1000 });
const argv = ['overlap', 'noah_paws', 'theellastrong', 'hannahclutch', '--platform', 'instagram'];
const term = (columns: number, extra: Record<string, string> = {}): RunOptions => ({
  env: sandboxEnv(sb.get(), { NO_COLOR: '1', ...extra }),
  tty: true,
  columns,
});

interface Row {
  username: string;
  unique_percentage: number;
  overlapping_percentage: number;
}

async function rows(): Promise<Row[]> {
  const res = await runCli([...argv, '--format', 'jsonl'], { env: sandboxEnv(sb.get()) });
  expect(res.code).toBe(0);
  return res.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Row);
}

describe('overlap on a terminal: the table, then unique against overlapping as bars', () => {
  it.each([60, 100, 200])('at %i columns', async (columns) => {
    const expected = await rows();
    const res = await runCli(argv, term(columns));
    expect(res.code).toBe(0);
    const out = res.stdout;
    const chart = out.slice(out.indexOf('\nAudience  '));
    expect(out.indexOf('└')).toBeLessThan(out.indexOf('\nAudience  '));
    expect(chart.split('\n')[1]).toBe('Audience  █ unique  ▒ overlapping');
    const bars = chart
      .split('\n')
      .slice(2)
      .filter((line) => line !== '');
    expect(bars).toHaveLength(expected.length);
    bars.forEach((line, i) => {
      const row = expected[i]!;
      const match = /^ {2}(\S+) +(█*)(▒*)(░*) +(\S+) unique$/.exec(line);
      expect(match, line).not.toBeNull();
      const [, name, unique, overlapping, rest, text] = match!;
      expect(name).toBe(row.username);
      expect(text).toBe(shareText(row.unique_percentage / 100));
      const width = unique!.length + overlapping!.length + rest!.length;
      expect(unique!.length).toBe(Math.round((row.unique_percentage / 100) * width));
      expect(unique!.length + overlapping!.length).toBe(
        Math.min(width, Math.round(((row.unique_percentage + row.overlapping_percentage) / 100) * width)),
      );
    });
    for (const line of out.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    expect(out).not.toContain('\x1b');
  });

  it('ASCII when the locale is not UTF-8', async () => {
    const res = await runCli(argv, term(100, { LANG: 'C' }));
    expect(res.code).toBe(0);
    const chart = res.stdout.slice(res.stdout.indexOf('\nAudience  '));
    expect(chart).toContain('Audience  # unique  = overlapping');
    expect(chart).toMatch(/\n {2}noah_paws +#+=+ +\S+ unique\n/);
    expect(chart).not.toMatch(/[\u2580-\u259f]/);
  });

  it('colour paints the bars; --no-color the same shapes without escape codes', async () => {
    const coloured = await runCli(argv, { env: sandboxEnv(sb.get()), tty: true, columns: 100 });
    expect(coloured.stdout).toMatch(/\x1b\[36m█+\x1b\[39m\x1b\[33m▒+/);
    const plain = await runCli(argv, term(100));
    expect(coloured.stdout.replace(/\x1b\[\d+m/g, '')).toBe(plain.stdout);
  });

  it('machine formats and --fields draw nothing: what a pipe gets', async () => {
    // One store for both runs: the second answers from it, so credits_left is the same too.
    const configDir = tempConfigDir();
    for (const format of [['--json'], ['--format', 'jsonl'], ['--format', 'csv'], ['--format', 'tsv']]) {
      const piped = await runCli([...argv, ...format], { env: sandboxEnv(sb.get()), configDir });
      const tty = await runCli([...argv, ...format], { ...term(100), configDir });
      expect(tty.stdout).toBe(piped.stdout);
      expect(tty.stdout).not.toContain('unique  ');
    }
    const fields = await runCli([...argv, '--fields', 'username,unique_percentage'], term(100));
    expect(fields.stdout).not.toContain('\nAudience  ');
  });
});
