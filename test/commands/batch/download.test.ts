import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open, unlink } from 'node:fs/promises';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { batchWorld, configureBatch } from '../../../src/sandbox/batch/jobs.js';
import { resultsCsv } from '../../../src/sandbox/batch/files.js';
import { runCli, type RunOptions } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir, testClock, writeCsv } from './helpers.js';

const clock = testClock();
const sb = useSandbox({ now: clock.now, credits: 10_000, batchRowsPerSecond: 1000 });
const opts = (extra: RunOptions = {}): RunOptions => ({
  env: sandboxEnv(sb.get()),
  now: clock.now,
  onSleep: clock.advance,
  ...extra,
});
const world = () => batchWorld(sb.get().state);

async function finishedBatch(values: string[]): Promise<string> {
  const file = writeCsv(tempDir(), 'in.csv', ['handle', ...values]);
  const up = await runCli(['batch', 'upload', file, '--mode', 'raw', '--platform', 'instagram'], opts());
  const id = up.stdout.trim();
  expect((await runCli(['batch', 'poll', id, '--interval', '5'], opts())).code).toBe(0);
  return id;
}
const expected = (id: string): string => resultsCsv(world().jobs.get(id)!).toString();
/** 200 of the sandbox's creators (made-up handles are not found: their rows would be empty). */
const values = (): string[] => creatorHandles(sb.get(), 200);

beforeEach(() => {
  configureBatch(sb.get().state, {
    downloadRoute: true,
    dropDownloads: 0,
    dropAfterBytes: null,
    rangeRequests: true,
    downloadTtlSeconds: 300,
  });
  world().fileRequests.length = 0;
});

