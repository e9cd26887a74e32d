import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { formatFromPath, openSink, OutputFileError } from '../../../src/lib/output/sink.js';
import { memoryIo } from './memory-io.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'creators-sink-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('formatFromPath', () => {
  it('maps extensions to formats, case-insensitively', () => {
    expect(formatFromPath('out.csv')).toBe('csv');
    expect(formatFromPath('dir.d/OUT.TSV')).toBe('tsv');
    expect(formatFromPath('a.json')).toBe('json');
    expect(formatFromPath('a.jsonl')).toBe('jsonl');
    expect(formatFromPath('a.ndjson')).toBe('jsonl');
    expect(formatFromPath('a.txt')).toBeUndefined();
    expect(formatFromPath('noext')).toBeUndefined();
    expect(formatFromPath('dir.csv/file')).toBeUndefined();
    expect(formatFromPath('.csv')).toBeUndefined();
  });
});

describe('openSink to stdout', () => {
  it('writes to io.stdout and leaves it open on commit and abort', async () => {
    const io = memoryIo();
    const sink = await openSink(io, {});
    expect(sink.stream).toBe(io.stdout);
    await sink.write('hello\n');
    await sink.commit();
    await sink.abort();
    expect(io.stdout.writableEnded).toBe(false);
    expect(io.out()).toBe('hello\n');
  });

  it('waits for drain when the stream is full, and keeps every byte in order', async () => {
    const io = memoryIo({ highWaterMark: 16 });
    io.stdout.pause(); // nobody reads: the buffer fills and write() must wait
    const sink = await openSink(io, {});
    const first = sink.write('x'.repeat(64));
    let resolved = false;
    void first.then(() => (resolved = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resolved).toBe(false);
    io.stdout.resume();
    await first;
    for (let i = 0; i < 100; i++) await sink.write(`${i}\n`);
    await sink.commit();
    expect(io.out()).toBe('x'.repeat(64) + Array.from({ length: 100 }, (_, i) => `${i}\n`).join(''));
  });

  it('rejects instead of hanging when the stream is destroyed while waiting', async () => {
    const io = memoryIo({ highWaterMark: 4 });
    io.stdout.pause();
    const sink = await openSink(io, {});
    const pending = sink.write('a lot more than four bytes');
    io.stdout.destroy(new Error('EPIPE'));
    await expect(pending).rejects.toThrow('EPIPE');
  });
});

describe('openSink to a file', () => {
  const entries = (): string[] => fs.readdirSync(dir).sort();

  it('writes a temporary file beside the target and renames it on commit', async () => {
    const target = path.join(dir, 'out.csv');
    const io = memoryIo();
    const sink = await openSink(io, { outputPath: target });
    await sink.write('a,b\n');
    const [temp] = entries();
    expect(temp).toMatch(/^\.out\.csv\.\d+\.[0-9a-f]+\.tmp$/);
    expect(fs.existsSync(target)).toBe(false);
    await sink.write('1,2\n');
    await sink.commit();
    expect(entries()).toEqual(['out.csv']);
    expect(fs.readFileSync(target, 'utf8')).toBe('a,b\n1,2\n');
    expect(io.out()).toBe('');
  });

  it('abort deletes the temporary file and leaves an existing target untouched', async () => {
    const target = path.join(dir, 'out.json');
    fs.writeFileSync(target, 'previous');
    const sink = await openSink(memoryIo(), { outputPath: target });
    await sink.write('half a fi');
    await sink.abort();
    await sink.abort(); // twice is harmless
    expect(entries()).toEqual(['out.json']);
    expect(fs.readFileSync(target, 'utf8')).toBe('previous');
  });

  it('replaces an existing target on commit, keeping its permissions', async () => {
    const target = path.join(dir, 'out.json');
    fs.writeFileSync(target, 'previous');
    fs.chmodSync(target, 0o640);
    const sink = await openSink(memoryIo(), { outputPath: target });
    await sink.write('new');
    await sink.commit();
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
    expect(fs.statSync(target).mode & 0o777).toBe(0o640);
    expect(entries()).toEqual(['out.json']);
  });

  it('writes large outputs completely', async () => {
    const target = path.join(dir, 'big.jsonl');
    const sink = await openSink(memoryIo(), { outputPath: target });
    const line = `${JSON.stringify({ text: 'y'.repeat(1000) })}\n`;
    for (let i = 0; i < 2000; i++) await sink.write(line);
    await sink.commit();
    expect(fs.statSync(target).size).toBe(line.length * 2000);
  });

  it('fails with a message naming the path when the folder does not exist', async () => {
    const target = path.join(dir, 'no', 'such', 'out.csv');
    const err = await openSink(memoryIo(), { outputPath: target }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutputFileError);
    expect((err as OutputFileError).message).toBe(`cannot write ${target}: no such directory`);
    expect((err as OutputFileError).code).toBe('ENOENT');
    expect((err as OutputFileError).path).toBe(target);
  });

  it('fails with a clear message when the folder is not writable', async () => {
    const locked = path.join(dir, 'locked');
    fs.mkdirSync(locked, 0o500);
    const target = path.join(locked, 'out.csv');
    let probe = true;
    try {
      fs.writeFileSync(path.join(locked, 'probe'), ''); // root ignores permissions
    } catch {
      probe = false;
    }
    if (probe) return;
    await expect(openSink(memoryIo(), { outputPath: target })).rejects.toThrow(
      `cannot write ${target}: permission denied`,
    );
  });

  it('fails on commit when the target is a directory, and cleans up the temporary file', async () => {
    const target = path.join(dir, 'taken');
    fs.mkdirSync(target);
    const sink = await openSink(memoryIo(), { outputPath: target });
    await sink.write('data');
    await expect(sink.commit()).rejects.toThrow(`cannot write ${target}`);
    expect(entries()).toEqual(['taken']);
  });
});
