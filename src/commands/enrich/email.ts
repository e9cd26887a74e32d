import { cleanEmail, emailBody, emailPath, enrichEmail, MODE_PRICE_MILLI, type EmailMode, type EmailOptions } from '../../lib/api/enrichment.js';
import { runEnrichment } from '../../lib/bulk/enrich.js';
import { emailResultColumns, tableColumns } from '../../lib/bulk/records.js';
import type { Context } from '../../app/context.js';
import { UsageError } from '../../lib/errors.js';
import { parseIntegerOption } from '../../lib/options.js';
import { checkPlatform, SOCIAL_PLATFORMS } from '../../lib/platforms.js';
import { bulkOptions } from './options.js';

/** `creators enrich email`: creators behind one or many addresses, basic or advanced. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const mode = (opts.mode as EmailMode | undefined) ?? 'basic';
  const bulk = bulkOptions(args, opts);
  const minFollowers = parseIntegerOption(opts.minFollowers, '--min-followers', 0);
  const excludeRaw = opts.excludePlatforms as string | undefined;
  if (mode !== 'advanced' && (minFollowers !== undefined || excludeRaw !== undefined)) {
    throw new UsageError('--min-followers and --exclude-platforms apply to --mode advanced.');
  }
  const excludePlatforms = excludeRaw === undefined
    ? undefined
    : excludeRaw.split(',').map((p) => p.trim()).filter(Boolean).map((p) => checkPlatform(p, SOCIAL_PLATFORMS, 'platform in --exclude-platforms'));
  const options: EmailOptions = { mode, minFollowers, excludePlatforms };

  await runEnrichment(ctx, {
    label: 'enrich email',
    kind: 'email',
    path: emailPath(mode),
    priceMilli: MODE_PRICE_MILLI[mode],
    clean: cleanEmail,
    body: (email) => emailBody(email, options),
    send: (http, email) => enrichEmail(http, email, options),
    resultColumns: emailResultColumns(),
    tableColumns: (col) => tableColumns(col, 'email'),
  }, bulk);
}