describe('creators batch download', () => {
  it('an upload whose column is guessed says which flag names it (a dry run: nothing is created)', async () => {
    const file = writeCsv(tempDir(), 'who.csv', ['who,n', 'ann,1', 'bob,2']);
    const jobs = world().jobs.size;
    const res = await runCli(
      ['batch', 'upload', file, '--mode', 'raw', '--platform', 'instagram', '--dry-run'],
      opts(),
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.replace(/\s+/g, ' ')).toContain(
      'No handle column recognised in ' + file + ": using the first column, 'who'. Name the right one with --column.",
    );
    expect(world().jobs.size).toBe(jobs);
  });

  it('results come as csv or json: another --format is refused before anything is sent (exit 2)', async () => {
    const before = world().fileRequests.length;
    const res = await runCli(['batch', 'download', 'bch_123', '--format', 'tsv'], opts());
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("error: Batch results come as csv or json, not 'tsv'.");
    expect(res.stderr).toContain('Use --format csv or --json.');
    expect(world().fileRequests.length).toBe(before);
  });

  it('streams the CSV from the download URL (another origin, no Authorization header) to an atomic file', async () => {
    const id = await finishedBatch(values());
    const dir = tempDir();
    const res = await runCli(['batch', 'download', id, '-o', join(dir, 'out.csv')], opts());
    expect(res.code).toBe(0);
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(expected(id));
    expect(res.stderr).toContain('via the download URL');
    expect(world().fileRequests.length).toBe(1);
    expect(world().fileRequests[0]!.headers.authorization).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('does not pace the request to the file host behind the API request that fetched its link', async () => {
    const id = await finishedBatch(['one', 'two']);
    const sleeps: number[] = [];
    // At 10 requests/min (no burst) API requests leave ~6 s apart; the presigned file host is not the API.
    const env = { ...sandboxEnv(sb.get()), CREATORS_RATE_LIMIT: '10' };
    const res = await runCli(['batch', 'download', id, '-o', join(tempDir(), 'out.csv')], opts({ sleeps, env }));
    expect(res.code).toBe(0);
    expect(world().fileRequests.length).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('the file is atomic but the download does not wait for the disk (no fsync: the service keeps the results)', async () => {
    const id = await finishedBatch(values());
    const dir = tempDir();
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void>; datasync: () => Promise<void> };
    await probe.close();
    await unlink(join(dir, 'probe'));
    const sync = vi.spyOn(proto, 'sync');
    const datasync = vi.spyOn(proto, 'datasync');
    try {
      const res = await runCli(['batch', 'download', id, '-o', join(dir, 'out.csv')], opts());
      expect(res.code).toBe(0);
      expect(sync).not.toHaveBeenCalled();
      expect(datasync).not.toHaveBeenCalled();
    } finally {
      sync.mockRestore();
      datasync.mockRestore();
    }
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(expected(id));
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('writes CSV to stdout without -o', async () => {
    const id = await finishedBatch(['one', 'two']);
    const res = await runCli(['batch', 'download', id], opts());
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(expected(id));
  });

  it('JSON through ?format=json, from --json or a .json file name', async () => {
    const id = await finishedBatch(['alpha', 'notfound_x']);
    const dir = tempDir();
    const res = await runCli(['batch', 'download', id, '-o', join(dir, 'r.json')], opts());
    expect(res.code).toBe(0);
    const rows = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(rows[1]).toEqual({ input_value: 'notfound_x', status: 'not_found', enrichment_data: null });
    const piped = await runCli(['batch', 'download', id, '--json'], opts());
    expect(JSON.parse(piped.stdout)).toEqual(rows);
    expect(world().fileRequests.length).toBe(0);
    const table = await runCli(['batch', 'download', id, '--format', 'tsv'], opts());
    expect(table.code).toBe(2);
  });

  it('falls back to the result route when /download/ is missing (404)', async () => {
    const id = await finishedBatch(values().slice(0, 10));
    configureBatch(sb.get().state, { downloadRoute: false });
    const dir = tempDir();
    const res = await runCli(['batch', 'download', id, '-o', join(dir, 'out.csv')], opts());
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('using the result route instead');
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(expected(id));
  });

  it('resumes a download cut mid-stream with a Range request', async () => {
    const id = await finishedBatch(values());
    configureBatch(sb.get().state, { dropDownloads: 1, dropAfterBytes: 1000 });
    const dir = tempDir();
    const res = await runCli(['batch', 'download', id, '-o', join(dir, 'out.csv')], opts());
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('resuming at byte 1000');
    expect(world().fileRequests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=1000-']);
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(expected(id));
  });

  it('restarts from zero when the host cannot resume, leaving no partial file', async () => {
    const id = await finishedBatch(values());
    configureBatch(sb.get().state, { dropDownloads: 2, rangeRequests: false });
    const dir = tempDir();
    const res = await runCli(['batch', 'download', id, '-o', join(dir, 'out.csv')], opts());
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('restarting from the beginning');
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(expected(id));
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('a download that keeps failing exits 1 and leaves no file at all', async () => {
    const id = await finishedBatch(values());
    configureBatch(sb.get().state, { dropDownloads: 10, rangeRequests: false });
    const dir = tempDir();
    const res = await runCli(['batch', 'download', id, '-o', join(dir, 'out.csv')], opts());
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`Download of batch ${id} failed`);
    expect(res.stderr).toContain('No partial file was left');
    // The dropped connection in words, not Node's or undici's ("aborted", UND_ERR_SOCKET).
    expect(res.stderr).toMatch(
      /failed: the connection to 127\.0\.0\.1:\d+ (was reset|closed) before the response was complete\./,
    );
    expect(res.stderr).not.toMatch(/\baborted\b|UND_ERR|ECONNRESET/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('asks for a new URL when the old one has expired', async () => {
    const id = await finishedBatch(values());
    // The first transfer is cut; the retry's back-off (not the pacer's short waits) outlasts the link.
    configureBatch(sb.get().state, { dropDownloads: 1, downloadTtlSeconds: 1 });
    const dir = tempDir();
    const res = await runCli(
      ['batch', 'download', id, '-o', join(dir, 'out.csv')],
      opts({ onSleep: (ms) => clock.advance(ms >= 250 ? ms + 5000 : ms) }),
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('has expired; asking for a new one');
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(expected(id));
    const paths = new Set(world().fileRequests.map((r) => r.path));
    expect(paths.size).toBe(2);
  });

  it('refuses results that are not ready (exit 1) and writes nothing', async () => {
    const file = writeCsv(tempDir(), 'in.csv', ['handle', 'x']);
    const id = (
      await runCli(['batch', 'upload', file, '--mode', 'raw', '--platform', 'instagram'], opts())
    ).stdout.trim();
    const dir = tempDir();
    const res = await runCli(['batch', 'download', id, '-o', join(dir, 'out.csv')], opts());
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('not ready (status: validating)');
    expect(existsSync(join(dir, 'out.csv'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('Ctrl-C during a download leaves no partial file (exit 130)', async () => {
    const id = await finishedBatch(values());
    configureBatch(sb.get().state, { dropDownloads: 1 });
    const controller = new AbortController();
    const dir = tempDir();
    const res = await runCli(
      ['batch', 'download', id, '-o', join(dir, 'out.csv')],
      opts({ signal: controller.signal, onSleep: () => controller.abort() }),
    );
    expect(res.code).toBe(130);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('streams a large result to disk', async () => {
    // Every Instagram creator of the sandbox (12,000; the upload drops repeated values).
    const many = creatorHandles(sb.get(), 12_000);
    const id = await finishedBatch(many);
    const dir = tempDir();
    const res = await runCli(['batch', 'download', id, '-o', join(dir, 'big.csv')], opts());
    expect(res.code).toBe(0);
    const text = readFileSync(join(dir, 'big.csv'), 'utf8');
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text.trimEnd().split('\n')).toHaveLength(12_001);
    expect(text).toBe(expected(id));
  });

  it('--dry-run prints the first request instead of downloading: no results file, nothing fetched', async () => {
    const id = await finishedBatch(['dry1', 'dry2']);
    const dir = tempDir();
    const json = await runCli(['batch', 'download', id, '--dry-run', '--json'], opts());
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      dry_run: true,
      method: 'GET',
      url: expect.stringContaining(`/public/v1/enrichment/batch/${id}/?format=json`),
      worst_case_credits: 0,
    });
    const res = await runCli(['batch', 'download', id, '--dry-run', '-o', join(dir, 'out.csv')], opts());
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    // -o receives the plan (as any dry run's), not results.
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toContain(
      `Dry run: nothing was sent.\nGET ${sandboxEnv(sb.get()).CREATORS_BASE_URL}/public/v1/enrichment/batch/${id}/download/\n`,
    );
    expect(world().fileRequests.length).toBe(0);
  });
});
