import { defineCommand } from '../../app/command.js';
import { resultsFormat } from './job-options.js';

/**
 * `creators batch download <id> [-o file]`: CSV (download URL, else the result route) or JSON
 * (`--json`, or a `.json` output file), streamed to stdout or to an atomic file.
 */
export default defineCommand({
  name: 'download',
  description:
    'Download the results: CSV through the short-lived download URL (or the result route), JSON with --json; streamed to an atomic file',
  args: [{ name: '<id>', description: 'batch id (bch_...)' }],
  examples: [
    ['creators batch download bch_... -o results.csv', 'CSV to a file'],
    ['creators batch download bch_... --json -o results.json', 'JSON array of {input_value, status, enrichment_data}'],
    ['creators batch download bch_... | head', 'CSV to stdout'],
  ],
  async run(ctx, { args }) {
    const [raw = ''] = args;
    const [{ pathSegment }, { downloadBatch, downloadPlan }, { openSink }] = await Promise.all([
      import('../../lib/http/url.js'),
      import('../../lib/batch/download.js'),
      import('../../lib/output/index.js'),
    ]);
    const id = pathSegment(raw, 'batch id');
    const { outputPath } = await ctx.output();
    const format = resultsFormat(ctx.globals, outputPath);
    // Free, but it writes a file: a dry run prints the first request instead.
    if (!(await ctx.money.gate(downloadPlan(id, format)))) return;
    const http = await ctx.http();
    const result = await downloadBatch(http, {
      id,
      format,
      // The service keeps the results and downloads are free: atomic, without waiting for the disk.
      openSink: () => openSink(ctx.term, { outputPath }, { durable: false }),
      restartable: outputPath !== undefined,
      sleep: ctx.deps.sleep,
      signal: ctx.deps.signal,
      notice: (line) => ctx.term.notice(line),
    });
    if (outputPath) {
      const via = result.source === 'download_url' ? 'download URL' : 'result route';
      ctx.term.notice(
        `Wrote ${result.bytes.toLocaleString('en-US')} bytes of ${format.toUpperCase()} results of batch ${id} to ${ctx.globals.output} (via the ${via}).`,
      );
    }
  },
});
