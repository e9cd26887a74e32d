/**
 * What the `store` and `spend` commands print, as plain records for lib/output. Machine formats get times as
 * ISO 8601 and credits as numbers (the store's thousandths / 1000, so sums stay exact).
 */
import { SOCIAL_PLATFORMS } from '../../contract/platforms.js';
import { normalizeHandle } from '../../contract/handles.js';
import { UsageError } from '../errors.js';
import { parseJson } from '../exact-json.js';
import { checkPlatform } from '../platforms.js';
import type { Terminal } from '../io/terminal.js';
import { jsonText } from '../output/json-text.js';
import { humanDate } from '../output/humanize.js';
import { countText, plural } from '../words.js';
import { printText } from '../output/printers.js';
import type { ColumnSpec, DataRecord, OutputSettings } from '../output/types.js';
import type { OutboxEntry } from './outbox.js';
import type {
  AnswerKind,
  Engine,
  Holder,
  KindCounts,
  SharedEntry,
  SpendEntry,
  StoredAnswer,
  StoreStats,
} from './types.js';

/** Credits from the store's thousandths. */
export function credits(milli: number): number {
  return Math.round(milli) / 1000;
}

function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

export function answerRecord(a: StoredAnswer): DataRecord {
  return {
    bought_at: iso(a.boughtAt),
    kind: a.kind,
    platform: a.platform,
    subject: a.subject,
    route: a.route,
    status: a.status,
    records: a.records,
    credits: credits(a.creditsMilli),
    profile: a.profile,
    base_url: a.baseUrl,
    key: a.key,
  };
}

/**
 * `store export`: in JSON the request and answer are JSON (numbers exact); elsewhere each is one cell of JSON
 * text (a body flattened into columns would give every answer a different header).
 */
export function exportRecord(a: StoredAnswer, asJson: boolean): DataRecord {
  return {
    ...answerRecord(a),
    request: asJson ? parseJson(a.request) : a.request,
    answer: asJson ? parseJson(a.body) : a.body,
  };
}

/** Terminal columns of `store list` (and of `store export`, whose bodies a table leaves out). */
// What was bought, when and for how much stay at any width; the route is cut first, then the counts go.
export const ANSWER_COLUMNS: ColumnSpec[] = [
  { path: 'bought_at', header: 'Bought', kind: 'date', priority: 3 },
  { path: 'kind', header: 'Kind', whole: true, priority: 3 },
  { path: 'platform', header: 'Platform', whole: true, priority: 2 },
  { path: 'subject', header: 'Creator', keep: true },
  { path: 'route', header: 'Route', priority: 0 },
  { path: 'records', header: 'Records', kind: 'number', priority: 1 },
  { path: 'credits', header: 'Credits', kind: 'number', priority: 4 },
];

/** `store stats` as one record; `stats` undefined when the profile has no store yet (all zero). */
export function statsRecord(stats: StoreStats | undefined, location: string, engine: Engine = 'sqlite'): DataRecord {
  const kind = (k: AnswerKind): DataRecord => {
    const a = stats?.answers.find((x) => x.kind === k);
    return {
      count: a?.count ?? 0,
      records: a?.records ?? 0,
      credits: credits(a?.creditsMilli ?? 0),
      oldest: iso(a?.oldest),
      newest: iso(a?.newest),
    };
  };
  return {
    engine: stats?.engine ?? engine,
    location,
    exists: stats !== undefined,
    schema_version: stats?.schemaVersion ?? null,
    size_bytes: stats?.sizeBytes ?? 0,
    answers: { creator: kind('creator'), page: kind('page') },
    spend: {
      entries: stats?.spend.entries ?? 0,
      credits: credits(stats?.spend.creditsMilli ?? 0),
      oldest: iso(stats?.spend.oldest),
      newest: iso(stats?.spend.newest),
    },
  };
}

