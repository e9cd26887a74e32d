import { hostname } from 'node:os';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BusyError } from '../../../src/lib/errors.js';
import { runKey, RunJournal, RUNS_DIR, type RunIdentity } from '../../../src/lib/bulk/resume.js';
import { tempDir, tempFile } from '../../helpers/temp.js';

const now = (): number => Date.now();
const header = { kind: 'handle', input: 'in.csv', output: 'out.csv', created_at: '2026-01-01T00:00:00.000Z' };
const ok = (n: number) => ({ status: 'ok' as const, creditsMilli: 30, result: { n } });

async function journalWith(dir: string, rows: number[]): Promise<RunJournal> {
  const j = await RunJournal.read(dir, 'k', now);
  await j.open({ restart: false, header, now });
  await Promise.all(rows.map((i) => j.record(i, ok(i))));
  return j;
}

describe('RunJournal', () => {
  it('keeps answered rows across runs, read back by index; the file is private', async () => {
    const dir = tempDir('creators-journal-');
    const first = await journalWith(dir, [0, 2, 5]);
    await first.close();
    expect(statSync(join(dir, RUNS_DIR, 'k.jsonl')).mode & 0o777).toBe(0o600);
    const again = await RunJournal.read(dir, 'k', now);
    expect(again.doneCount()).toBe(3);
    expect(again.doneCount(3)).toBe(2);
    expect([0, 1, 2].map((i) => again.has(i))).toEqual([true, false, true]);
    await again.open({ restart: false, header, now });
    expect(await again.row(5)).toEqual(ok(5));
    await again.remove();
    expect((await RunJournal.read(dir, 'k', now)).doneCount()).toBe(0);
  });

  it('a line torn by a crash mid-append is cut off before the next append', async () => {
    const dir = tempDir('creators-journal-');
    await (await journalWith(dir, [0, 1])).close();
    const file = join(dir, RUNS_DIR, 'k.jsonl');
    appendFileSync(file, '{"i":2,"status":"ok","credits_mi');
    const j = await RunJournal.read(dir, 'k', now);
    expect(j.doneCount()).toBe(2);
    await j.open({ restart: false, header, now });
    await j.record(3, ok(3));
    await j.close();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { i?: number });
    expect(lines.map((l) => l.i)).toEqual([undefined, 0, 1, 3]);
  });

  it('--restart forgets the earlier answers', async () => {
    const dir = tempDir('creators-journal-');
    await (await journalWith(dir, [0, 1])).close();
    const j = await RunJournal.read(dir, 'k', now);
    await j.open({ restart: true, header, now });
    expect(j.has(0)).toBe(false);
    await j.close();
    expect((await RunJournal.read(dir, 'k', now)).doneCount()).toBe(0);
  });

  it('refuses (exit 9) while a live process holds it; takes over the lock of a dead one', async () => {
    const dir = tempDir('creators-journal-');
    mkdirSync(join(dir, RUNS_DIR), { recursive: true });
    const lockOf = (pid: number): string => `${JSON.stringify({ id: `t${pid}`, pid, host: hostname(), since: new Date().toISOString() })}\n`;
    writeFileSync(join(dir, RUNS_DIR, 'k.lock'), lockOf(process.ppid));
    const err = await (await RunJournal.read(dir, 'k', now)).open({ restart: false, header, now }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BusyError);
    expect((err as BusyError).exitCode).toBe(9);
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeFileSync(join(dir, RUNS_DIR, 'k.lock'), lockOf(dead));
    const j = await RunJournal.read(dir, 'k', now);
    await j.open({ restart: false, header, now });
    expect((JSON.parse(readFileSync(join(dir, RUNS_DIR, 'k.lock'), 'utf8')) as { pid: number }).pid).toBe(process.pid);
    await j.close();
  });
});

describe('runKey', () => {
  it('changes with the input file, the options and the output, and not otherwise', async () => {
    const { path } = tempFile('in.csv', 'handle\na\n');
    const id: RunIdentity = { kind: 'handle', request: { mode: 'raw', platform: 'instagram' }, values: [], inputPath: path, column: 'handle', columnIndex: 0, outputPath: '/x/out.csv', baseUrl: 'http://a/', profile: 'default' };
    const key = await runKey(id);
    expect(await runKey({ ...id })).toBe(key);
    expect(await runKey({ ...id, request: { mode: 'full', platform: 'instagram' } })).not.toBe(key);
    expect(await runKey({ ...id, outputPath: undefined })).not.toBe(key);
    appendFileSync(path, 'b\n');
    expect(await runKey(id)).not.toBe(key);
    const args = { ...id, inputPath: undefined, values: ['a', 'b'] };
    expect(await runKey(args)).toBe(await runKey({ ...args, values: ['a', 'b'] }));
    expect(await runKey(args)).not.toBe(await runKey({ ...args, values: ['a', 'c'] }));
  });
});
