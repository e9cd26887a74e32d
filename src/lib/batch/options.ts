/**
 * Batch job options (read from the flags by src/commands/batch/job-options.ts), as the multipart fields of api-contract
 * §9.1.
 */

import type { BatchMode } from '../../contract/platforms.js';

export interface BatchJobOptions {
  mode: BatchMode;
  kind: 'handle' | 'email';
  platform?: string | undefined;
  emailRequired?: 'must_have' | 'preferred' | undefined;
  audience: boolean;
  lookalikes: boolean;
  metadata?: Record<string, unknown> | undefined;
  column?: string | undefined;
}

/**
 * Booleans as "true"/"false" (as the official client sends them); lookalikes always: the documented default changed.
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
