/** Helpers shared by the listening and events verbs: columns, creator arguments, printing. */
import type { Context } from '../../app/context.js';
import { buildBody } from '../../lib/body.js';
import { formatCredits, PRICE_MILLI } from '../../lib/cost.js';
import { guardCost } from '../../app/legacy.js';
import { UsageError } from '../../lib/errors.js';
import type { HttpClient } from '../../lib/http/client.js';
import { positiveId } from '../../lib/ids.js';
import { readAllText } from '../../lib/input.js';
import { checkPlatform, DISCOVERY_PLATFORMS } from '../../lib/platforms.js';
import { isTerminalTable, printItem, printList, type ColumnSpec, type DataRecord } from '../../lib/output/index.js';
import type { ListeningKind } from '../../lib/api/listening.js';

export const SUBSCRIPTION_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'ID', kind: 'number' },
  { path: 'name', header: 'Name' },
  { path: 'status', header: 'Status' },
  { path: 'event_types', header: 'Event types' },
  { path: 'creators_count', header: 'Creators', kind: 'count' },
  { path: 'webhook_url', header: 'Webhook' },
  { path: 'created_at', header: 'Created', kind: 'date' },
];

export const CAMPAIGN_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'ID', kind: 'number' },
  { path: 'name', header: 'Name' },
  { path: 'status', header: 'Status' },
  { path: 'days', header: 'Days', kind: 'number' },
  { path: 'start_date', header: 'Start', kind: 'date' },
  { path: 'end_date', header: 'End', kind: 'date' },
  { path: 'creators_count', header: 'Creators', kind: 'count' },
  { path: 'posts_count', header: 'Posts', kind: 'count' },
];

export const EVENT_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'ID', kind: 'number' },
  { path: 'date_occurance', header: 'Occurred', kind: 'date' },
  { path: 'event_type', header: 'Type' },
  { path: 'creator.platform', header: 'Platform' },
  { path: 'creator.platform_id', header: 'Creator' },
  { path: 'delivery_status', header: 'Delivery' },
  { path: 'retries', header: 'Retries', kind: 'number' },
  { path: 'latency_seconds', header: 'Latency s', kind: 'number' },
];

export const COLUMNS: Record<ListeningKind, ColumnSpec[]> = { subscription: SUBSCRIPTION_COLUMNS, campaign: CAMPAIGN_COLUMNS };
export const LABEL: Record<ListeningKind, string> = { subscription: 'subscription', campaign: 'campaign' };

/** The `--body`/`--set` flags of a verb, as commander hands them over. */
export function bodyFlags(opts: Record<string, unknown>): { body?: string; set?: string[] } {
  return { body: opts.body as string | undefined, set: opts.set as string[] | undefined };
}

export { buildBody };

/**
 * Creator references from arguments and `--file` (one per line; blanks and `#` lines skipped):
 * `handle` with `--platform` (or the profile's `platform` setting), or `platform:handle`.
 */
export async function creatorRefs(ctx: Context, values: string[], opts: Record<string, unknown>, required: boolean): Promise<{ platform: string; platform_id: string }[]> {
  const all = [...values];
  if (typeof opts.file === 'string') {
    const text = await readAllText(ctx, opts.file, '--file');
    all.push(...text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
  }
  const rawPlatform = (opts.platform as string | undefined) ?? (await ctx.setting('platform'));
  const platform = rawPlatform === undefined ? undefined : checkPlatform(rawPlatform, DISCOVERY_PLATFORMS);
  const refs = all.map((value) => {
    const m = /^([a-z]+):(.+)$/i.exec(value.trim());
    if (m && (DISCOVERY_PLATFORMS as readonly string[]).includes((m[1] as string).toLowerCase())) {
      return { platform: (m[1] as string).toLowerCase(), platform_id: (m[2] as string).trim() };
    }
    if (!platform) {
      throw new UsageError(`No platform for creator '${value}'.`, { hint: 'Give --platform <p>, or write it as platform:handle (e.g. instagram:nasa).' });
    }
    return { platform, platform_id: value.trim() };
  });
  if (required && refs.length === 0 && opts.body === undefined) {
    throw new UsageError('Name at least one creator: as arguments, or with --file <file|->.');
  }
  return refs;
}

/**
 * Passes the money gate for work that starts monitoring, shown on stderr first. With a known
 * duration the estimate is `creators x days x 0.3` (`daysNote` says where the days came from);
 * open-ended monitoring (subscriptions, campaigns without an end) is priced per day, and
 * --max-credits is checked against one day's cost. Returns false under --dry-run.
 */
export async function guardMonitoring(
  ctx: Context,
  http: HttpClient,
  plan: { method: string; path: string; body: unknown; creators: number; days: number | undefined; daysNote?: string | undefined },
): Promise<boolean> {
  const perDay = PRICE_MILLI.monitoringPerCreatorDay;
  let milli: number;
  let basis: string;
  let notice: string;
  if (plan.days === undefined) {
    milli = plan.creators * perDay;
    basis = `${plan.creators} creator(s) x 0.3 per day, open-ended (one day checked)`;
    notice = `${plan.creators} creator(s) x 0.3 = ${formatCredits(milli)} credits per day while monitored (open-ended: --max-credits is checked against one day`;
  } else {
    milli = plan.creators * plan.days * perDay;
    basis = `${plan.creators} creator(s) x ${plan.days} day(s) x 0.3${plan.daysNote ? ` (${plan.daysNote})` : ''}`;
    notice = `${basis} = ${formatCredits(milli)} credits (at most`;
  }
  if (plan.creators > 0 && !ctx.dryRun) ctx.notice(`Estimated monitoring cost: ${notice}; a creator already monitored costs nothing more).`);
  const url = `${http.baseUrl.href.replace(/\/$/, '')}/public/v1/${plan.path}`;
  return guardCost(ctx, { method: plan.method, url, body: plan.body, worstCaseMilli: milli, costBasis: basis });
}

/**
 * Prints a record with a nested list (subscription details, campaign overview): on a terminal the
 * scalar fields as a key/value table and the list as a table below it; in any other format the
 * whole record, untouched.
 */
export async function printWithRows(ctx: Context, record: DataRecord, listKey: string, rowColumns: ColumnSpec[]): Promise<void> {
  const output = await ctx.output();
  const rows = record[listKey];
  if (!isTerminalTable(ctx.io, output) || output.fields || !Array.isArray(rows)) {
    await printItem(ctx.io, output, record);
    return;
  }
  const summary = Object.fromEntries(Object.entries(record).filter(([k, v]) => k !== listKey && !Array.isArray(v)));
  await printItem(ctx.io, output, summary);
  if (rows.length > 0) {
    ctx.io.stdout.write(`\n${listKey}:\n`);
    await printList(ctx.io, output, rows as DataRecord[], rowColumns);
  }
}

/** The id argument: a positive integer, checked before anything is sent (exit 2 otherwise). */
export function idArg(args: string[], what: string): string {
  return positiveId(args[0], `${what} id`);
}
