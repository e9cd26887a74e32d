import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PagerClosedError } from '../../../src/lib/errors.js';
import { spawnPager } from '../../../src/lib/io/pager-process.js';
import { pagedOutput } from '../../../src/lib/output/pager.js';
import { tempDir } from '../../helpers/temp.js';
import { memoryTerminal } from '../../helpers/terminal.js';

const env = { PATH: process.env.PATH };

describe('spawnPager (the production pager starter)', () => {
  it('runs the command line through the shell, with the environment given; resolves its exit', async () => {
    const out = join(tempDir('creators-pager-'), 'paged.txt');
    const pager = await spawnPager('cat > "$PAGED_TO"', { ...env, PAGED_TO: out });
    pager.stdin.end('hello\nworld\n');
    await pager.exited;
    expect(readFileSync(out, 'utf8')).toBe('hello\nworld\n');
  });

  it("a program not on PATH is ENOENT before anything is written (not the shell's exit 127)", async () => {
    const err = await spawnPager('creators-no-such-pager -x', env).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('ENOENT');
    const path = await spawnPager('/nonexistent/bin/less -R', env).catch((e: unknown) => e);
    expect((path as { code?: string }).code).toBe('ENOENT');
  });

  it('a pager that exits while output still streams in: the next write is PagerClosedError (EPIPE taken quietly)', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const paged = pagedOutput(
      io,
      { command: 'head -c 10 > /dev/null', env, start: spawnPager, chosen: true, streamAfterBytes: 1 },
      async () => {
        throw new Error('not direct');
      },
    );
    const line = `${'x'.repeat(1023)}\n`;
    let err: unknown;
    for (let i = 0; i < 100_000 && err === undefined; i++) await paged.write(line).catch((e: unknown) => (err = e));
    expect(err).toBeInstanceOf(PagerClosedError);
    await expect(paged.commit()).resolves.toBeUndefined();
    expect(io.err()).toBe('');
  });
});
