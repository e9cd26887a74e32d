/**
 * What a sandbox batch job "finds" for each input value, deterministically: values containing
 * `notfound` or `missing`, and about one in ten others (by a hash of the value), are not found and
 * cost nothing; the rest get synthetic enrichment data derived from the value and the seed.
 */
import { normalizeHandle } from '../handles.js';
import { hash32, mulberry32 } from '../random.js';

export type RowOutcome = 'success' | 'not_found' | 'failed';

/** Whether the sandbox finds data for `value` (the same answer every time, for every seed). */
export function sandboxFinds(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (/notfound|missing/.test(v)) return false;
  return hash32(v) % 10 !== 0;
}

export interface ResultContext {
  seed: number;
  kind: 'handle' | 'email';
  mode: string;
  platform: string | null;
}

/** The enrichment payload of a found value: per-platform block for handles, MCP's preview fields for emails. */
export function enrichmentData(ctx: ResultContext, value: string): Record<string, unknown> {
  const rng = mulberry32(hash32(`${ctx.seed}:batch:${ctx.platform ?? 'email'}:${value.toLowerCase()}`));
  const followers = Math.round(800 * Math.exp(rng() * 8));
  const engagement = Math.round((0.4 + rng() * 9) * 100) / 100;
  if (ctx.kind === 'email') {
    const local = value.split('@')[0] ?? value;
    const platforms = ['instagram', 'youtube', 'tiktok', 'twitter'];
    return {
      platform: platforms[Math.floor(rng() * platforms.length)],
      username: local.toLowerCase().replace(/[^a-z0-9_.]/g, ''),
      fullname: local.replace(/[._]/g, ' '),
      followers,
      email: value.toLowerCase(),
    };
  }
  const username = normalizeHandle(value) || value.toLowerCase();
  const platform = ctx.platform ?? 'instagram';
  const block: Record<string, unknown> = {
    username,
    full_name: username.replace(/[._]/g, ' '),
    follower_count: followers,
    engagement_percent: engagement,
    profile_url: `https://${platform}.example/${username}`,
  };
  const data: Record<string, unknown> = { [platform]: block };
  if (ctx.mode === 'full') data.email = rng() < 0.6 ? `${username}@example.com` : null;
  return data;
}

/** One JSON result row, as `?format=json` lists them. */
export function resultRow(ctx: ResultContext, value: string, outcome: RowOutcome): Record<string, unknown> {
  return { input_value: value, status: outcome, enrichment_data: outcome === 'success' ? enrichmentData(ctx, value) : null };
}

function cell(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV header of the results file for a job of this kind. */
export function csvHeader(ctx: ResultContext): string[] {
  return ctx.kind === 'email'
    ? ['input_value', 'status', 'platform', 'username', 'fullname', 'followers', 'email']
    : ['input_value', 'status', 'platform', 'username', 'full_name', 'follower_count', 'engagement_percent', 'email', 'profile_url'];
}

/** One CSV line (with its newline) for a result row. */
export function csvLine(ctx: ResultContext, value: string, outcome: RowOutcome): string {
  if (outcome !== 'success') return `${[cell(value), outcome].concat(csvHeader(ctx).slice(2).map(() => '')).join(',')}\n`;
  const data = enrichmentData(ctx, value);
  let cells: unknown[];
  if (ctx.kind === 'email') {
    cells = [value, outcome, data.platform, data.username, data.fullname, data.followers, data.email];
  } else {
    const platform = ctx.platform ?? 'instagram';
    const b = data[platform] as Record<string, unknown>;
    cells = [value, outcome, platform, b.username, b.full_name, b.follower_count, b.engagement_percent, data.email ?? '', b.profile_url];
  }
  return `${cells.map(cell).join(',')}\n`;
}
