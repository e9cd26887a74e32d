import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

/**
 * A tiny file system to fill up: a tmpfs of `kb` KiB mounted on a fresh folder. Needs root and a
 * kernel that lets this process mount tmpfs; otherwise `reason` says why there is none, for the test
 * title (a skipped test names what it needs).
 */
export interface TinyDisk {
  dir: string;
  unmount(): void;
}

let probe: string | undefined | null = null;

/** Why a tmpfs cannot be mounted here, or undefined when it can (probed once per test file). */
export function tinyDiskUnavailable(): string | undefined {
  if (probe !== null) return probe;
  if (process.getuid?.() !== 0) return (probe = 'needs root to mount a tiny tmpfs');
  try {
    const disk = mountTinyDisk(8);
    disk.unmount();
    probe = undefined;
  } catch (err) {
    probe = `cannot mount tmpfs here (${(err as Error).message.split('\n')[0]})`;
  }
  return probe;
}

/** Mounts a tmpfs of `kb` KiB on a new folder under the test run's temp root. */
export function mountTinyDisk(kb: number): TinyDisk {
  const dir = join(tempDir('creators-disk-'), 'mnt');
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', dir], { stdio: 'pipe' });
  return {
    dir,
    unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** `/dev/full` (every write fails with ENOSPC), or why it is missing. */
export function devFullUnavailable(): string | undefined {
  return existsSync('/dev/full') ? undefined : 'no /dev/full on this system';
}
