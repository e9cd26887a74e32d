import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Terminal } from '../../../src/lib/io/terminal.js';
import type { Io } from '../../../src/lib/io/streams.js';
import { confirm } from '../../../src/lib/io/prompt.js';
import { UsageError } from '../../../src/lib/errors.js';

function ctxWith(stdin: string | undefined, tty: boolean, yes = false): { ctx: Terminal; stderr: () => string } {
  const err = new PassThrough();
  let text = '';
  err.on('data', (c: Buffer) => (text += c.toString()));
  const io: Io = {
    stdin: Readable.from(stdin === undefined ? [] : [stdin]),
    stdout: new PassThrough(),
    stderr: err,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
  };
  return { ctx: new Terminal(io, { quiet: false, color: false, debug: false, yes, cwd: '/' }), stderr: () => text };
}

describe('confirm', () => {
  it('--yes answers without asking', async () => {
    const { ctx, stderr } = ctxWith(undefined, false, true);
    expect(await confirm(ctx, 'Delete list 4?')).toBe(true);
    expect(stderr()).toBe('');
  });

  it('without a terminal it refuses with a usage error instead of hanging', async () => {
    const { ctx } = ctxWith('y\n', false);
    await expect(confirm(ctx, 'Delete list 4?')).rejects.toBeInstanceOf(UsageError);
    await expect(confirm(ctx, 'Delete list 4?')).rejects.toThrow(/Confirmation needed: Delete list 4\?/);
  });

  it('on a terminal, y confirms and anything else declines', async () => {
    const yes = ctxWith('y\n', true);
    expect(await confirm(yes.ctx, 'Delete list 4?')).toBe(true);
    expect(yes.stderr()).toBe('Delete list 4? [y/N] ');
    expect(await confirm(ctxWith('\n', true).ctx, 'Delete?')).toBe(false);
    expect(await confirm(ctxWith('nope\n', true).ctx, 'Delete?')).toBe(false);
  });
});

describe('confirm at end of input', () => {
  it('treats Ctrl-D (end of input, no answer) as no instead of hanging', async () => {
    const { ctx } = ctxWith('', true);
    expect(await confirm(ctx, 'Delete?')).toBe(false);
  });
});