export const STATS_COLUMNS: ColumnSpec[] = [
  // Whole, beside the labels or (on a narrow terminal) under the table: the labels are never cut for it.
  { path: 'location', header: 'Location', keep: true, wide: true },
  { path: 'engine', header: 'Engine' },
  { path: 'schema_version', header: 'Schema version' },
  { path: 'size_bytes', header: 'Size (bytes)' },
  { path: 'answers.creator.count', header: 'Creator records', kind: 'number' },
  { path: 'answers.creator.credits', header: 'Creator records: credits', kind: 'number' },
  { path: 'answers.creator.oldest', header: 'Creator records: oldest', kind: 'date' },
  { path: 'answers.creator.newest', header: 'Creator records: newest', kind: 'date' },
  { path: 'answers.page.count', header: 'Pages', kind: 'number' },
  { path: 'answers.page.records', header: 'Pages: creators on them', kind: 'number' },
  { path: 'answers.page.credits', header: 'Pages: credits', kind: 'number' },
  { path: 'answers.page.oldest', header: 'Pages: oldest', kind: 'date' },
  { path: 'answers.page.newest', header: 'Pages: newest', kind: 'date' },
  { path: 'spend.entries', header: 'Spend log entries', kind: 'number' },
  { path: 'spend.credits', header: 'Spend log: credits', kind: 'number' },
  { path: 'spend.oldest', header: 'Spend log: oldest', kind: 'date' },
  { path: 'spend.newest', header: 'Spend log: newest', kind: 'date' },
];

/**
 * `instagram:noah_paws` (or `instagram:https://instagram.com/noah_paws`) -> the platform and the handle as the store
 * keeps it.
 */
export function parseCreatorRef(raw: string): { platform: string; handle: string } {
  const colon = raw.indexOf(':');
  const handle = colon > 0 ? normalizeHandle(raw.slice(colon + 1)) : '';
  if (colon <= 0 || handle === '') {
    throw new UsageError(`Invalid creator '${raw}': expected <platform>:<handle>, e.g. instagram:noah_paws.`);
  }
  return { platform: checkPlatform(raw.slice(0, colon), SOCIAL_PLATFORMS), handle };
}

/**
 * `1 creator record and 2 pages (its posts, or Discovery pages listing it)`, or `nothing`: what `forget` takes away.
 */
export function kindCountsText(c: KindCounts): string {
  const parts: string[] = [];
  if (c.creator > 0) parts.push(`${c.creator} creator ${c.creator === 1 ? 'record' : 'records'}`);
  if (c.page > 0) parts.push(`${c.page} ${c.page === 1 ? 'page' : 'pages'} (its posts, or Discovery pages listing it)`);
  return parts.length === 0 ? 'nothing' : parts.join(' and ');
}

export const SPEND_GROUPS = ['day', 'command', 'platform', 'profile'] as const;
export type SpendGroup = (typeof SPEND_GROUPS)[number];

