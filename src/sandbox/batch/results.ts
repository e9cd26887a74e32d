/**
 * What a sandbox batch job finds for each input value: exactly what single enrichment finds for it
 * (one source of truth). A handle row is found when `POST /creators/enrich/handle/<mode>/` would find
 * the creator on the job's platform (`findCreator`, with `email_required: must_have` needing an
 * email), an email row when `POST /creators/enrich/email/` would (`emailRecord`); the row's data is
 * that creator's, in the batch file's flat shape. Nothing found costs nothing.
 */
import { emailRecord } from '../enrichment/email.js';
import { findCreator } from '../enrichment/records.js';
import type { SandboxState } from '../state.js';

export type RowOutcome = 'success' | 'not_found' | 'failed';

export interface ResultContext {
  seed: number;
  kind: 'handle' | 'email';
  mode: string;
  platform: string | null;
}

/** The data of a row, as single enrichment would find it, or undefined when nothing is found. */
export function rowData(
  state: SandboxState,
  ctx: ResultContext,
  value: string,
  emailRequired: string | null = null,
): Record<string, unknown> | undefined {
  if (ctx.kind === 'email') {
    const record = emailRecord(state, value.trim(), { advanced: ctx.mode === 'advanced', excludePlatforms: [] });
    if (!record) return undefined;
    // The first platform the address resolves to, as single enrichment lists them first.
    const platform = (record.platforms as string[])[0] as string;
    const block = record[platform] as Record<string, unknown>;
    return {
      platform,
      username: block.username,
      fullname: record.full_name,
      followers: block.follower_count,
      email: record.email,
    };
  }
  const platform = ctx.platform ?? 'instagram';
  const creator = findCreator(state, platform, value);
  if (!creator || (emailRequired === 'must_have' && !creator.email)) return undefined;
  const block: Record<string, unknown> = {
    username: creator.profile.username,
    full_name: creator.profile.full_name,
    follower_count: creator.profile.followers,
    engagement_percent: creator.profile.engagement_percent,
    profile_url: creator.url,
  };
  const data: Record<string, unknown> = { [platform]: block };
  if (ctx.mode === 'full') data.email = creator.email ?? null;
  return data;
}

/** Whether a job would find data for `value` (for tests and scripts that predict a job's bill). */
export function sandboxFinds(
  state: SandboxState,
  ctx: ResultContext,
  value: string,
  emailRequired: string | null = null,
): boolean {
  return rowData(state, ctx, value, emailRequired) !== undefined;
}

/** One JSON result row, as `?format=json` lists them. */
export function resultRow(
  value: string,
  outcome: RowOutcome,
  data: Record<string, unknown> | null,
): Record<string, unknown> {
  return { input_value: value, status: outcome, enrichment_data: outcome === 'success' ? data : null };
}

function cell(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV header of the results file for a job of this kind. */
export function csvHeader(ctx: ResultContext): string[] {
  return ctx.kind === 'email'
    ? ['input_value', 'status', 'platform', 'username', 'fullname', 'followers', 'email']
    : [
        'input_value',
        'status',
        'platform',
        'username',
        'full_name',
        'follower_count',
        'engagement_percent',
        'email',
        'profile_url',
      ];
}

/** One CSV line (with its newline) for a result row. */
export function csvLine(
  ctx: ResultContext,
  value: string,
  outcome: RowOutcome,
  data: Record<string, unknown> | null,
): string {
  if (outcome !== 'success' || !data)
    return `${[cell(value), outcome]
      .concat(
        csvHeader(ctx)
          .slice(2)
          .map(() => ''),
      )
      .join(',')}\n`;
  let cells: unknown[];
  if (ctx.kind === 'email') {
    cells = [value, outcome, data.platform, data.username, data.fullname, data.followers, data.email];
  } else {
    const platform = ctx.platform ?? 'instagram';
    const b = data[platform] as Record<string, unknown>;
    cells = [
      value,
      outcome,
      platform,
      b.username,
      b.full_name,
      b.follower_count,
      b.engagement_percent,
      data.email ?? '',
      b.profile_url,
    ];
  }
  return `${cells.map(cell).join(',')}\n`;
}
