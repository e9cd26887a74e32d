import type { Context } from '../../app/context.js';
import { configDirectory } from '../../lib/config.js';
import { formatCredits } from '../../lib/cost.js';
import { guardCost } from '../../app/legacy.js';
import { UsageError } from '../../lib/errors.js';
import { buildUrl } from '../../lib/http/url.js';
import { getBatchStatus, resumeBatch } from '../../lib/api/batch.js';
import { downloadMany } from '../../lib/batch/combine.js';
import { extractBatchInput } from '../../lib/batch/extract.js';
import { Journal, journalKey, type JournalEntry } from '../../lib/batch/journal.js';
import { modePriceMilli, parseJobOptions, wireFields } from '../../lib/batch/options.js';
import { creditsText, downloadFormat, intervalMs, planBody, reportExtraction, uploadPart, waitForBatch, waitTimeoutMs } from './shared.js';

/**
 * `creators batch run <file> --mode ... -o results.csv`: upload, wait, download. The journal maps
 * this input + options to the batch ids it started, so a re-run reattaches instead of paying twice.
 */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const [source = ''] = args;
  if (source === '-') throw new UsageError('batch run needs a file (its hash is how a re-run finds the job again), not standard input.');
  const job = await parseJobOptions(ctx, opts);
  const interval = intervalMs(opts);
  const timeoutMs = waitTimeoutMs(ctx);
  const { outputPath } = await ctx.output();
  const format = downloadFormat(ctx, outputPath);
  const extraction = await extractBatchInput(ctx, source, { kind: job.kind, column: job.column });
  try {
    reportExtraction(ctx, source, extraction);
    if (extraction.parts.length > 1 && format === 'json') {
      throw new UsageError(`The input is split into ${extraction.parts.length} batches; their JSON results cannot be joined into one file.`, {
        hint: 'Use CSV output (-o results.csv), or upload and download the parts separately.',
      });
    }
    const baseUrl = await ctx.baseUrl();
    const key = journalKey(extraction.inputSha256, {
      fields: wireFields(job),
      column: extraction.column,
      base_url: baseUrl.href,
      profile: ctx.profileName,
    });
    const journal = await Journal.open(configDirectory(ctx.deps), ctx.deps.now);
    const previous = opts.force ? undefined : journal.get(key);
    const now = new Date(ctx.deps.now()).toISOString();
    const entry: JournalEntry =
      previous && previous.batch_ids.length === extraction.parts.length
        ? { ...previous }
        : { batch_ids: extraction.parts.map(() => null), input: source, created_at: now, updated_at: now };
    const known = entry.batch_ids.filter((id): id is string => id !== null);
    if (known.length > 0) ctx.notice(`Reattaching to ${known.join(', ')} (started ${entry.created_at}); use --force to start a new job.`);

    const missing = extraction.parts.filter((_, i) => entry.batch_ids[i] === null);
    const price = modePriceMilli(job.mode);
    const rows = missing.reduce((n, p) => n + p.rows, 0);
    const go = await guardCost(ctx, {
      method: missing.length > 0 ? 'POST' : 'GET',
      url: buildUrl(baseUrl, missing.length > 0 ? 'enrichment/batch' : `enrichment/batch/${known[0]}/status`).href,
      body: missing.length > 0 ? planBody(job, extraction, missing) : undefined,
      worstCaseMilli: rows * price,
      costBasis: missing.length > 0 ? `${rows} rows x ${formatCredits(price)} (${job.mode}), charged only for rows with data` : 'reattaching to a job already paid for',
    });
    if (!go) return;
    const http = await ctx.http();
    for (const [i, part] of extraction.parts.entries()) {
      if (entry.batch_ids[i] !== null) continue;
      const created = await uploadPart(http, job, part.path);
      entry.batch_ids[i] = created.batch_id;
      // Written after every part: a crash now still finds the jobs already paid for.
      await journal.set(key, entry);
      ctx.notice(`Batch ${created.batch_id} created (${part.rows} rows).`);
    }
    const ids = entry.batch_ids as string[];

    const again = `the same \`creators batch run\` command (it reattaches to ${ids.join(', ')}), or creators batch poll ${ids[0]}`;
    let credits = 0;
    for (const id of ids) {
      if (known.includes(id)) {
        const current = await getBatchStatus(http, id);
        if (current.phase === 'paused') {
          ctx.notice(`Batch ${id} is paused for credits; resuming it (free).`);
          await resumeBatch(http, id);
        }
      }
      const final = await waitForBatch(ctx, http, id, { intervalMs: interval, timeoutMs, again });
      credits += final.credits_used ?? 0;
      ctx.notice(`Batch ${id} ${final.status}: ${creditsText(final)} used.`);
    }
    const bytes = await downloadMany(http, ids, {
      io: ctx.io,
      outputPath,
      format,
      sleep: ctx.deps.sleep,
      signal: ctx.deps.signal,
      notice: (line) => ctx.notice(line),
    });
    await journal.set(key, { ...entry, completed_at: new Date(ctx.deps.now()).toISOString() });
    if (outputPath) ctx.notice(`Wrote ${bytes.toLocaleString('en-US')} bytes of ${format.toUpperCase()} results to ${ctx.globals.output}; ${formatCredits(Math.round(credits * 1000))} credits used.`);
  } finally {
    await extraction.cleanup();
  }
}
