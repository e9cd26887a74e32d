import { StringDecoder } from 'node:string_decoder';
import type { Context } from '../../../app/context.js';
import { exportDetails } from '../../../lib/api/listening.js';
import { openSink } from '../../../lib/output/index.js';
import { idArg } from '../shared.js';

/**
 * `creators listening subscriptions export <id> [-o file.csv]`: the statistics as the server's CSV,
 * streamed byte for byte to stdout or to an atomic file (no half file if the download breaks).
 */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = idArg(args, 'subscription');
  const output = await ctx.output();
  const http = await ctx.http();
  const body = await exportDetails(http, id);
  const sink = await openSink(ctx.io, output);
  // A multi-byte character may straddle two chunks: decode across them.
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of body as AsyncIterable<Buffer | string>) {
      await sink.write(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    }
    await sink.write(decoder.end());
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  }
  if (output.outputPath) ctx.notice(`Wrote ${output.outputPath}.`);
}
