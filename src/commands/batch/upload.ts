import type { Context } from '../../app/context.js';
import { formatCredits } from '../../lib/cost.js';
import { guardCost } from '../../app/legacy.js';
import { extractBatchInput } from '../../lib/batch/extract.js';
import { modePriceMilli, parseJobOptions } from '../../lib/batch/options.js';
import { buildUrl } from '../../lib/http/url.js';
import { planBody, reportExtraction, uploadPart } from './shared.js';

/**
 * `creators batch upload <file|->`: one column kept (picked or detected), blanks and duplicates
 * dropped, split into several jobs past 10 MB. Prints each batch id as it is created (only the ids
 * when stdout is not a terminal; the create responses with --json).
 */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const [source = '-'] = args;
  const job = await parseJobOptions(ctx, opts);
  const extraction = await extractBatchInput(ctx, source, { kind: job.kind, column: job.column });
  try {
    reportExtraction(ctx, source, extraction);
    const price = modePriceMilli(job.mode);
    const url = buildUrl(await ctx.baseUrl(), 'enrichment/batch').href;
    const go = await guardCost(ctx, {
      method: 'POST',
      url,
      body: planBody(job, extraction),
      worstCaseMilli: extraction.rows * price,
      costBasis: `${extraction.rows} rows x ${formatCredits(price)} (${job.mode}), charged only for rows with data`,
    });
    if (!go) return;
    const http = await ctx.http();
    const asJson = ['json', 'jsonl'].includes(ctx.quickFormat() ?? '');
    const created: Record<string, unknown>[] = [];
    for (const [i, part] of extraction.parts.entries()) {
      const batch = await uploadPart(http, job, part.path);
      created.push(batch);
      // Each id goes out as soon as it exists, so a later failure never hides a job already started.
      if (ctx.quickFormat() === 'jsonl') ctx.io.stdout.write(`${JSON.stringify(batch)}\n`);
      else if (asJson) continue;
      else if (ctx.io.stdoutIsTTY) {
        const of = extraction.parts.length > 1 ? ` (part ${i + 1} of ${extraction.parts.length})` : '';
        ctx.io.stdout.write(`Batch ${batch.batch_id} created${of}: ${part.rows} rows, status ${batch.status}.\n`);
      } else ctx.io.stdout.write(`${batch.batch_id}\n`);
    }
    if (ctx.quickFormat() === 'json') ctx.io.stdout.write(`${JSON.stringify(created.length === 1 ? created[0] : created, null, 2)}\n`);
    if (ctx.io.stdoutIsTTY && !asJson) {
      const first = String(created[0]?.batch_id ?? '');
      ctx.notice(`Follow it with: creators batch poll ${first}${created.length > 1 ? ' (and the other ids)' : ''}`);
    }
  } finally {
    await extraction.cleanup();
  }
}
