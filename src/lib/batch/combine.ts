/** A split input's parts go to temporary files first, so each can restart on its own; one CSV header is kept. */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Terminal } from '../io/terminal.js';
import type { HttpClient } from '../http/client.js';
import { openSink, writeChunk, type Sink } from '../output/sink.js';
import { downloadBatch, type DownloadOptions } from './download.js';

export type ManyOptions = Omit<DownloadOptions, 'id' | 'openSink' | 'restartable'> & {
  io: Terminal;
  outputPath?: string | undefined;
};

export async function downloadMany(http: HttpClient, ids: string[], o: ManyOptions): Promise<number> {
  // The service keeps the results and downloads are free: files are atomic, without waiting for the disk.
  const target = (): Promise<Sink> => openSink(o.io, { outputPath: o.outputPath }, { durable: false });
  if (ids.length === 1) {
    const res = await downloadBatch(http, {
      ...o,
      id: ids[0] as string,
      openSink: target,
      restartable: o.outputPath !== undefined,
    });
    return res.bytes;
  }
  const dir = await mkdtemp(join(tmpdir(), 'creators-results-'));
  try {
    const files: string[] = [];
    for (const [i, id] of ids.entries()) {
      const path = join(dir, `part-${i + 1}.csv`);
      await downloadBatch(http, {
        ...o,
        id,
        openSink: () => openSink(o.io, { outputPath: path }, { durable: false }),
        restartable: true,
      });
      files.push(path);
    }
    const sink = await target();
    let bytes = 0;
    try {
      for (const [i, path] of files.entries()) {
        let skipping = i > 0;
        for await (const chunk of createReadStream(path, { encoding: 'utf8' })) {
          let text = chunk as string;
          if (skipping) {
            const nl = text.indexOf('\n');
            if (nl < 0) continue;
            text = text.slice(nl + 1);
            skipping = false;
          }
          bytes += Buffer.byteLength(text);
          await writeChunk(sink.stream, text);
        }
      }
      await sink.commit();
    } catch (err) {
      await sink.abort();
      throw err;
    }
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}
