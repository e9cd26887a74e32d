/**
 * The pager (lib/output/pager.ts) through whole commands: on a (fake) terminal the output goes to the
 * pager the environment, the flag and the profile choose, never to a pipe or an `-o` file; quitting
 * the pager early is exit 0 and silence; a pager that cannot be started falls back to stdout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakePager } from '../helpers/fake-pager.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { call, L } from './listening/helpers.js';
import { screen } from '../helpers/screen.js';

const sb = useSandbox({ seed: 3 });
const DICT = ['dict', 'languages'];

describe('the pager', () => {
  it('a terminal table goes to less -FRX with LESS=FRX, not to stdout', async () => {
    const pager = fakePager();
    const res = await runCli(DICT, { tty: true, env: sandboxEnv(sb.get()), startPager: pager.start });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(pager.calls).toHaveLength(1);
    expect(pager.calls[0]?.command).toBe('less -FRX');
    expect(pager.calls[0]?.env.LESS).toBe('FRX');
    expect(pager.text()).toMatch(/┌/);
    expect(pager.text()).toMatch(/Portuguese/);
    expect(pager.exits()).toBe(1);
    // The same table as without a pager.
    const plain = await runCli(DICT, { tty: true, env: sandboxEnv(sb.get()) });
    expect(pager.text()).toBe(plain.stdout);
  });

  it('CREATORS_PAGER > the profile setting > PAGER; a LESS of the user is kept', async () => {
    const env = sandboxEnv(sb.get(), { PAGER: 'more', LESS: 'S' });
    const configDir = tempConfigDir();
    let pager = fakePager();
    await runCli(DICT, { tty: true, env, configDir, startPager: pager.start });
    expect(pager.calls.map((c) => c.command)).toEqual(['more']);
    expect(pager.calls[0]?.env.LESS).toBe('S');

    expect((await runCli(['config', 'set', 'pager', 'most -s'], { configDir })).code).toBe(0);
    pager = fakePager();
    await runCli(DICT, { tty: true, env, configDir, startPager: pager.start });
    expect(pager.calls.map((c) => c.command)).toEqual(['most -s']);

    pager = fakePager();
    await runCli(DICT, { tty: true, env: { ...env, CREATORS_PAGER: 'less -S' }, configDir, startPager: pager.start });
    expect(pager.calls.map((c) => c.command)).toEqual(['less -S']);
  });

  it('TERM=dumb (an Emacs shell, an IDE console): no pager from PAGER or the default; one named for creators is used', async () => {
    for (const extra of [{}, { PAGER: 'less' }] as Record<string, string>[]) {
      const pager = fakePager();
      const res = await runCli(['credits'], {
        tty: true,
        env: sandboxEnv(sb.get(), { TERM: 'dumb', ...extra }),
        startPager: pager.start,
      });
      expect(res.code).toBe(0);
      expect(pager.calls).toEqual([]);
      expect(res.stdout).toMatch(/Credits available/);
    }
    const pager = fakePager();
    await runCli(['credits'], {
      tty: true,
      env: sandboxEnv(sb.get(), { TERM: 'dumb', CREATORS_PAGER: 'more' }),
      startPager: pager.start,
    });
    expect(pager.calls.map((c) => c.command)).toEqual(['more']);
  });

  it('--json on a terminal is paged too (as gh does); piped it is not', async () => {
    const pager = fakePager();
    const res = await runCli([...DICT, '--json'], { tty: true, env: sandboxEnv(sb.get()), startPager: pager.start });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(Array.isArray(JSON.parse(pager.text()))).toBe(true);

    const piped = fakePager();
    const out = await runCli([...DICT, '--json'], { env: sandboxEnv(sb.get()), startPager: piped.start });
    expect(out.code).toBe(0);
    expect(Array.isArray(out.json())).toBe(true);
    expect(piped.calls).toEqual([]);
  });

  it('never with --no-pager, CREATORS_PAGER empty or cat, the setting false, or -o', async () => {
    const env = sandboxEnv(sb.get());
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'pager', 'false'], { configDir })).code).toBe(0);
    const dir = tempDir('creators-pager-');
    const cases: { argv: string[]; env?: Record<string, string>; configDir?: string }[] = [
      { argv: [...DICT, '--no-pager'] },
      { argv: DICT, env: { CREATORS_PAGER: '' } },
      { argv: DICT, env: { CREATORS_PAGER: 'cat', PAGER: 'less' } },
      { argv: DICT, configDir },
      { argv: [...DICT, '-o', join(dir, 'langs.json')] },
    ];
    for (const c of cases) {
      const pager = fakePager();
      const res = await runCli(c.argv, {
        tty: true,
        env: { ...env, ...c.env },
        configDir: c.configDir,
        startPager: pager.start,
      });
      const label = JSON.stringify(c);
      expect(res.code, label).toBe(0);
      expect(pager.calls, label).toEqual([]);
      if (c.argv.includes('-o'))
        expect(JSON.parse(readFileSync(join(dir, 'langs.json'), 'utf8')).length).toBeGreaterThan(10);
      else expect(res.stdout, label).toMatch(/Portuguese/);
    }
  });

  it('a screen printed in parts (summary, heading, table) is one pager, all parts in order', async () => {
    const created = await call(sb.get(), 'POST', `${L}/subscription/`, {
      name: 'Paged once',
      creators: ['instagram:pg_a', 'instagram:pg_b'],
    });
    const id = String(created.body.id);
    const argv = ['listening', 'subscriptions', 'details', id];
    const pager = fakePager();
    const res = await runCli(argv, { tty: true, env: sandboxEnv(sb.get()), startPager: pager.start });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(pager.calls).toHaveLength(1);
    expect(pager.exits()).toBe(1);
    const plain = await runCli(argv, { tty: true, env: sandboxEnv(sb.get()) });
    expect(plain.stdout).toMatch(/Paged once[\s\S]*\ncreators:\n[\s\S]*pg_a[\s\S]*pg_b/);
    expect(pager.text()).toBe(plain.stdout);
  });

  it('the note on columns left out comes after the table, once the pager has given the terminal back', async () => {
    const pager = fakePager();
    let exitsAtNote: number | undefined;
    const res = await runCli(['keys', 'list'], {
      tty: true,
      columns: 60,
      env: sandboxEnv(sb.get(), { NO_COLOR: '1' }),
      startPager: pager.start,
      onStderr: (text) => {
        if (text.includes('left out')) exitsAtNote ??= pager.exits();
      },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(pager.text()).toMatch(/┌/);
    // One note, broken at spaces to the 60 columns.
    expect(res.stderr.trimEnd().split('\n').join(' ')).toMatch(
      /^note: columns? .* left out to fit 60 columns; choose columns with --fields$/,
    );
    expect(exitsAtNote).toBe(1);
  });

  it('a pager quit early is not an error: exit 0, nothing on stderr', async () => {
    // JSON is written record by record: the writes after the quit meet a closed pipe.
    const pager = fakePager({ quitAfter: 200 });
    const res = await runCli([...DICT, '--json'], { tty: true, env: sandboxEnv(sb.get()), startPager: pager.start });
    const plain = await runCli([...DICT, '--json'], { tty: true, env: sandboxEnv(sb.get()) });
    expect(pager.text().length).toBeLessThan(plain.stdout.length);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe('');
  });

  it('a paid search --all whose pager is quit early: its pages were all received first, exit 0, only the summary', async () => {
    const sandbox = sb.get();
    const before = sandbox.state.ledger.usedMilli;
    const pager = fakePager({ quitAfter: 300 });
    const res = await runCli(
      ['search', '--platform', 'instagram', '--all', '--max-results', '30', '--limit', '10', '--yes', '--json'],
      {
        tty: true,
        env: sandboxEnv(sandbox),
        startPager: pager.start,
      },
    );
    expect(res.code).toBe(0);
    expect(pager.calls).toHaveLength(1);
    expect(() => JSON.parse(pager.text())).toThrow(); // the user saw the start only
    // The table was complete (every page received) before the pager started: its quit is the end of
    // reading, not of the run, and the spend summary follows on stderr once the terminal is back.
    // (The progress line of --all is erased in place first: the screen shows only the summary.)
    expect(screen(res.stderr).join('\n')).toMatch(
      /^Spent 0\.3 credits on 30 creators \(3 pages\); [\d.,]+ credits left\.$/,
    );
    const spentWithout = sandbox.state.ledger.usedMilli - before;
    const again = await runCli(
      ['search', '--platform', 'instagram', '--all', '--max-results', '30', '--limit', '10', '--yes', '--no-pager'],
      {
        tty: true,
        env: sandboxEnv(sandbox),
      },
    );
    expect(again.code).toBe(0);
    expect(sandbox.state.ledger.usedMilli - before - spentWithout).toBe(spentWithout);
  });

  it('a pager that cannot be started: one warning line, the output on stdout, exit 0', async () => {
    const pager = fakePager({ notFound: true });
    const res = await runCli(DICT, {
      tty: true,
      env: sandboxEnv(sb.get(), { CREATORS_PAGER: 'nopager-here -x', NO_COLOR: '1' }),
      startPager: pager.start,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Portuguese/);
    // One warning, broken at spaces to the 100 columns.
    expect(res.stderr.trimEnd().split('\n').join(' ')).toBe(
      "warning: cannot start the pager 'nopager-here -x' (not found); writing directly. Set CREATORS_PAGER, or use --no-pager.",
    );
  });

  it('sandbox: its banner is printed while the server runs on, never held for a pager', async () => {
    const pager = fakePager();
    const res = await runCli(['sandbox'], { signal: AbortSignal.abort(), tty: true, startPager: pager.start });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Sandbox API listening on http:/);
    expect(pager.calls).toEqual([]);
  });

  it('bulk enrichment rows held for the pager: the progress line is shown meanwhile, the rows paged at the end', async () => {
    const pager = fakePager();
    const handles = creatorHandles(sb.get(), 3);
    const res = await runCli(
      ['enrich', 'handle', ...handles, '--platform', 'instagram', '--mode', 'raw', '--format', 'csv', '--yes'],
      {
        tty: true,
        env: sandboxEnv(sb.get()),
        startPager: pager.start,
      },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(pager.text().trim().split('\n')).toHaveLength(4);
    expect(res.stderr).toMatch(/\r\x1b\[2Kenrich handle: \d\/3 rows/);
  });

  it('is documented: --no-pager in --help, CREATORS_PAGER and PAGER in help environment, the pager in help formatting, the pager setting', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/^\s+--no-pager\s/m);
    const env = (await runCli(['help', 'environment'])).stdout;
    for (const name of ['CREATORS_PAGER', 'PAGER']) expect(env, name).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
    expect((await runCli(['help', 'formatting'])).stdout).toMatch(/less -FRX[\s\S]*--no-pager/);
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'pager', ''], { configDir })).code).toBe(2);
    expect((await runCli(['config', 'set', 'pager', 'less -S'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'get', 'pager'], { configDir })).stdout).toBe('less -S\n');
  });

  it('events tail, a streaming command, is never paged', async () => {
    const pager = fakePager();
    const controller = new AbortController();
    const res = await runCli(['events', 'tail', '--interval', '1'], {
      tty: true,
      env: sandboxEnv(sb.get()),
      startPager: pager.start,
      signal: controller.signal,
      onSleep: () => controller.abort(),
    });
    expect([0, 130]).toContain(res.code);
    expect(pager.calls).toEqual([]);
  });
});
