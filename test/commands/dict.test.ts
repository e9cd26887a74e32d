import { describe, expect, it } from 'vitest';
import { KINDS as HELP_KINDS } from '../../src/commands/dict.js';
import { DICTIONARY_KINDS } from '../../src/lib/api/dictionary.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { mockApi } from '../helpers/mock-api.js';

const sb = useSandbox({ seed: 3 });

const KINDS = [
  'languages',
  'brands',
  'yt-topics',
  'games',
  'audience-brand-categories',
  'audience-brand-names',
  'audience-interests',
  'audience-locations',
  'niches',
  'sub-niches',
];

describe('creators dict', () => {
  for (const kind of KINDS) {
    it(`lists ${kind} as a JSON array of records`, async () => {
      const res = await runCli(['dict', kind, '--json'], { env: sandboxEnv(sb.get()) });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      const entries = res.json<Record<string, unknown>[]>();
      expect(Array.isArray(entries)).toBe(true);
      expect(entries.length).toBeGreaterThan(0);
      expect(typeof entries[0]).toBe('object');
    });
  }

  it('lists locations for a platform, searched and limited', async () => {
    const res = await runCli(
      ['dict', 'locations', '--platform', 'Instagram', '--search', 'united', '--limit', '3', '--json'],
      {
        env: sandboxEnv(sb.get()),
      },
    );
    expect(res.code).toBe(0);
    const entries = res.json<Record<string, unknown>[]>();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(3);
    for (const e of entries) expect(JSON.stringify(e).toLowerCase()).toContain('united');
  });

  it('pages with --offset', async () => {
    const env = sandboxEnv(sb.get());
    const all = (await runCli(['dict', 'brands', '--limit', '10', '--json'], { env })).json<unknown[]>();
    const second = (await runCli(['dict', 'brands', '--limit', '5', '--offset', '5', '--json'], { env })).json<
      unknown[]
    >();
    expect(second).toEqual(all.slice(5, 10));
  });

  it('prints csv with a header row', async () => {
    const res = await runCli(['dict', 'languages', '--limit', '3', '--format', 'csv'], { env: sandboxEnv(sb.get()) });
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
  });

  it('refuses an unknown kind (exit 2), naming the kinds, sending nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'colours'], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Unknown dictionary kind 'colours'\.\n.*languages, locations, brands/);
  });

  it('needs a platform for locations (exit 2)', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'locations'], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: 'locations' needs a platform\./);
    expect(res.stderr).toContain('Add --platform with one of: instagram, youtube, tiktok');
  });

  it('refuses an unknown platform (exit 2)', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'locations', '--platform', 'myspace', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.errorJson().error.message).toBe("Unknown platform 'myspace'.");
  });

  it.each([['0'], ['101'], ['-5'], ['ten'], ['99999999999999999999']])('refuses --limit %s (exit 2)', async (limit) => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'brands', '--limit', limit], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--limit/);
  });
});

describe('creators dict aliases and output', () => {
  it('accepts the API path names niche and sub-niche', async () => {
    const a = await runCli(['dict', 'niche', '--json'], { env: sandboxEnv(sb.get()) });
    const b = await runCli(['dict', 'niches', '--json'], { env: sandboxEnv(sb.get()) });
    expect(a.code).toBe(0);
    expect(a.json()).toEqual(b.json());
  });

  it('prints a bordered table on a terminal, and plain tab-separated rows when table is asked for through a pipe', async () => {
    const tty = await runCli(['dict', 'languages', '--limit', '2'], { env: sandboxEnv(sb.get()), tty: true });
    expect(tty.code).toBe(0);
    const plain = tty.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toContain('┌');
    expect(plain).toMatch(/│ abbr │ name +│/);
    expect(plain).toMatch(/│ en +│ English +│/);
    const piped = await runCli(['dict', 'languages', '--limit', '2', '--format', 'table'], {
      env: sandboxEnv(sb.get()),
    });
    expect(piped.stdout).toBe('en\tEnglish\nes\tSpanish\n');
  });

  it('has no ANSI colour with NO_COLOR or --no-color, even on a terminal', async () => {
    for (const extra of [
      { env: { NO_COLOR: '1' }, args: [] },
      { env: {}, args: ['--no-color'] },
    ]) {
      const res = await runCli(['dict', 'languages', '--limit', '2', ...extra.args], {
        env: { ...sandboxEnv(sb.get()), ...extra.env },
        tty: true,
      });
      expect(res.stdout).toContain('English');
      expect(res.stdout).not.toContain('\x1b[');
    }
  });

  it('an empty result on a terminal prints nothing to stdout and a notice to stderr', async () => {
    const res = await runCli(['dict', 'brands', '--search', 'zzzzzz-no-such-brand'], {
      env: sandboxEnv(sb.get()),
      tty: true,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('No entries found.\n');
  });
});

describe('-o that cannot be written', () => {
  it.each([
    [
      '/nonexistent-dir/x.csv',
      /Cannot write -o \/nonexistent-dir\/x\.csv: the folder \/nonexistent-dir does not exist\./,
    ],
    ['/tmp', /Cannot write -o \/tmp: it is a folder\./],
  ])('%s is a usage error (exit 2) found before anything is sent', async (target, message) => {
    const { agent, env } = mockApi();
    const res = await runCli(['dict', 'languages', '-o', target], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).not.toContain('Unexpected');
  });
});

describe('empty lists as csv', () => {
  it("still write the header row of the command's columns", async () => {
    const res = await runCli(['config', 'list', '--format', 'csv']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('key,value\n');
  });
});

describe('creators dict: declaration', () => {
  it('the help line names every kind the API layer routes (the list is kept apart so --help loads no lib/api)', () => {
    expect([...HELP_KINDS]).toEqual(Object.keys(DICTIONARY_KINDS));
  });
});
