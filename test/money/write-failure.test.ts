import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { devFullUnavailable, mountTinyDisk, tinyDiskUnavailable, type TinyDisk } from '../helpers/full-disk.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { ledgerMark } from '../reliability/helpers.js';

/**
 * A write that fails after money was spent (a full disk, `> /dev/full`): exit 1, one clear line naming
 * the destination and the system's words, the spend of this run, and no file that looks complete.
 * The built CLI is spawned so the real process streams are in play.
 */
const sb = useSandbox({ seed: 41, credits: 100_000, dailyDiscoveryLimit: 100_000, rateLimit: 100_000 });
/** Fills the file system of `dir` to the last byte with `dir/filler`. */
function fill(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(1024, 120);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

const env = (): Record<string, string> => ({ ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: tempDir('creators-cfg-') });

/** Spawns the CLI with stdout going to /dev/full. */
function toDevFull(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env() },
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const noTmpfs = tinyDiskUnavailable();
describe.skipIf(noTmpfs !== undefined)(`-o on a full disk${noTmpfs ? ` (skipped: ${noTmpfs})` : ''}`, () => {
  let disk: TinyDisk;
  beforeAll(() => {
    disk = mountTinyDisk(64);
  });
  afterAll(() => disk?.unmount());
  beforeEach(() => {
    rmSync(join(disk.dir, 'filler'), { force: true });
    fill(disk.dir);
  });
  const left = (): string[] => readdirSync(disk.dir).filter((f) => f !== 'filler');

  it.each(['p.json', 'p.csv', 'p.jsonl'])(
    'search -o %s: exit 1, the disk named, the spend said, no file left',
    async (name) => {
      const mark = ledgerMark(sb.get());
      const target = join(disk.dir, name);
      const res = await spawnCli(['search', '--platform', 'instagram', '--limit', '50', '-o', target], env());
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`error: Cannot write ${target}: no space left on device.`);
      const charged = mark.since().milli;
      expect(charged).toBe(500);
      expect(res.stderr).toContain(`Spent 0.5 credits in this run; nothing kept, ${target} was not written.`);
      expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(left()).toEqual([]);
    },
  );

  it('enrich --input -o: exit 1, the paid rows kept in the store; after space is freed the re-run pays nothing again', async () => {
    const names = sb
      .get()
      .state.creators.list('instagram')
      .slice(0, 40)
      .map((c) => c.profile.username);
    const dir = tempDir('creators-full-in-');
    const input = join(dir, 'in.csv');
    writeFileSync(input, `handle\n${names.join('\n')}\n`);
    const e = env();
    const target = join(disk.dir, 'rows.csv');
    const args = ['enrich', 'handle', '--input', input, '--platform', 'instagram', '--mode', 'raw', '-o', target];
    const mark = ledgerMark(sb.get());
    const res = await spawnCli(args, e);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`Cannot write ${target}: no space left on device.`);
    expect(res.stderr).toMatch(
      /Spent [\d.,]+ credits? in this run; \d+ answered rows? kept in the store; re-run the same command/,
    );
    const paid = mark.since();
    expect(paid.milli).toBeGreaterThan(0);
    expect(left()).toEqual([]);
    rmSync(join(disk.dir, 'filler'));
    const again = await spawnCli(args, e);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/\d+ of 40 rows from the store/);
    // Every handle charged once over both runs.
    const notes = mark.since().notes;
    expect(new Set(notes).size).toBe(notes.length);
    expect(notes).toHaveLength(40);
    rmSync(target);
  });

  it('api (a billable POST) -o: exit 1, the request cost said, no file left', async () => {
    const handle = sb.get().state.creators.list('instagram')[1]!.profile.username;
    const target = join(disk.dir, 'raw.json');
    const mark = ledgerMark(sb.get());
    const res = await spawnCli(
      ['api', 'creators/enrich/handle/raw', '-f', `handle=${handle}`, '-f', 'platform=instagram', '-o', target],
      env(),
    );
    expect(res.code).toBe(1);
    expect(mark.since().milli).toBe(30);
    expect(res.stderr).toContain(`Cannot write ${target}: no space left on device.`);
    expect(res.stderr).toContain(`Spent 0.03 credits in this run; nothing kept, ${target} was not written.`);
    expect(left()).toEqual([]);
  });

  it('search --all -o: the run stops at the failed write instead of buying more pages', async () => {
    const mark = ledgerMark(sb.get());
    const res = await spawnCli(
      [
        'search',
        '--platform',
        'instagram',
        '--all',
        '--limit',
        '50',
        '--max-results',
        '1000',
        '-o',
        join(disk.dir, 'all.json'),
      ],
      env(),
    );
    expect(res.code).toBe(1);
    // The failed write ends the run within a few pages (writes are buffered, and the next page is
    // fetched while one is written), not after the 20 pages asked for.
    expect(mark.since().milli).toBeLessThanOrEqual(1500);
    expect(res.stderr).toMatch(/Spent [\d.,]+ credits? in this run; nothing kept/);
    expect(left()).toEqual([]);
  });
});

