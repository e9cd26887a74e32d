import type { Context } from '../../app/context.js';
import { pathSegment } from '../../lib/http/url.js';
import { downloadBatch } from '../../lib/batch/download.js';
import { openSink } from '../../lib/output/index.js';
import { downloadFormat } from './shared.js';

/**
 * `creators batch download <id> [-o file]`: CSV (download URL, else the result route) or JSON
 * (`--json`, or a `.json` output file), streamed to stdout or to an atomic file.
 */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const [raw = ''] = args;
  const id = pathSegment(raw, 'batch id');
  const { outputPath } = await ctx.output();
  const format = downloadFormat(ctx, outputPath);
  const http = await ctx.http();
  const result = await downloadBatch(http, {
    id,
    format,
    // The service keeps the results and downloads are free: atomic, without waiting for the disk.
    openSink: () => openSink(ctx.io, { outputPath }, { durable: false }),
    restartable: outputPath !== undefined,
    sleep: ctx.deps.sleep,
    signal: ctx.deps.signal,
    notice: (line) => ctx.notice(line),
  });
  if (outputPath) {
    const via = result.source === 'download_url' ? 'download URL' : 'result route';
    ctx.notice(`Wrote ${result.bytes.toLocaleString('en-US')} bytes of ${format.toUpperCase()} results of batch ${id} to ${ctx.globals.output} (via the ${via}).`);
  }
}
