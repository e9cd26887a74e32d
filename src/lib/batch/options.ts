/**
 * The options of a batch job (`batch upload` / `batch run`): checked before anything is sent, and
 * turned into the multipart fields of api-contract §9.1.
 */
import { BATCH_PLATFORMS } from '../../contract/platforms.js';
import { UsageError } from '../errors.js';
import { assignPairs } from '../options.js';

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

/** The job flags of `batch upload` and `batch run`, as the user typed them. */
export interface JobFlags {
  mode?: string | undefined;
  platform?: string | undefined;
  column?: string | undefined;
  emailRequired?: string | undefined;
  audience?: boolean | undefined;
  lookalikes?: boolean | undefined;
  metadata?: readonly string[] | undefined;
  /** Refused: the service dropped it for batch jobs. */
  minFollowers?: string | undefined;
  /** Refused: the service dropped it for batch jobs. */
  excludePlatforms?: string | undefined;
}

export interface JobOptionPorts {
  /**
   * The platform: `--platform`, else the profile setting, checked against `allowed`; a usage error
   * ("--platform is required <why>") when neither gives one. (Context.platform in the app.)
   */
  platform(flag: string | undefined, allowed: readonly string[], why: string): Promise<string>;
}

/**
 * Checks the upload flags. Refuses `--min-followers`/`--exclude-platforms` (batch enrichment stopped
 * accepting them on 2026-09-17), flags that do not apply to the mode, and a missing platform.
 */
export async function parseJobOptions(flags: JobFlags, ports: JobOptionPorts): Promise<BatchJobOptions> {
  for (const [value, flag] of [[flags.minFollowers, '--min-followers'], [flags.excludePlatforms, '--exclude-platforms']] as const) {
    if (value !== undefined) {
      throw new UsageError(`${flag} is not accepted by batch enrichment.`, {
        hint:
          'The service dropped min_followers and exclude_platforms for batch jobs on 2026-09-17 (email enrichment returns ' +
          'only the platform with the most followers). For single lookups use `creators enrich email ... ' + `${flag}\`.`,
      });
    }
  }
  const rawMode = flags.mode;
  if (rawMode === undefined) {
    throw new UsageError('--mode is required: raw or full (handles), basic or advanced (emails).');
  }
  const mode = rawMode.trim().toLowerCase();
  const m = BATCH_MODES.find((known) => known === mode);
  if (m === undefined) {
    throw new UsageError(`Unknown --mode '${rawMode}'.`, { hint: 'Use raw or full for handles, basic or advanced for emails.' });
  }
  const kind = m === 'raw' || m === 'full' ? 'handle' : 'email';
  const out: BatchJobOptions = {
    mode: m,
    kind,
    audience: Boolean(flags.audience),
    lookalikes: Boolean(flags.lookalikes),
    column: flags.column,
  };
  if (kind === 'handle') {
    out.platform = await ports.platform(flags.platform, BATCH_PLATFORMS, `for --mode ${m}`);
    if (flags.emailRequired !== undefined) {
      const v = flags.emailRequired.trim().toLowerCase();
      if (v !== 'must_have' && v !== 'preferred') {
        throw new UsageError(`Invalid --email-required '${flags.emailRequired}': use must_have or preferred.`);
      }
      out.emailRequired = v;
    }
    if (m === 'raw' && (out.audience || out.lookalikes)) {
      throw new UsageError('--audience and --lookalikes apply to --mode full only.');
    }
  } else {
    const refused = [
      [flags.platform !== undefined, '--platform'],
      [flags.emailRequired !== undefined, '--email-required'],
      [Boolean(flags.audience), '--audience'],
      [Boolean(flags.lookalikes), '--lookalikes'],
    ] as const;
    const given = refused.filter(([present]) => present).map(([, flag]) => flag);
    if (given.length > 0) {
      throw new UsageError(`${given.join(', ')} apply to handle modes (raw, full), not --mode ${m}.`);
    }
  }
  if (flags.metadata && flags.metadata.length > 0) out.metadata = assignPairs(flags.metadata, '--metadata');
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
