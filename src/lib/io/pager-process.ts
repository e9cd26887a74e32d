import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';

export interface PagerProcess {
  stdin: Writable;
  exited: Promise<void>;
}

/** Rejects with `code: 'ENOENT'` when the program cannot be found or started. */
export type StartPager = (command: string, env: Record<string, string | undefined>) => Promise<PagerProcess>;

// The first word of a plain command line is looked up on PATH first: through the shell, a missing program would only
// be its "not found" and exit 127, after we had written to it. Shell syntax in the first word is left to the shell.
export async function spawnPager(command: string, env: Record<string, string | undefined>): Promise<PagerProcess> {
  const program = programOf(command);
  if (program !== undefined && !findProgram(program, env.PATH ?? '')) {
    throw Object.assign(new Error(`${program}: not found`), { code: 'ENOENT' });
  }
  const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: env as NodeJS.ProcessEnv });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
  // EPIPE when the user quits early is reported through the sink's writes, not as a crash.
  child.stdin?.on('error', () => {});
  if (!child.stdin) throw new Error('the pager has no standard input');
  return { stdin: child.stdin, exited };
}

function programOf(command: string): string | undefined {
  const match = /^\s*([^\s'"\\$`|&;<>()*?[\]{}~=#]+)(\s|$)/.exec(command);
  return match?.[1];
}

function findProgram(program: string, pathList: string): boolean {
  const candidates = program.includes('/')
    ? [program]
    : pathList.split(path.delimiter).map((dir) => path.join(dir || '.', program));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}
