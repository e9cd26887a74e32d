import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli, type RunOptions } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp.js';

export { tempDir };

export const T0 = Date.parse('2026-11-22T10:00:00Z');

/** A clock shared by the sandbox (`now`) and the CLI (`now` + `onSleep`): CLI sleeps move sandbox time. */
export interface TestClock {
  t: number;
  now: () => number;
  advance: (ms: number) => void;
}

export function testClock(): TestClock {
  const c: TestClock = {
    t: T0,
    now: () => c.t,
    advance: (ms: number) => {
      c.t += ms;
    },
  };
  return c;
}

/** Writes a CSV file from lines and returns its path. */
export function writeCsv(dir: string, name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Uploads `values` as a one-column handle CSV through the CLI and returns the batch id it printed. */
export async function uploadHandles(
  opts: RunOptions,
  values: string[],
  flags = ['--mode', 'raw', '--platform', 'instagram'],
): Promise<string> {
  const file = writeCsv(tempDir(), 'in.csv', ['handle', ...values]);
  const res = await runCli(['batch', 'upload', file, ...flags], opts);
  expect(res.code).toBe(0);
  return res.stdout.trim();
}
