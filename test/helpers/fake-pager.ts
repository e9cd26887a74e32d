import { Writable } from 'node:stream';
import type { PagerProcess, StartPager } from '../../src/lib/io/pager-process.js';

export interface FakePager {
  start: StartPager;
  /** Each start: the command line and the environment it was given. */
  calls: { command: string; env: Record<string, string | undefined> }[];
  /** Everything the pagers were given, in order. */
  text(): string;
  /** How many pagers have exited. */
  exits(): number;
}

export interface FakePagerOptions {
  /** The user quits once this many characters were shown: further writes fail with EPIPE, as from a real pager. */
  quitAfter?: number;
  /** Starting fails as for a program that is not installed. */
  notFound?: boolean;
}

/** A pager double for `Deps.startPager`: collects what would have been paged. */
export function fakePager(options: FakePagerOptions = {}): FakePager {
  const calls: FakePager['calls'] = [];
  let text = '';
  let exits = 0;
  const start: StartPager = async (command, env) => {
    calls.push({ command, env });
    if (options.notFound) throw Object.assign(new Error(`${command}: not found`), { code: 'ENOENT' });
    let exit!: () => void;
    let quit = false;
    const exited = new Promise<void>((resolve) => {
      exit = () => {
        if (quit) return;
        quit = true;
        exits++;
        resolve();
      };
    });
    const stdin = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        if (quit) {
          callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
          return;
        }
        text += chunk.toString('utf8');
        if (options.quitAfter !== undefined && text.length >= options.quitAfter) exit();
        // A pipe takes the chunk; it is the next write that meets the closed end.
        callback();
      },
      final(callback) {
        exit();
        callback();
      },
    });
    return { stdin, exited } satisfies PagerProcess;
  };
  return { start, calls, text: () => text, exits: () => exits };
}
