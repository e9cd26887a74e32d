/**
 * The options of a batch job (`batch upload` / `batch run`): checked before anything is sent, and
 * turned into the multipart fields of api-contract §9.1.
 */
import { BATCH_PLATFORMS } from '../../contract/platforms.js';
import { MODE_PRICE, WORST_CASE_MILLI } from '../../contract/prices.js';
import type { Context } from '../../app/context.js';
import { UsageError } from '../errors.js';
import { assignPairs } from '../options.js';
import { checkPlatform } from '../platforms.js';

export const BATCH_MODES = ['raw', 'full', 'basic', 'advanced'] as const;
export type BatchMode = (typeof BATCH_MODES)[number];

export interface BatchJobOptions {
  mode: BatchMode;
  /** `handle` for raw/full, `email` for basic/advanced. */
  kind: 'handle' | 'email';
  platform?: string | undefined;
  emailRequired?: 'must_have' | 'preferred' | undefined;
  audience: boolean;
  lookalikes: boolean;
  metadata?: Record<string, unknown> | undefined;
  /** `--column`: the input column holding the values. */
  column?: string | undefined;
}

/** Worst-case price of one row, in thousandths (the higher figure where sources disagree). */
export function modePriceMilli(mode: BatchMode): number {
  return WORST_CASE_MILLI[MODE_PRICE[mode]];
}

/**
 * Checks the upload flags. Refuses `--min-followers`/`--exclude-platforms` (batch enrichment stopped
 * accepting them on 2026-09-17), flags that do not apply to the mode, and a missing platform.
 */
export async function parseJobOptions(ctx: Context, opts: Record<string, unknown>): Promise<BatchJobOptions> {
  for (const [key, flag] of [['minFollowers', '--min-followers'], ['excludePlatforms', '--exclude-platforms']] as const) {
    if (opts[key] !== undefined) {
      throw new UsageError(`${flag} is not accepted by batch enrichment.`, {
        hint:
          'The service dropped min_followers and exclude_platforms for batch jobs on 2026-09-17 (email enrichment returns ' +
          'only the platform with the most followers). For single lookups use `creators enrich email ... ' + `${flag}\`.`,
      });
    }
  }
  const rawMode = opts.mode as string | undefined;
  if (rawMode === undefined) {
    throw new UsageError('--mode is required: raw or full (handles), basic or advanced (emails).');
  }
  const mode = rawMode.trim().toLowerCase();
  if (!(BATCH_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`Unknown --mode '${rawMode}'.`, { hint: 'Use raw or full for handles, basic or advanced for emails.' });
  }
  const m = mode as BatchMode;
  const kind = m === 'raw' || m === 'full' ? 'handle' : 'email';
  const out: BatchJobOptions = {
    mode: m,
    kind,
    audience: Boolean(opts.audience),
    lookalikes: Boolean(opts.lookalikes),
    column: opts.column as string | undefined,
  };
  if (kind === 'handle') {
    const platform = (opts.platform as string | undefined) ?? (await ctx.setting('platform'));
    if (!platform) {
      throw new UsageError(`--platform is required for --mode ${m}.`, { hint: `Use one of: ${BATCH_PLATFORMS.join(', ')}.` });
    }
    out.platform = checkPlatform(platform, BATCH_PLATFORMS);
    if (opts.emailRequired !== undefined) {
      const v = String(opts.emailRequired).trim().toLowerCase();
      if (v !== 'must_have' && v !== 'preferred') {
        throw new UsageError(`Invalid --email-required '${String(opts.emailRequired)}': use must_have or preferred.`);
      }
      out.emailRequired = v;
    }
    if (m === 'raw' && (out.audience || out.lookalikes)) {
      throw new UsageError('--audience and --lookalikes apply to --mode full only.');
    }
  } else {
    const refused = [
      ['platform', '--platform'],
      ['emailRequired', '--email-required'],
      ['audience', '--audience'],
      ['lookalikes', '--lookalikes'],
    ].filter(([key]) => opts[key as string] !== undefined);
    if (refused.length > 0) {
      throw new UsageError(`${refused.map(([, f]) => f).join(', ')} apply to handle modes (raw, full), not --mode ${m}.`);
    }
  }
  const pairs = opts.metadata as string[] | undefined;
  if (pairs && pairs.length > 0) out.metadata = assignPairs(pairs, '--metadata');
  return out;
}

/**
 * The multipart text fields, in a stable order. Booleans travel as the strings "true"/"false" (as the
 * official client sends them); lookalikes are sent explicitly because the documented default changed.
 */
export function wireFields(o: BatchJobOptions): Array<[string, string]> {
  const fields: Array<[string, string]> = [['enrichment_mode', o.mode]];
  if (o.platform) fields.push(['platform', o.platform]);
  if (o.emailRequired) fields.push(['email_required', o.emailRequired]);
  if (o.mode === 'full') {
    fields.push(['include_lookalikes', String(o.lookalikes)]);
    fields.push(['include_audience_data', String(o.audience)]);
  }
  if (o.metadata) fields.push(['metadata', JSON.stringify(o.metadata)]);
  return fields;
}