/** `YYYY-MM-DD` of the local calendar day (the day budgets count in). */
function localDay(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function groupKey(e: SpendEntry, by: SpendGroup): string | null {
  switch (by) {
    case 'day':
      return localDay(e.at);
    case 'command':
      return e.command;
    case 'platform':
      return e.platform;
    default:
      return e.profile;
  }
}

interface Sum {
  requests: number;
  records: number;
  creditsMilli: number;
}

/** The spend log grouped: one row per group (days in order, other groups by credits spent), and the total. */
export interface SpendReport {
  rows: DataRecord[];
  total: Sum;
}

export async function groupSpend(entries: AsyncIterable<SpendEntry>, by: SpendGroup): Promise<SpendReport> {
  const groups = new Map<string | null, Sum>();
  const total: Sum = { requests: 0, records: 0, creditsMilli: 0 };
  for await (const e of entries) {
    // A free entry is a marker (a batch job opened or finished), not a charged request.
    if (e.creditsMilli === 0) continue;
    const key = groupKey(e, by);
    const sum = groups.get(key) ?? { requests: 0, records: 0, creditsMilli: 0 };
    for (const s of [sum, total]) {
      s.requests++;
      s.records += e.records;
      s.creditsMilli += e.creditsMilli;
    }
    groups.set(key, sum);
  }
  const sorted = [...groups].sort(([ka, a], [kb, b]) =>
    by === 'day'
      ? String(ka).localeCompare(String(kb))
      : b.creditsMilli - a.creditsMilli || String(ka ?? '').localeCompare(String(kb ?? '')),
  );
  return {
    rows: sorted.map(([key, s]) => ({
      [by]: key,
      requests: s.requests,
      records: s.records,
      credits: credits(s.creditsMilli),
    })),
    total,
  };
}

/**
 * Charges this CLI paid whose answers wait in the outbox (their store could not take them yet): spent all the
 * same, so counted in the log's figures (a charge the store has too, by its origin, once) and named.
 */
export function withOutbox(waiting: readonly OutboxEntry[]) {
  const counted = new Map<string, OutboxEntry>();
  return {
    counted,
    entries(
      logged: AsyncIterable<SpendEntry>,
      window: { since?: number | undefined; until?: number | undefined } = {},
    ): AsyncIterable<SpendEntry> {
      return (async function* () {
        const seen = new Set<string>();
        for await (const e of logged) {
          if (e.origin) seen.add(e.origin);
          yield e;
        }
        for (const w of waiting) {
          const e = w.spend;
          if (!e || (e.origin && seen.has(e.origin))) continue;
          if (
            (window.since !== undefined && e.at < window.since) ||
            (window.until !== undefined && e.at >= window.until)
          )
            continue;
          counted.set(e.origin ?? `${e.run}:${e.at}:${counted.size}`, w);
          yield e;
        }
      })();
    },
  };
}

/**
 * `2 charges (0.06 credits: instagram:ann, instagram:bob) are answers ... in the outbox <file>`: the rows lost in
 * flight, named.
 */
export function outboxNotice(waiting: readonly OutboxEntry[], file: string): string | undefined {
  if (waiting.length === 0) return undefined;
  const milli = waiting.reduce((sum, w) => sum + (w.spend?.creditsMilli ?? 0), 0);
  const names = waiting.map((w) =>
    w.answer?.subject
      ? `${w.answer.platform ?? ''}:${w.answer.subject}`
      : `${w.spend?.route ?? w.answer?.route ?? '?'}`,
  );
  const listed = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
  const one = waiting.length === 1;
  return `${one ? '1 charge' : `${waiting.length} charges`} of this log (${plural(credits(milli), 'credit')}: ${listed}) ${one ? 'is an answer' : 'are answers'} this CLI paid for that ${one ? 'waits' : 'wait'} in the outbox ${file}, not yet in the store; the next run that buys puts ${one ? 'it' : 'them'} there.`;
}

export interface AccountSide {
  /** `credits_used` of `GET /public/v1/accounts/credits/` in thousandths; null when it could not be read. */
  usedMilli: number | null;
  loggedMilli: number;
  loggedSince?: number | undefined;
}

export async function loggedTotal(
  entries: AsyncIterable<SpendEntry>,
): Promise<Pick<AccountSide, 'loggedMilli' | 'loggedSince'>> {
  let loggedMilli = 0;
  let loggedSince: number | undefined;
  for await (const e of entries) {
    loggedMilli += e.creditsMilli;
    loggedSince = loggedSince === undefined ? e.at : Math.min(loggedSince, e.at);
  }
  return { loggedMilli, loggedSince };
}

/** The account's `credits_used` beside the log's total, and why they can differ. */
export function accountNotice(a: AccountSide): string {
  const used = credits(a.usedMilli ?? 0);
  const logged = credits(a.loggedMilli);
  const head = `The account has used ${plural(used, 'credit')} in all (credits_used of GET /public/v1/accounts/credits/)`;
  const diff = (a.usedMilli ?? 0) - a.loggedMilli;
  if (diff === 0) return a.loggedMilli === 0 ? `${head}.` : `${head}, all of them in this spend log.`;
  if (diff > 0) {
    const began =
      a.loggedSince === undefined ? 'before this log began' : `before this log began (${humanDate(a.loggedSince)})`;
    return `${head}; this spend log holds ${countText(logged)} of them. The other ${plural(credits(diff), 'credit')} were charged outside it: by requests in flight when a run was killed (kill -9, a lost machine: their answers never arrived, so no run could log them), by the service itself, such as daily monitoring, by other clients, or ${began}.`;
  }
  return `${head}, ${countText(credits(-diff))} less than this spend log holds (${countText(logged)}): the store may be shared with profiles of other accounts (CREATORS_STORE, the store setting).`;
}

/** The last row of `spend`: the window's totals, and the account's all-time `credits_used` beside the log's. */
export function totalRow(by: SpendGroup, total: Sum, account: AccountSide): DataRecord {
  return {
    [by]: 'total',
    requests: total.requests,
    records: total.records,
    credits: credits(total.creditsMilli),
    account_credits_used: account.usedMilli === null ? null : credits(account.usedMilli),
    logged_all_time: credits(account.loggedMilli),
    difference: account.usedMilli === null ? null : credits(account.usedMilli - account.loggedMilli),
  };
}

export function windowText(since: number, until: number | undefined): string {
  return `${humanDate(since)} and ${until === undefined ? 'now' : humanDate(until)}`;
}

/** Terminal columns of `spend --by <by>` (the account's figures are said under the table). */
export function spendColumns(by: SpendGroup): ColumnSpec[] {
  return [
    { path: by, header: by[0]?.toUpperCase() + by.slice(1), keep: true },
    { path: 'requests', header: 'Requests', kind: 'number' },
    { path: 'records', header: 'Records', kind: 'number' },
    { path: 'credits', header: 'Credits', kind: 'number' },
  ];
}

export interface StoreChangePlan {
  record: DataRecord;
  text: string;
}

/** A dry run's plan is data on stdout, as a request's plan is. */
export async function printStoreChangePlan(
  io: Terminal,
  settings: OutputSettings,
  plan: StoreChangePlan,
): Promise<void> {
  const record = { dry_run: true, ...plan.record };
  if (settings.format === 'json' || settings.format === 'jsonl') {
    await printText(io, settings, `${jsonText(record, settings.format === 'json' ? 2 : undefined)}\n`);
    return;
  }
  await printText(io, settings, `Dry run: nothing was changed.\n${plan.text}\n`);
}

/** `45 s`, `10 min`, `23 h`, `3 d`: how long, as a person reads it. */
export function spanText(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

/** `pid 123 on this host`, `pid 5 on build-2`. */
export function holderText(h: Holder, myHost: string): string {
  return `pid ${h.pid} on ${h.host === myHost ? 'this host' : h.host}`;
}

/** What `store doctor` does with an entry. */
export type DoctorAction = 'cleared' | 'would clear' | 'kept';

/** Why an entry is in its state, in words: `its process (pid 123 on this host) is gone`. */
export function stateWhy(e: SharedEntry, now: number, myHost: string): string {
  if (e.kind === 'pace') {
    const ahead = e.at - now;
    if (e.state === 'ahead')
      return `its next slot is ${spanText(ahead)} ahead of the clock (a machine with a wrong clock wrote it)`;
    return ahead > 0 ? `its next slot is in ${spanText(ahead)}` : 'its next slot is free now';
  }
  const h = e.holder as Holder;
  const who = holderText(h, myHost);
  const since = spanText(now - (e.seenAt ?? now));
  switch (e.state) {
    case 'dead':
      return `its process (${who}) is gone`;
    case 'silent':
      return `not heard from for ${since} (${who}, another host)`;
    case 'ahead':
      return `${spanText((e.seenAt ?? now) - now)} ahead of the clock (${who}, a machine with a wrong clock)`;
    default:
      return h.host === myHost ? `its process (${who}) is running` : `heard from ${since} ago (${who})`;
  }
}

/** One entry of `store doctor` for machine formats: full ids, times as ISO 8601, spans in seconds. */
export function doctorRecord(e: SharedEntry, action: DoctorAction, now: number, myHost: string): DataRecord {
  const seenAgo = e.seenAt === null ? null : Math.round((now - e.seenAt) / 1000);
  const aheadMs = e.kind === 'pace' ? e.at - now : e.seenAt === null ? 0 : e.seenAt - now;
  return {
    kind: e.kind,
    id: e.id,
    state: e.state,
    why: stateWhy(e, now, myHost),
    action,
    // Flat, so csv has the same columns whatever the kind.
    holder_pid: e.holder?.pid ?? null,
    holder_host: e.holder?.host ?? null,
    holder_this_host: e.holder ? e.holder.host === myHost : null,
    holder_run: e.holder?.run ?? null,
    seen_at: iso(e.seenAt),
    seen_seconds_ago: seenAgo,
    ahead_seconds: e.state === 'ahead' || (e.kind === 'pace' && aheadMs > 0) ? Math.round(aheadMs / 1000) : 0,
    reserved_credits: e.reservedMilli === null ? null : credits(e.reservedMilli),
    profile: e.profile ?? null,
    at: iso(e.at),
  };
}

/** The short id a table shows: a claim's key and a run's id cut to 12 characters, a pace as `<host> <profile>`. */
function shortId(e: SharedEntry): string {
  if (e.kind !== 'pace') return e.id.slice(0, 12);
  // A pace is `<base URL> <profile>`.
  const cut = e.id.lastIndexOf(' ');
  const url = e.id.slice(0, cut);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Not a URL: shown as kept.
  }
  return cut > 0 ? `${host} ${e.id.slice(cut + 1)}` : e.id;
}

/** One entry of `store doctor` as a table row: what a person reads (the full record is in --json). */
export function doctorRow(e: SharedEntry, action: DoctorAction, now: number, myHost: string): DataRecord {
  const ahead = e.kind === 'pace' ? e.at - now : (e.seenAt ?? now) - now;
  const seen =
    e.kind === 'pace'
      ? ahead > 0
        ? `${spanText(ahead)} ahead`
        : ''
      : e.state === 'ahead'
        ? `${spanText(ahead)} ahead`
        : `${spanText(now - (e.seenAt ?? now))} ago`;
  return {
    kind: e.kind,
    id: shortId(e),
    holder: e.holder ? holderText(e.holder, myHost) : '',
    state: e.state,
    seen,
    reserved_credits: e.reservedMilli === null ? null : credits(e.reservedMilli),
    action,
  };
}

/** Terminal columns of `store doctor`. */
export const DOCTOR_COLUMNS: ColumnSpec[] = [
  { path: 'kind', header: 'Kind', whole: true, priority: 3 },
  { path: 'id', header: 'Id', priority: 1 },
  { path: 'holder', header: 'Holder', priority: 2 },
  { path: 'state', header: 'State', whole: true, priority: 4 },
  { path: 'seen', header: 'Seen', wide: true },
  { path: 'reserved_credits', header: 'Credits', kind: 'number', wide: true },
];

/** `reservation 3f9a0c1e22b4: dead: its process (pid 4242 on this host) is gone`: one stuck entry, said in words. */
export function doctorLine(e: SharedEntry, now: number, myHost: string): string {
  const held = e.reservedMilli === null ? '' : ` (${plural(credits(e.reservedMilli), 'credit')} reserved)`;
  return `${e.kind} ${shortId(e)}${held}: ${e.state}: ${stateWhy(e, now, myHost)}`;
}
