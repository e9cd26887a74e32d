import {
  cleanHandle, enrichHandle, handleBody, handlePath, MODE_PLATFORMS, MODE_PRICE_MILLI, type HandleMode, type HandleOptions,
} from '../../lib/api/enrichment.js';
import { runEnrichment } from '../../lib/bulk/enrich.js';
import { handleResultColumns, tableColumns } from '../../lib/bulk/records.js';
import type { Context } from '../../app/context.js';
import { ApiError, UsageError } from '../../lib/errors.js';
import { checkPlatform } from '../../lib/platforms.js';
import { bulkOptions, platformOption } from './options.js';

/** `creators enrich handle`: one or many handles, one request each, paced and billed per creator found. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const mode = (opts.mode as HandleMode | undefined) ?? 'full';
  const bulk = bulkOptions(args, opts);
  const platform = checkPlatform(await platformOption(ctx, opts), MODE_PLATFORMS.raw);
  if (!MODE_PLATFORMS[mode].includes(platform)) {
    throw new UsageError(`The ${mode} mode does not support ${platform}.`, { hint: `${mode} supports: ${MODE_PLATFORMS[mode].join(', ')}.` });
  }
  const emailRequired = opts.emailRequired as HandleOptions['emailRequired'];
  if (emailRequired && mode !== 'profile' && mode !== 'full') throw new UsageError('--email-required applies to --mode profile or full.');
  if (opts.audience && mode !== 'full') throw new UsageError('--audience applies to --mode full.');
  if (opts.lookalikes && mode !== 'full' && mode !== 'analytics') throw new UsageError('--lookalikes applies to --mode analytics or full.');
  const options: HandleOptions = {
    mode,
    platform,
    emailRequired,
    includeLookalikes: Boolean(opts.lookalikes),
    includeAudienceData: Boolean(opts.audience),
  };

  await runEnrichment(ctx, {
    label: 'enrich handle',
    kind: 'handle',
    path: handlePath(mode),
    priceMilli: MODE_PRICE_MILLI[mode],
    clean: cleanHandle,
    body: (handle) => handleBody(handle, options),
    send: async (http, handle) => {
      try {
        return await enrichHandle(http, handle, options);
      } catch (err) {
        // The client's platform lists come from the docs; say so when the server disagrees.
        if (err instanceof ApiError && err.status === 400 && /platform/i.test(err.message)) {
          throw new ApiError(`The service refused ${platform} for ${mode} enrichment: ${err.message}`, { status: 400, code: 'unsupported_platform' });
        }
        throw err;
      }
    },
    resultColumns: handleResultColumns(platform),
    tableColumns: (col) => tableColumns(col, 'handle', platform),
  }, bulk);
}
