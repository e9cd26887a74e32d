/**
 * One drawing rule for tables, cards, charts and spinners (lib/io/charset.ts): Unicode in a UTF-8 locale;
 * ASCII when the locale is not UTF-8, and on POSIX when no locale variable is set (cron, Docker, CI); Unicode
 * on Windows with none set. TERM=dumb: no cursor movement (no spinner frames, progress as whole lines), no colour.
 */
import { describe, expect, it } from 'vitest';
import { runCli, type RunOptions } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 42, credits: 1000 });
const OVERLAP = ['overlap', 'noah_paws', 'theellastrong', 'hannahclutch', '--platform', 'instagram'];
const NO_LOCALE = { LANG: '', LC_ALL: '', LC_CTYPE: '' };
const term = (extra: Record<string, string>, more: Partial<RunOptions> = {}): RunOptions => ({
  env: sandboxEnv(sb.get(), { NO_COLOR: '1', ...extra }),
  tty: true,
  columns: 100,
  ...more,
});
const UNICODE_DRAWING = /[\u2500-\u259f▲·›–…✔✖]/;

describe('one drawing rule for the table and the chart of one output', () => {
  it('no locale set on POSIX (cron, Docker, CI): the table borders and the chart both in ASCII', async () => {
    const res = await runCli(OVERLAP, term(NO_LOCALE));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^\+-+\+/);
    expect(res.stdout).toMatch(/\nAudience {2}# unique {2}\S overlapping\n/);
    expect(res.stdout).not.toMatch(UNICODE_DRAWING);
  });

  it('LANG=C: ASCII for both; a UTF-8 locale: Unicode for both', async () => {
    const c = await runCli(OVERLAP, term({ LANG: 'C' }));
    expect(c.stdout).toMatch(/^\+-+\+/);
    expect(c.stdout).not.toMatch(UNICODE_DRAWING);
    const utf8 = await runCli(OVERLAP, term({ LANG: 'en_US.UTF-8' }));
    expect(utf8.stdout).toMatch(/^┌─/);
    expect(utf8.stdout).toMatch(/\nAudience {2}█ unique {2}▒ overlapping\n/);
  });

  it('Windows with no locale set: Unicode for both (its terminals draw it)', async () => {
    const res = await runCli(OVERLAP, term(NO_LOCALE, { platform: 'win32' }));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^┌─/);
    expect(res.stdout).toMatch(/\nAudience {2}█ unique {2}▒ overlapping\n/);
  });

  it('TERM=dumb keeps the UTF-8 drawing (the locale decides it, for the chart as for the table) and paints nothing', async () => {
    const res = await runCli(OVERLAP, {
      ...term({ TERM: 'dumb', LANG: 'en_US.UTF-8' }),
      env: sandboxEnv(sb.get(), { TERM: 'dumb', LANG: 'en_US.UTF-8' }),
    });
    expect(res.stdout).toMatch(/^┌─/);
    expect(res.stdout).toMatch(/\nAudience {2}█ unique {2}▒ overlapping\n/);
    expect(res.stdout).not.toContain('\x1b');
  });
});

describe('TERM=dumb: no cursor movement on stderr', () => {
  it('the wait spinner draws no frames and sends no escape', async () => {
    const argv = ['search', '--platform', 'instagram', '--limit', '3', '--format', 'csv', '-o', '/dev/null'];
    const dumb = await runCli(argv, {
      env: sandboxEnv(sb.get(), { TERM: 'dumb' }),
      tty: true,
      ttyStreams: true,
      waitSpinnerDelayMs: 0,
    });
    expect(dumb.code, dumb.stderr).toBe(0);
    expect(dumb.stderr).not.toContain('\x1b');
    expect(dumb.stderr).not.toContain('\r');
  });

  it('a progress line comes as whole lines, a few seconds apart, never redrawn or erased', async () => {
    const handles = creatorHandles(sb.get(), 25, 40);
    const made = await runCli(['exclusions', 'create', 'dumb', '--platform', 'instagram', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    const id = String((made.json() as { id: number }).id);
    expect((await runCli(['exclusions', 'add', id, ...handles], { env: sandboxEnv(sb.get()) })).code).toBe(0);
    // Each reading of the clock is 3 s later: a page every few seconds, as on a slow connection.
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const now = (): number => (clock += 3_000);
    const argv = ['exclusions', 'entries', id, '--all', '--limit', '5', '--format', 'csv', '-o', '/dev/null'];
    const dumb = await runCli(argv, { env: sandboxEnv(sb.get(), { TERM: 'dumb' }), stderrTTY: true, now });
    expect(dumb.code, dumb.stderr).toBe(0);
    expect(dumb.stderr).not.toContain('\x1b');
    expect(dumb.stderr).not.toContain('\r');
    const lines = dumb.stderr.split('\n').filter((line) => line.startsWith('exclusions entries: '));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(5);
    for (const line of lines) expect(line).toMatch(/^exclusions entries: \d+ pages?, \d+\/25 handles/);
    const xterm = await runCli(argv, { env: sandboxEnv(sb.get(), { TERM: 'xterm' }), stderrTTY: true, now });
    expect(xterm.stderr).toMatch(/\r\x1b\[2Kexclusions entries: /);
  });
});
