import type { Context } from '../../app/context.js';
import { UsageError } from '../../lib/errors.js';
import { parseIntegerOption } from '../../lib/options.js';
import type { BulkOptions } from '../../lib/bulk/enrich.js';

/** The bulk flags shared by `enrich handle` and `enrich email`, checked before anything is read or sent. */
export function bulkOptions(args: string[], opts: Record<string, unknown>): BulkOptions {
  const concurrency = parseIntegerOption(opts.concurrency, '--concurrency', 1) ?? 4;
  if (concurrency > 16) throw new UsageError(`Invalid --concurrency '${String(opts.concurrency)}': at most 16.`);
  return {
    values: args,
    input: opts.input as string | undefined,
    column: opts.column as string | undefined,
    concurrency,
    maxRows: parseIntegerOption(opts.maxRows, '--max-rows', 1),
  };
}

/** `--platform`, else the profile setting `platform`; required. */
export async function platformOption(ctx: Context, opts: Record<string, unknown>): Promise<string> {
  const value = (opts.platform as string | undefined) ?? (await ctx.setting('platform'));
  if (!value) throw new UsageError('--platform is required.', { hint: 'Or set a default: creators config set platform instagram.' });
  return value;
}