const noDevFull = devFullUnavailable();
describe.skipIf(noDevFull !== undefined)(`stdout to /dev/full${noDevFull ? ` (skipped: ${noDevFull})` : ''}`, () => {
  it('search > /dev/full: exit 1 with the reason and the spend', async () => {
    const res = await toDevFull(['search', '--platform', 'instagram', '--limit', '50']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: Cannot write to standard output: no space left on device.');
    expect(res.stderr).toMatch(/Spent 0\.5 credits in this run; the output to standard output is incomplete/);
  });

  it('post (one paid record) > /dev/full: exit 1, the request cost said', async () => {
    const res = await toDevFull(['post', 'C1a2B3c4D5e', '--platform', 'instagram']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: Cannot write to standard output: no space left on device.');
    expect(res.stderr).toContain('Spent 0.03 credits in this run; the output to standard output is incomplete.');
  });

  it('enrich handle (one paid record) > /dev/full: exit 1, the request cost said', async () => {
    const handle = sb.get().state.creators.list('instagram')[0]!.profile.username;
    const res = await toDevFull(['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: Cannot write to standard output: no space left on device.');
    expect(res.stderr).toContain('Spent 0.03 credits in this run; the output to standard output is incomplete.');
  });

  it('api (a billable POST) > /dev/full: exit 1, the request cost said', async () => {
    const handle = sb.get().state.creators.list('instagram')[2]!.profile.username;
    const res = await toDevFull([
      'api',
      'creators/enrich/handle/raw',
      '-f',
      `handle=${handle}`,
      '-f',
      'platform=instagram',
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: Cannot write to standard output: no space left on device.');
    expect(res.stderr).toContain('Spent 0.03 credits in this run; the output to standard output is incomplete.');
  });

  it('api (Discovery, charged per creator) --format csv > /dev/full: the creators returned are the spend', async () => {
    const res = await toDevFull([
      'api',
      'discovery',
      '-f',
      'platform=instagram',
      '-f',
      'paging.limit=20',
      '--format',
      'csv',
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Spent 0.2 credits in this run; the output to standard output is incomplete.');
  });

  it('api (a free GET) > /dev/full: exit 1, no spend line', async () => {
    const res = await toDevFull(['api', 'accounts/credits']);
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')[0]).toBe('error: Cannot write to standard output: no space left on device.');
    expect(res.stderr).not.toContain('Spent');
  });

  it('a free command (credits) > /dev/full: exit 1, one clear line, no stack', async () => {
    const res = await toDevFull(['credits']);
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')[0]).toBe('error: Cannot write to standard output: no space left on device.');
    expect(res.stderr).not.toContain('Spent');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('--json errors: one JSON object with code write_failed', async () => {
    const res = await toDevFull(['search', '--platform', 'instagram', '--limit', '5', '--json']);
    expect(res.code).toBe(1);
    const error = (JSON.parse(res.stderr.trim()) as { error: { code: string; spent: { credits: number } } }).error;
    expect(error.code).toBe('write_failed');
    expect(error.spent.credits).toBe(0.05);
  });
});
