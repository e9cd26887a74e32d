import { PassThrough } from 'node:stream';
import { main } from '../../../src/main.js';
import type { Deps } from '../../../src/app/deps.js';

/**
 * Runs the CLI in-process with a stdin the test writes to while the command runs (the pasted
 * redirect of `login --no-browser`), and a way to wait for text on stderr.
 */
export function runInteractive(argv: string[], options: { env: Record<string, string>; configDir: string }) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => {
    err += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  const deps: Deps = {
    io: { stdin, stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, columns: 100 },
    env: { HOME: '/nonexistent-home', ...options.env },
    cwd: process.cwd(),
    now: () => Date.now(),
    sleep: async () => {},
    configDir: options.configDir,
  };
  const done = main(argv, deps);
  return {
    stdin,
    done,
    stdout: () => out,
    stderr: () => err,
    /** Resolves with the first match of `pattern` on stderr. */
    async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      for (;;) {
        const m = pattern.exec(err);
        if (m) return m;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}
