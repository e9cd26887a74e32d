/**
 * What a person reads around the store at 60, 100 and 200 columns: notices broken at spaces (the terminal never
 * breaks a word), what came from the store said once in the run's one summary line, `store list` keeping what
 * was bought, when and for how much, `store stats` keeping every label whole, `listening usage` in words.
 */
import { describe, expect, it } from 'vitest';
import { STATS_COLUMNS } from '../../../src/lib/store/views.js';
import { displayWidth } from '../../../src/lib/io/width.js';
import { runCli, tempConfigDir, type RunOptions } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';

const sb = useSandbox({ seed: 42, credits: 1000 });
const WIDTHS = [60, 100, 200] as const;
const term = (configDir: string, columns: number): RunOptions => ({
  env: sandboxEnv(sb.get(), { NO_COLOR: '1' }),
  tty: true,
  columns,
  configDir,
});

/** Every line fits, but a value to copy wider than the terminal on a line of its own (it is never cut). */
function fits(text: string, columns: number, whole?: string): void {
  for (const line of text.split('\n'))
    if (line !== whole) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
}

/** The lines a terminal shows, joined back: equal to the sentences only when no word was broken. */
const unwrapped = (text: string): string => text.trimEnd().split('\n').join(' ');

describe('store notices on a terminal', () => {
  it.each(WIDTHS)(
    'at %i columns: broken at spaces, and a second enrich says "from the store" once, in its summary',
    async (columns) => {
      const configDir = tempConfigDir();
      const argv = ['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--no-pager'];
      expect((await runCli(argv, term(configDir, columns))).code).toBe(0);
      const again = await runCli(argv, term(configDir, columns));
      expect(again.code, again.stderr).toBe(0);
      fits(again.stderr, columns);
      expect(unwrapped(again.stderr)).toBe(
        'Enriched noah_paws from the store (bought within 14 days): 0 credits; --max-age 0 buys fresh.',
      );
    },
  );

  it.each(WIDTHS)('at %i columns: a search answered from the store says it once, in its summary', async (columns) => {
    const configDir = tempConfigDir();
    const argv = ['search', '--platform', 'instagram', '--limit', '3', '--no-pager'];
    expect((await runCli(argv, term(configDir, columns))).code).toBe(0);
    const again = await runCli(argv, term(configDir, columns));
    expect(again.code, again.stderr).toBe(0);
    fits(again.stderr, columns);
    const said = unwrapped(again.stderr);
    expect(said.match(/from the store/g)).toHaveLength(1);
    expect(said.match(/0 credits/g)).toHaveLength(1);
    expect(said).toContain(
      'Spent 0 credits on 3 creators (1 page; 1 from the store, bought within 24 hours; --max-age 0 buys fresh).',
    );
  });

  it('piped stderr (cron): the lines are not broken, and the store is still named once', async () => {
    const configDir = tempConfigDir();
    const argv = ['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--format', 'json'];
    await runCli(argv, { env: sandboxEnv(sb.get()), configDir });
    const again = await runCli(argv, { env: sandboxEnv(sb.get()), configDir, columns: 60 });
    expect(again.stderr).toBe('In the store (bought within 14 days): 0 credits; --max-age 0 buys fresh.\n');
  });
});

describe('store list and store stats fit the terminal', () => {
  it.each(WIDTHS)('at %i columns', async (columns) => {
    const configDir = tempConfigDir();
    expect(
      (await runCli(['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--no-pager'], term(configDir, 100)))
        .code,
    ).toBe(0);
    expect(
      (await runCli(['search', '--platform', 'instagram', '--limit', '3', '--no-pager'], term(configDir, 100))).code,
    ).toBe(0);

    const list = await runCli(['store', 'list', '--no-pager'], term(configDir, columns));
    expect(list.code, list.stderr).toBe(0);
    fits(list.stdout, columns);
    const header = list.stdout
      .split('\n')[1]!
      .split('│')
      .map((cell) => cell.trim())
      .filter(Boolean);
    // What was bought, when and for how much stay at every width.
    for (const name of ['Bought', 'Kind', 'Creator', 'Credits']) expect(header).toContain(name);
    if (columns >= 100)
      expect(header).toEqual(['Bought', 'Kind', 'Platform', 'Creator', 'Route', 'Records', 'Credits']);
    expect(list.stdout).toMatch(/│ noah_paws +│(.*│)? +1 │\n/);

    const location = (await runCli(['store', 'path'], { env: sandboxEnv(sb.get()), configDir })).stdout.trim();
    const stats = await runCli(['store', 'stats', '--no-pager'], term(configDir, columns));
    expect(stats.code, stats.stderr).toBe(0);
    fits(stats.stdout, columns, location);
    const labels = stats.stdout
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .map((line) => line.split('│')[1]!.trim());
    expect(labels).toEqual(STATS_COLUMNS.map((col) => col.header));
    // The location is whole: in the table, or under it when it would cut the labels.
    expect(stats.stdout).toContain(location);
    expect(stats.stdout).not.toContain('…');
  });
});

describe('listening usage in words', () => {
  it.each(WIDTHS)('at %i columns: labels a person reads; JSON keeps the service keys', async (columns) => {
    const res = await runCli(['listening', 'usage', '--no-pager'], {
      env: sandboxEnv(sb.get(), { NO_COLOR: '1' }),
      tty: true,
      columns,
    });
    expect(res.code, res.stderr).toBe(0);
    fits(res.stdout, columns);
    const labels = res.stdout
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .map((line) => line.split('│')[1]!.trim());
    expect(labels.length).toBeGreaterThan(10);
    for (const label of labels) expect(label).not.toMatch(/_/);
    expect(labels).toContain('Active subscriptions');
    expect(labels).toContain('Runway (days)');
    const json = await runCli(['listening', 'usage', '--json'], { env: sandboxEnv(sb.get()) });
    expect(Object.keys(json.json<Record<string, unknown>>())).toContain('active_subscriptions');
  });
});
