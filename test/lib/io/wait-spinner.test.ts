import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Terminal, type TerminalOptions } from '../../../src/lib/io/terminal.js';
import { printList } from '../../../src/lib/output/printers.js';
import { openSink } from '../../../src/lib/output/sink.js';
import { fakeTtyStream } from '../../helpers/run-cli.js';
import { screen, SPINNER_FRAMES } from '../../helpers/screen.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * The wait spinner the terminal object draws for requests the HTTP client reports: after the delay,
 * only on a terminal, erased before anything else is written. The delay runs on fake timers (ora's own
 * frame interval stays real, it only redraws), so nothing here depends on how fast the machine is.
 */
function terminal(options: Partial<TerminalOptions> & { stderrIsTTY?: boolean; columns?: number } = {}): {
  term: Terminal;
  err: () => string;
} {
  const stderr = options.stderrIsTTY === false ? new PassThrough() : fakeTtyStream(80);
  let err = '';
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const io = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: true,
    stderrIsTTY: options.stderrIsTTY ?? true,
    columns: options.columns ?? 80,
  };
  const term = new Terminal(io, { quiet: false, color: false, debug: false, yes: false, cwd: '/', ...options });
  return { term, err: () => err };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the wait spinner', () => {
  it('appears after 300 ms of waiting with the wait text, and is erased when the answer comes', async () => {
    const { term, err } = terminal();
    const wait = term.beginWait('Searching…');
    vi.advanceTimersByTime(299);
    await term.liveReady;
    expect(err()).toBe('');
    vi.advanceTimersByTime(1);
    await term.liveReady;
    expect(screen(err())).toEqual([expect.stringMatching(/^. Searching…$/)]);
    wait.end();
    expect(screen(err())).toEqual([]);
    vi.advanceTimersByTime(10_000);
    expect(screen(err())).toEqual([]);
  });

  it('never shows for a quick answer', async () => {
    const { term, err } = terminal();
    term.beginWait('Searching…').end();
    vi.advanceTimersByTime(10_000);
    await term.liveReady;
    expect(err()).toBe('');
  });

  it.each([
    ['stderr is not a terminal', { stderrIsTTY: false }],
    ['--quiet', { quiet: true }],
    ['--debug (the log shows the traffic)', { debug: true }],
    ['the delay is "never" (tests)', { waitSpinnerDelayMs: Number.POSITIVE_INFINITY }],
  ])('never shows when %s', async (_why, options) => {
    const { term, err } = terminal(options);
    const wait = term.beginWait('Searching…');
    vi.advanceTimersByTime(10_000);
    await term.liveReady;
    wait.end();
    expect(err()).toBe('');
  });

  it('a notice during the spinner is written whole on its own line, the spinner below it', async () => {
    const { term, err } = terminal();
    const wait = term.beginWait('Searching…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    term.notice('Rate limited; retrying in 3 s (attempt 2 of 4).');
    await term.liveReady;
    expect(screen(err())).toEqual([
      'Rate limited; retrying in 3 s (attempt 2 of 4).',
      expect.stringMatching(/^. Searching…$/),
    ]);
    term.warn('something to know');
    await term.liveReady;
    wait.end();
    expect(screen(err())).toEqual(['Rate limited; retrying in 3 s (attempt 2 of 4).', 'warning: something to know']);
  });

  it('is erased before data (clearLive, called by the stdout sink) and comes back only after another delay', async () => {
    const { term, err } = terminal();
    const wait = term.beginWait('Enriching…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    expect(screen(err())).toHaveLength(1);
    term.clearLive();
    expect(screen(err())).toEqual([]);
    vi.advanceTimersByTime(299);
    await term.liveReady;
    expect(screen(err())).toEqual([]);
    vi.advanceTimersByTime(1);
    await term.liveReady;
    expect(screen(err())).toEqual([expect.stringMatching(/^. Enriching…$/)]);
    wait.end();
    expect(screen(err())).toEqual([]);
  });

  it('data written through the stdout sink erases it first (another request may still be waiting)', async () => {
    const { term, err } = terminal();
    let out = '';
    let spinnerOnScreenAtData: string[] | undefined;
    term.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      spinnerOnScreenAtData ??= screen(err());
    });
    const wait = term.beginWait('Searching…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    expect(screen(err())).toHaveLength(1);
    const sink = await openSink(term, { outputPath: undefined });
    await sink.write('page 1\n');
    expect(out).toBe('page 1\n');
    expect(spinnerOnScreenAtData).toEqual([]);
    wait.end();
  });

  it("a printer's note (columns left out) goes through the terminal: below the table, the spinner erased, data escaped", async () => {
    const { term, err } = terminal({ columns: 40 });
    let out = '';
    let errAtTable: string | undefined;
    term.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      errAtTable ??= err();
    });
    // Another request is still waiting while the table is printed.
    const wait = term.beginWait('Searching…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    const record = {
      id: 'a1',
      bio: 'y'.repeat(30),
      city: 'z'.repeat(30),
      notes: 'w'.repeat(30),
      'evil\x1b[2Jname': 'x'.repeat(30),
    };
    const settings = { format: 'table' as const, formatExplicit: false, color: false, unicode: true, quiet: false };
    await printList(term, settings, [record], []);
    await term.liveReady;
    expect(out, JSON.stringify(err())).toMatch(/┌/);
    // Nothing on stderr yet when the table was written: the note follows it.
    expect(screen(errAtTable ?? '')).toEqual([]);
    // One note, broken at spaces to the width of stderr (80 columns; the table fitted stdout's 40).
    const lines = screen(err());
    const note = lines.join(' ');
    for (const line of lines) expect(line.length, out).toBeLessThanOrEqual(80);
    expect(note).toMatch(/^note: columns? .* left out to fit 40 columns; choose columns with --fields$/);
    expect(note).toContain('evil\\x1b[2Jname');
    expect(note).not.toContain('\x1b');
    // The spinner (erased by the data) comes back below the note.
    vi.advanceTimersByTime(300);
    await term.liveReady;
    expect(screen(err())).toEqual([...lines, expect.stringMatching(/^. Searching…$/)]);
    wait.end();
  });

  it("a printer's warning while the spinner is on screen (data to a file, nothing on stdout) goes through the terminal: spinner erased, text escaped, redrawn below", async () => {
    const { term, err } = terminal({ color: true });
    const wait = term.beginWait('Searching…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    expect(screen(err())).toEqual([expect.stringMatching(/^. Searching…$/)]);
    const target = join(tempDir('creators-wait-'), 'out.csv');
    const settings = {
      format: 'csv' as const,
      formatExplicit: true,
      color: false,
      quiet: false,
      outputPath: target,
      fields: ['id', 'no\x1b[2Jpe'],
      named: { fields: '--fields' },
    };
    await printList(term, settings, [{ id: 'a1' }], []);
    await term.liveReady;
    expect(readFileSync(target, 'utf8')).toMatch(/^id,/);
    const warning = String.raw`warning: --fields: no record has 'no\x1b[2Jpe'`;
    expect(screen(err())).toEqual([warning, expect.stringMatching(/^. Searching…$/)]);
    // Only the terminal object writes this line (ora also clears its own line around a stray write to
    // stderr, so a printer writing there itself would show as a plain, unescaped or uncoloured line).
    expect(err()).toContain(`\x1b[33mwarning:\x1b[39m ${warning.slice('warning: '.length)}\n`);
    wait.end();
    expect(screen(err())).toEqual([warning]);
  });

  it('tell (what a person must act on: the login URL) is shown even with --quiet, above the spinner', async () => {
    const { term, err } = terminal();
    const wait = term.beginWait('Waiting…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    term.tell('Open this URL in a browser to log in:\n\n  http://127.0.0.1/x\x07\n');
    await term.liveReady;
    expect(screen(err())).toEqual([
      'Open this URL in a browser to log in:',
      '',
      '  http://127.0.0.1/x\\x07',
      '',
      expect.stringMatching(/^. Waiting…$/),
    ]);
    wait.end();
    const quiet = terminal({ quiet: true });
    quiet.term.tell('paste it again:');
    expect(quiet.err()).toBe('paste it again:\n');
  });

  it('shows the wait that changed last, and the remaining one when it ends', async () => {
    const { term, err } = terminal();
    const first = term.beginWait('Searching…');
    const second = term.beginWait('Checking credits…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    expect(screen(err())).toEqual([expect.stringMatching(/Checking credits…$/)]);
    second.end();
    first.end();
    expect(screen(err())).toEqual([]);
  });

  it('stays away while the command shows its own live display (batch poll, bulk progress, events tail)', async () => {
    const { term, err } = terminal();
    const release = term.ownDisplay();
    const wait = term.beginWait('Waiting for api.test…');
    vi.advanceTimersByTime(10_000);
    await term.liveReady;
    expect(err()).toBe('');
    release();
    vi.advanceTimersByTime(300);
    await term.liveReady;
    expect(screen(err())).toEqual([expect.stringMatching(/Waiting for api\.test…$/)]);
    // The command's own spinner takes over the line.
    const own = term.spinner('Batch b1: waiting…');
    expect(screen(err())).toEqual([]);
    vi.advanceTimersByTime(10_000);
    await own.ready;
    own.stop();
    wait.end();
    expect(screen(err()).filter((l) => l.includes('Waiting for'))).toEqual([]);
  });

  it('stays away while a progress line (liveLine) is open, drawn or not, and may come back once it is closed', async () => {
    const { term, err } = terminal();
    const line = term.liveLine(() => 0);
    const wait = term.beginWait('Waiting for api.test…');
    vi.advanceTimersByTime(10_000);
    await term.liveReady;
    expect(err()).toBe('');
    line.draw(() => 'enrich: 1/3 rows');
    line.clear();
    vi.advanceTimersByTime(10_000);
    await term.liveReady;
    expect(screen(err())).toEqual([]);
    line.close();
    vi.advanceTimersByTime(300);
    await term.liveReady;
    expect(screen(err())).toEqual([expect.stringMatching(/Waiting for api\.test…$/)]);
    wait.end();
  });

  it('is gone for good once the command is over (an error prints next)', async () => {
    const { term, err } = terminal();
    term.beginWait('Searching…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    term.closeLive();
    vi.advanceTimersByTime(10_000);
    await term.liveReady;
    expect(screen(err())).toEqual([]);
    expect(err()).not.toMatch(new RegExp(`${SPINNER_FRAMES.source}[^\\x1b]*$`));
  });

  it('shows control characters and credentials from the text escaped, like every message', async () => {
    const { term, err } = terminal();
    term.secrets.add('sk_live_secret123');
    const wait = term.beginWait('Waiting for evil\x1b[2Jhost sk_live_secret123…');
    vi.advanceTimersByTime(300);
    await term.liveReady;
    expect(err()).not.toContain('\x1b[2J');
    expect(err()).not.toContain('sk_live_secret123');
    wait.end();
  });
});
