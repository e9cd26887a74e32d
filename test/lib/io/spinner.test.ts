import { describe, expect, it } from 'vitest';

import { createSpinner } from '../../../src/lib/io/spinner.js';
import { memoryTerminal } from '../../helpers/terminal.js';

const on = { quiet: false, color: false, unicode: true };

describe('createSpinner', () => {
  it('writes nothing at all when stderr is not a terminal', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true, stderrIsTTY: false });
    const spinner = createSpinner(io, on, 'Searching');
    await spinner.ready;
    spinner.update('Page 2');
    spinner.succeed('Done');
    spinner.fail('Nope');
    spinner.stop();
    expect(io.err()).toBe('');
    expect(io.out()).toBe('');
  });

  it('writes nothing with --quiet, even on a terminal', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true, stderrIsTTY: true });
    const spinner = createSpinner(io, { quiet: true, color: false }, 'Searching');
    await spinner.ready;
    spinner.succeed('Done');
    expect(io.err()).toBe('');
    expect(io.out()).toBe('');
  });

  it('spins on stderr only, and prints the final line', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true, stderrIsTTY: true });
    const spinner = createSpinner(io, on, 'Searching');
    await spinner.ready;
    expect(io.err()).toContain('Searching');
    spinner.update('Page 2 of 3');
    spinner.succeed('Found 42 creators');
    expect(io.err().endsWith('✔ Found 42 creators\n')).toBe(true);
    expect(io.err()).not.toContain('\x1b[3'); // no colour codes with colour off
    expect(io.out()).toBe('');
    const before = io.err();
    spinner.fail('ignored after the end');
    expect(io.err()).toBe(before);
  });

  it('shows nothing when stopped before ora has loaded, but still prints a final line', async () => {
    const io = memoryTerminal({ stderrIsTTY: true });
    const quick = createSpinner(io, on, 'Quick');
    quick.stop();
    await quick.ready;
    expect(io.err()).toBe('');
    const failed = createSpinner(io, { quiet: false, color: true, unicode: true }, 'Uploading');
    failed.fail();
    await failed.ready;
    expect(io.err()).toBe('\x1b[31m✖\x1b[39m Uploading\n');
  });
});

describe('the drawing rule (lib/io/charset.ts)', () => {
  it('ASCII (a locale that is not UTF-8, or none): line frames and ASCII marks', async () => {
    const io = memoryTerminal({ stderrIsTTY: true });
    const spinner = createSpinner(io, { quiet: false, color: false, unicode: false }, 'Searching');
    await spinner.ready;
    spinner.succeed('Found 3');
    const failed = createSpinner(io, { quiet: false, color: false, unicode: false }, 'Uploading');
    failed.fail();
    expect(io.err()).not.toMatch(/[^\x00-\x7f]/);
    expect(io.err()).toContain('ok Found 3\n');
    expect(io.err().endsWith('x Uploading\n')).toBe(true);
  });

  it('no cursor control (TERM=dumb): no frames and no escape sequence, only the final line', async () => {
    const io = memoryTerminal({ stderrIsTTY: true });
    const spinner = createSpinner(io, { quiet: false, color: false, unicode: true, cursor: false }, 'Searching');
    await spinner.ready;
    spinner.update('Page 2');
    spinner.succeed('Found 3');
    expect(io.err()).toBe('✔ Found 3\n');
  });
});

describe('a terminal that reports a width of 0', () => {
  it('gets no animation (ora would loop forever), only the final line', async () => {
    const { PassThrough } = await import('node:stream');
    const stderr = Object.assign(new PassThrough(), { columns: 0, isTTY: true });
    let text = '';
    stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const io = {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr,
      stdinIsTTY: true,
      stdoutIsTTY: true,
      stderrIsTTY: true,
    };
    const spinner = createSpinner(io, { quiet: false, color: false, unicode: true }, 'Polling');
    await spinner.ready;
    spinner.update('50%');
    spinner.succeed('done');
    expect(text).toBe('✔ done\n');
  });
});
