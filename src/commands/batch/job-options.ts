/** `--mode` and the flags that go with it, read into the batch job's options before anything is sent. */
import { BATCH_MODES, BATCH_PLATFORMS } from '../../contract/platforms.js';
import type { BatchJobOptions } from '../../lib/batch/options.js';
import type { BatchNames } from '../../lib/batch/upload.js';
import { UsageError } from '../../lib/errors.js';
import { assignPairs } from '../../lib/options.js';
import { COLUMN_NAMES } from '../csv-flags.js';

export interface JobFlags {
  mode?: string | undefined;
  platform?: string | undefined;
  column?: string | undefined;
  emailRequired?: string | undefined;
  audience?: boolean | undefined;
  lookalikes?: boolean | undefined;
  metadata?: readonly string[] | undefined;
  /** Refused, with the next: the service dropped them for batch jobs. */
  minFollowers?: string | undefined;
  excludePlatforms?: string | undefined;
}

export interface JobOptionPorts {
  /** `--platform`, else the profile's, checked against `allowed`; a usage error when neither gives one. */
  platform(flag: string | undefined, allowed: readonly string[], why: string): Promise<string>;
}

/** `--min-followers`/`--exclude-platforms` are refused: batch enrichment stopped accepting them on 2026-09-17. */
export async function parseJobOptions(flags: JobFlags, ports: JobOptionPorts): Promise<BatchJobOptions> {
  for (const [value, flag] of [
    [flags.minFollowers, '--min-followers'],
    [flags.excludePlatforms, '--exclude-platforms'],
  ] as const) {
    if (value !== undefined) {
      throw new UsageError(`${flag} is not accepted by batch enrichment.`, {
        hint:
          'The service dropped min_followers and exclude_platforms for batch jobs on 2026-09-17 (email enrichment returns ' +
          'only the platform with the most followers). For single lookups use `creators enrich email ... ' +
          `${flag}\`.`,
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
    throw new UsageError(`Unknown --mode '${rawMode}'.`, {
      hint: 'Use raw or full for handles, basic or advanced for emails.',
    });
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

/** From `--json`/`--format`, else the `-o` extension, else CSV. */
export function resultsFormat(
  asked: { json?: boolean | undefined; format?: string | undefined },
  outputPath: string | undefined,
): 'csv' | 'json' {
  const format = asked.json ? 'json' : asked.format;
  if (format !== undefined) {
    if (format === 'csv' || format === 'json') return format;
    throw new UsageError(`Batch results come as csv or json, not '${format}'.`, {
      hint: 'Use --format csv or --json.',
    });
  }
  return outputPath && /\.json$/i.test(outputPath) ? 'json' : 'csv';
}

/** How the batch workflow's messages name the input's column and a fresh job: these flags. */
export const BATCH_NAMES: BatchNames = { ...COLUMN_NAMES, force: '--force' };
