/**
 * `enrich handle --input` with the store on reads the file twice: the pass before the money gate (count,
 * check, rows the store holds) and the run; it was three (a separate pass for the store's count). The input
 * is a FIFO the test refills each time it is opened, so every read is counted.
 */
import { spawnSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';
import { csvObjects } from './helpers.js';

const sb = useSandbox({ seed: 37, credits: 1000 });

/** Serves `text` to each reader that opens `fifo` until stopped; counts the opens. */
function serveFifo(fifo: string, text: string): { opens: () => number; stop: () => Promise<void> } {
  let opens = 0;
  let stopped = false;
  // A failed look counts as held: a reader served twice would be counted twice.
  const readerHolds = async (): Promise<boolean> => {
    let fds: string[];
    try {
      fds = await readdir('/proc/self/fd');
    } catch {
      return true;
    }
    for (const fd of fds) {
      const target = await readlink(`/proc/self/fd/${fd}`).catch((err: NodeJS.ErrnoException) =>
        err.code === 'ENOENT' ? '' : fifo,
      );
      if (target === fifo) return true;
    }
    return false;
  };
  const loop = (async () => {
    while (!stopped) {
      // Non-blocking: succeeds only while a reader has the FIFO open (ENXIO otherwise), so no thread waits.
      const handle = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
      if (!handle) {
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      opens++;
      await handle.writeFile(text);
      await handle.close();
      // The same reader is not served twice: wait until it has closed its end.
      while (!stopped && (await readerHolds())) await new Promise((r) => setTimeout(r, 2));
    }
  })();
  return {
    opens: () => opens,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

it('the input is read twice, store on, first run and a run the store answers alike', async () => {
  const dir = tempDir('creators-passes-');
  const fifo = join(dir, 'in.csv');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  const handles = creatorHandles(sb.get(), 5);
  const served = serveFifo(fifo, `handle,note\n${handles.map((h, i) => `${h},row ${i}`).join('\n')}\n`);
  const configDir = tempDir('creators-passes-config-');
  const args = [
    'enrich',
    'handle',
    '--platform',
    'instagram',
    '--mode',
    'raw',
    '--input',
    fifo,
    '-o',
    join(dir, 'out.csv'),
  ];
  try {
    const first = await runCli(args, { env: sandboxEnv(sb.get()), configDir });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(served.opens()).toBe(2);
    expect(csvObjects(await readFile(join(dir, 'out.csv'), 'utf8')).map((r) => [r.handle, r.source])).toEqual(
      handles.map((h) => [h, 'api']),
    );
    const again = await runCli(args, { env: sandboxEnv(sb.get()), configDir, stderrTTY: true });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('5 of 5 rows from the store');
    expect(served.opens()).toBe(4);
    expect(csvObjects(await readFile(join(dir, 'out.csv'), 'utf8')).map((r) => r.source)).toEqual(
      handles.map(() => 'store'),
    );
  } finally {
    await served.stop();
  }
  expect(sb.get().state.ledger.charges).toHaveLength(5);
});
