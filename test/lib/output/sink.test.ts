import fs from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { openSink, OutputFileError, writeChunk } from '../../../src/lib/output/sink.js';
import { formatFromPath } from '../../../src/lib/output/format-from-path.js';
import { memoryTerminal } from '../../helpers/terminal.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('creators-sink-');
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
    const io = memoryTerminal();
    const sink = await openSink(io, {});
    expect(sink.stream).toBe(io.stdout);
    await sink.write('hello\n');
    await sink.commit();
    await sink.abort();
    expect(io.stdout.writableEnded).toBe(false);
    expect(io.out()).toBe('hello\n');
  });

  it('waits for drain when the stream is full, and keeps every byte in order', async () => {
    const io = memoryTerminal({ highWaterMark: 16 });
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
    const io = memoryTerminal({ highWaterMark: 4 });
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
    const io = memoryTerminal();
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
    const sink = await openSink(memoryTerminal(), { outputPath: target });
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
    const sink = await openSink(memoryTerminal(), { outputPath: target });
    await sink.write('new');
    await sink.commit();
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
    expect(fs.statSync(target).mode & 0o777).toBe(0o640);
    expect(entries()).toEqual(['out.json']);
  });

  it('writes large outputs completely', async () => {
    const target = path.join(dir, 'big.jsonl');
    const sink = await openSink(memoryTerminal(), { outputPath: target });
    const line = `${JSON.stringify({ text: 'y'.repeat(1000) })}\n`;
    for (let i = 0; i < 2000; i++) await sink.write(line);
    await sink.commit();
    expect(fs.statSync(target).size).toBe(line.length * 2000);
  });

  it('writeBytes keeps every byte in order, after what went through write, in chunks of any size', async () => {
    const target = path.join(dir, 'results.csv');
    const sink = await openSink(memoryTerminal(), { outputPath: target });
    await sink.write('header\n');
    const parts: Buffer[] = [];
    // ~5 MB in chunks from 1 byte to 1.5 MB: several gathered writes, one chunk larger than a write.
    const sizes = [1, 65_536, 7, 1_500_000, 65_536, 300_000, 2_000_000, 12, 999_999];
    sizes.forEach((size, n) => parts.push(Buffer.alloc(size, String.fromCharCode(97 + n))));
    for (const part of parts) await sink.writeBytes(part);
    expect(fs.existsSync(target)).toBe(false);
    await sink.commit();
    expect(entries()).toEqual(['results.csv']);
    expect(fs.readFileSync(target).equals(Buffer.concat([Buffer.from('header\n'), ...parts]))).toBe(true);
  });

  it.each([
    ['durable (default): flushed in the background past 64 MB, fsynced before the rename', undefined, true],
    ['durable: false (a download): never waits for the disk', false, false],
  ])(
    'writeBytes past the background flush threshold (64 MB) commits exactly what was written; %s',
    async (_name, durable, syncs) => {
      // FileHandle is not exported: its prototype comes from an open handle.
      const probe = await fs.promises.open(path.join(dir, 'probe'), 'w');
      const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void>; datasync: () => Promise<void> };
      await probe.close();
      fs.unlinkSync(path.join(dir, 'probe'));
      const sync = vi.spyOn(proto, 'sync');
      const datasync = vi.spyOn(proto, 'datasync');
      const target = path.join(dir, 'big.csv');
      const sink = await openSink(
        memoryTerminal(),
        { outputPath: target },
        durable === undefined ? undefined : { durable },
      );
      const block = Buffer.alloc(1024 * 1024);
      try {
        for (let i = 0; i < 66; i++) {
          block.fill(i);
          await sink.writeBytes(Buffer.from(block));
        }
        await sink.commit();
        expect(sync.mock.calls.length).toBe(syncs ? 1 : 0);
        expect(datasync.mock.calls.length > 0).toBe(syncs);
      } finally {
        sync.mockRestore();
        datasync.mockRestore();
      }
      expect(entries()).toEqual(['big.csv']);
      const fd = fs.openSync(target, 'r');
      try {
        expect(fs.fstatSync(fd).size).toBe(66 * 1024 * 1024);
        const probe = Buffer.alloc(1);
        for (const i of [0, 31, 64, 65]) {
          fs.readSync(fd, probe, 0, 1, i * 1024 * 1024 + 4242);
          expect(probe[0]).toBe(i);
        }
      } finally {
        fs.closeSync(fd);
      }
    },
  );

  it('text reaches the file as text, one write in flight, in order, after what went through the stream', async () => {
    // A Buffer a chunk lived as long as its write and was freed only by a full collection: over a long run the
    // whole output piled up (README, Performance). FileHandle is not exported: its prototype comes from a handle.
    const probe = await fs.promises.open(path.join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    fs.unlinkSync(path.join(dir, 'probe'));
    const original = proto.write;
    const kinds: string[] = [];
    let inFlight = 0;
    let most = 0;
    const write = vi.spyOn(proto, 'write').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      kinds.push(typeof args[0]);
      most = Math.max(most, ++inFlight);
      try {
        return await original.apply(this, args);
      } finally {
        inFlight--;
      }
    });
    const target = path.join(dir, 'rows.csv');
    const lines = Array.from({ length: 3000 }, (_, i) => `creator_${i},São Paulo,${'x'.repeat(i % 50)}\n`);
    try {
      const sink = await openSink(memoryTerminal(), { outputPath: target });
      await writeChunk(sink.stream, 'header\n');
      for (let i = 0; i < lines.length; i += 100) await sink.write(lines.slice(i, i + 100).join(''));
      await sink.commit();
    } finally {
      write.mockRestore();
    }
    expect(fs.readFileSync(target, 'utf8')).toBe(`header\n${lines.join('')}`);
    expect(kinds.filter((k) => k === 'string').length).toBe(30);
    expect(most).toBe(1);
  });

  it('abort during writeBytes (a write in flight) deletes the temporary file and keeps the old target', async () => {
    const target = path.join(dir, 'results.csv');
    fs.writeFileSync(target, 'previous');
    const sink = await openSink(memoryTerminal(), { outputPath: target });
    for (let i = 0; i < 3; i++) await sink.writeBytes(Buffer.alloc(1024 * 1024 + 1, 120));
    await sink.abort();
    expect(entries()).toEqual(['results.csv']);
    expect(fs.readFileSync(target, 'utf8')).toBe('previous');
    await expect(sink.writeBytes(Buffer.from('late'))).rejects.toThrow(/already aborted/);
  });

  it('fails with a message naming the path when the folder does not exist', async () => {
    const target = path.join(dir, 'no', 'such', 'out.csv');
    const err = await openSink(memoryTerminal(), { outputPath: target }).catch((e: unknown) => e);
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
    await expect(openSink(memoryTerminal(), { outputPath: target })).rejects.toThrow(
      `cannot write ${target}: permission denied`,
    );
  });

  it('fails on commit when the target is a directory, and cleans up the temporary file', async () => {
    const target = path.join(dir, 'taken');
    fs.mkdirSync(target);
    const sink = await openSink(memoryTerminal(), { outputPath: target });
    await sink.write('data');
    await expect(sink.commit()).rejects.toThrow(`cannot write ${target}`);
    expect(entries()).toEqual(['taken']);
  });
});
