import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/lib/context.js';
import type { Deps } from '../../src/lib/deps.js';
import { confirm } from '../../src/lib/prompt.js';
import { UsageError } from '../../src/lib/errors.js';

function ctxWith(stdin: string | undefined, tty: boolean, yes = false): { ctx: Context; stderr: () => string } {
  const err = new PassThrough();
  let text = '';
  err.on('data', (c: Buffer) => (text += c.toString()));
  const deps: Deps = {
    io: { stdin: Readable.from(stdin === undefined ? [] : [stdin]), stdout: new PassThrough(), stderr: err, stdinIsTTY: tty, stdoutIsTTY: tty, stderrIsTTY: tty },
    env: {},
    cwd: '/',
    now: () => 0,
    sleep: async () => {},
  };
  return { ctx: new Context(deps, { yes }), stderr: () => text };
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
