import { afterAll, beforeAll } from 'vitest';

/** Runs a file's tests in one time zone (terminal times and local calendar days read the process's TZ), then restores it. */
export function useTimeZone(zone: string): void {
  const saved = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
}
