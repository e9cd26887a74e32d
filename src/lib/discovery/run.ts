// The paid part of `search` and `similar`; takes ports, never the Context. A run stopped midway keeps what it paid for.
import {
  discoveryPlan,
  discoveryPriceMilli,
  pageOf,
  postDiscoveryPage,
  worstCase,
  type DiscoveryKind,
  type DiscoveryPage,
  type DiscoveryRequest,
  type PagePlan,
} from '../api/discovery.js';
import { type RestOfRun } from '../cost.js';
import { formatCredits } from '../words.js';
import type { Plan } from '../api/plan.js';
import { InterruptedError, StdoutClosedError } from '../errors.js';
import { stdoutBytes, stdoutClosed, stdoutTaken } from '../output/sink.js';
import { isTerminalTable } from '../output/terminal-printers.js';
import type { HttpClient } from '../http/client.js';
import type { Terminal } from '../io/terminal.js';
import type { ColumnSpec, DataRecord, OutputSettings } from '../output/index.js';
import { pickedFields } from '../output/columns.js';
import { selectFields } from '../output/flatten.js';
import { printPaidItem, printPaidList } from '../output/paid.js';
import { checkExclusionLists } from './exclusions.js';
import { pagesInFlightFor } from '../bulk/concurrency.js';
import { pagingProgress } from '../bulk/progress.js';
import { discoveryRecords, newTally, type RunTally } from './paging.js';
import { countText, creditCount, plural } from '../words.js';
import { DISCOVERY_RESULT_CAP } from '../../contract/limits.js';

export const CREATOR_COLUMNS: ColumnSpec[] = [
  { path: 'profile.username', header: 'handle', keep: true },
  { path: 'profile.full_name', header: 'name', kind: 'text', priority: 1 },
  { path: 'profile.followers', header: 'followers', kind: 'count', priority: 2 },
  { path: 'profile.engagement_percent', header: 'engagement', kind: 'percent', priority: 1 },
];

export const CREATOR_WIDE_COLUMNS: ColumnSpec[] = [
  { path: 'profile.url', header: 'profile', wide: true, priority: -1 },
  { path: 'user_id', header: 'user id', wide: true, priority: -2 },
];

export interface DiscoveryPorts {
  http(): Promise<HttpClient>;
  term: Terminal;
  output: OutputSettings;
  /** `--dry-run` prints the plan and answers false. */
  gate(plan: Plan): Promise<boolean>;
  now?: (() => number) | undefined;
  /** When the gate left the question to the run: asked after the first page, with the real count (lib/cost.ts). */
  confirmRest?: ((rest: RestOfRun) => Promise<boolean>) | undefined;
  pageBase: 0 | 1;
  dryRun: boolean;
  hasCredential(): Promise<boolean>;
  signal?: AbortSignal | undefined;
  /** What the store would answer now: the pages a run would take from it are named in its plan, not priced. */
  stored?: ((plan: Plan) => Promise<unknown>) | undefined;
  /** Said by the summary when pages came from the store (how fresh, how to buy fresh), so only once. */
  storeClause?: (() => Promise<string>) | undefined;
}

export interface DiscoveryRun {
  kind: DiscoveryKind;
  platform: string;
  body: Record<string, unknown>;
  paging: Omit<PagePlan, 'priceMilli'>;
  returnFilterValues?: boolean | undefined;
  listIds: readonly number[];
  columns: ColumnSpec[];
  envelope?: boolean | undefined;
  /** How notices name the ways to page, bound and see a run: the words of the command that took them (its flags). */
  named: DiscoveryNames;
}

export interface DiscoveryNames {
  limit: string;
  all: string;
  page: string;
  maxResults: string;
  envelope: string;
  json: string;
  yes: string;
  /** Where filters the service applied on its own came from. */
  query: string;
}

export async function runDiscovery(ports: DiscoveryPorts, run: DiscoveryRun): Promise<void> {
  const { term, pageBase: base } = ports;
  const http = await ports.http();
  const plan: PagePlan = { ...run.paging, priceMilli: discoveryPriceMilli(run.kind, run.returnFilterValues) };
  const request = (wirePage: number, limit = plan.limit) => ({
    kind: run.kind,
    body: { ...run.body, paging: { limit, page: wirePage } },
    returnFilterValues: run.returnFilterValues,
  });
  // The free list check comes first, in dry runs too, so a dry run fails (exit 2) exactly when the real run would.
  await verifyExclusionLists(ports, run.platform, run.listIds);
  const fromStore = ports.stored ? await storedPrefix(ports.stored, plan, base, request) : undefined;
  // `--all` buys its first page within confirm-above unasked, then asks with the real count, not the 10,000-cap worst
  // case.
  const firstMilli = plan.limit * plan.priceMilli;
  const askAfterFirst = plan.all && fromStore === undefined && ports.confirmRest !== undefined;
  const gatePlan = fromStore
    ? restPlan(plan, base, request, fromStore)
    : discoveryPlan(request(plan.page - 1 + base), run.paging);
  if (!(await ports.gate(askAfterFirst ? { ...gatePlan, confirmAfterFirstMilli: firstMilli } : gatePlan))) {
    if (ports.dryRun && plan.all && fromStore === undefined) {
      term.notice(
        `The worst case assumes the ${countText(DISCOVERY_RESULT_CAP)}-result cap. To learn the real number of matches for ${creditCount(plan.priceMilli)}, run it once with ${run.named.limit} 1 instead of ${run.named.all} (on a terminal it ends "Showing 1 of N matches"; ${run.named.envelope} ${run.named.json} gives the total).`,
      );
    }
    return;
  }

  const tally = newTally();
  let first: DiscoveryPage | undefined;
  // Records streaming to the same terminal show the progress themselves (a table is drawn at the end).
  const recordsToTerminal =
    ports.term.stdoutIsTTY &&
    !ports.output.outputPath &&
    ports.output.format !== 'table' &&
    ports.output.pager === undefined;
  const progress = plan.all
    ? pagingProgress(ports.term, {
        label: run.kind,
        noun: ['creator', 'creators'],
        now: ports.now ?? Date.now,
        recordsToTerminal,
      })
    : undefined;
  const startOffset = (plan.page - 1) * plan.limit;
  const onPage = (page: DiscoveryPage, index: number): void => {
    if (index === 0) first = page;
    if (index === 0 && page.applied_filters !== undefined)
      term.notice(`Applied filters (from ${run.named.query}): ${describeFilters(page.applied_filters)}`);
    if (progress === undefined) return;
    let reach =
      tally.total === undefined ? undefined : Math.max(0, Math.min(tally.total, DISCOVERY_RESULT_CAP) - startOffset);
    if (plan.maxResults !== undefined) reach = Math.min(reach ?? plan.maxResults, plan.maxResults);
    progress.update({
      pages: tally.pages,
      records: tally.returned,
      creditsMilli: tally.spentMilli,
      totalRecords: reach,
    });
  };
  const toStdout =
    ports.output.outputPath === undefined || ports.output.outputPath === '' || ports.output.outputPath === '-';
  const fetchPage = (wire: number, limit: number): Promise<DiscoveryPage> => {
    if (ports.signal?.aborted) return Promise.reject(new InterruptedError());
    // Nobody reads any more (`| head -1`): no page is bought for nobody; the run ends quietly (exit 0).
    if (toStdout && stdoutClosed(ports.term)) return Promise.reject(new StdoutClosedError());
    return postDiscoveryPage(http, request(wire, limit));
  };
  const goOn = askAfterFirst
    ? (nextOffset: number, printed: number): Promise<boolean> => {
        const rest = restOfRun(plan, tally, nextOffset, printed);
        if (rest === undefined) return Promise.resolve(true);
        progress?.pause();
        return (ports.confirmRest as (r: RestOfRun) => Promise<boolean>)({
          firstMilli,
          spentMilli: tally.spentMilli,
          ...rest,
        });
      }
    : undefined;
  // Buy ahead only while the reader keeps up: the next page waits until stdout has taken this one. Output held to
  // the end (a terminal table, the pager, the envelope) has no reader to keep up with yet.
  const streams =
    toStdout && !run.envelope && ports.output.pager === undefined && !isTerminalTable(ports.term, ports.output);
  const outputTaken = streams
    ? async (): Promise<number | undefined> => {
        await stdoutTaken(ports.term, ports.signal);
        return stdoutBytes(ports.term);
      }
    : undefined;
  const paged = discoveryRecords(
    plan,
    base,
    fetchPage,
    tally,
    onPage,
    () => pagesInFlightFor(http.load()),
    goOn,
    outputTaken,
  );
  // A terminal table is drawn once every record is in: the progress line goes before that.
  const records =
    progress === undefined
      ? paged
      : (async function* () {
          try {
            yield* paged;
          } finally {
            progress.finish();
          }
        })();
  const paid = { spentMilli: () => tally.spentMilli, noun: 'creators' };
  let completed = false;
  try {
    const count = run.envelope
      ? await printEnvelope(ports.output, ports.term, records, () => first, tally)
      : await printPaidList(ports.term, ports.output, records, run.columns, paid);
    completed = true;
    if (count === 0 && ports.output.format === 'table') term.notice('No creators found.');
    if (tally.stop === 'repeat') {
      term.warn(
        'The server sent a page of creators already seen; stopped instead of paying for it again. Check the page base (CREATORS_PAGE_BASE or `creators config set page-base 0|1`).',
      );
    } else if (tally.stop === 'declined') {
      term.notice(
        `Stopped after the first page, as answered: nothing more was bought. ${run.named.maxResults} n buys fewer; ${run.named.yes} goes on without asking.`,
      );
    } else if (tally.stop === 'cap') {
      term.notice(`Stopped at the ${DISCOVERY_RESULT_CAP}-result cap of a query.`);
    }
    const extra = plan.maxResults === undefined ? 0 : tally.printed - plan.maxResults;
    if (extra > 0) {
      term.notice(
        // Requests are sized to add up to --max-results; only a server sending more than asked gets here.
        `The server returned ${plural(tally.printed, 'creator')}, ${countText(extra)} more than ${run.named.maxResults} ${plan.maxResults}; they were paid for, so they were kept.`,
      );
    }
  } finally {
    progress?.finish();
    // A stopped run's error carries the spend in its stop line instead.
    if (completed) {
      await summary(ports, tally, plan.priceMilli);
      showing(ports, plan, tally, run.named);
    }
  }
}

function restOfRun(
  plan: PagePlan,
  tally: RunTally,
  nextOffset: number,
  printed: number,
): Omit<RestOfRun, 'firstMilli' | 'spentMilli'> | undefined {
  const reachable = Math.min(tally.total ?? DISCOVERY_RESULT_CAP, DISCOVERY_RESULT_CAP);
  let creators = Math.max(0, reachable - nextOffset);
  if (plan.maxResults !== undefined) creators = Math.min(creators, Math.max(0, plan.maxResults - printed));
  if (creators === 0) return undefined;
  const pages = Math.ceil(creators / plan.limit);
  const restMilli = creators * plan.priceMilli;
  const count = tally.total === undefined ? 'The total is unknown' : plural(tally.total, 'match', 'matches');
  return {
    restMilli,
    question: `${count}: ${plural(pages, 'more page')}, up to ${creditCount(restMilli)} more. Continue?`,
  };
}

interface StoredPrefix {
  pages: number;
  creators: number;
  complete: boolean;
  next?: { offset: number; limit: number; printed: number } | undefined;
}

const NOT_STORED = Symbol('not stored');

/**
 * The run's own paging (same page sizes, stops and repeats) over what the store holds, up to the first page it does
 * not.
 */
async function storedPrefix(
  stored: (plan: Plan) => Promise<unknown>,
  plan: PagePlan,
  base: 0 | 1,
  request: (wirePage: number, limit?: number) => DiscoveryRequest,
): Promise<StoredPrefix | undefined> {
  const tally = newTally();
  let missing: { offset: number; limit: number } | undefined;
  const lookUp = async (wire: number, limit: number): Promise<DiscoveryPage> => {
    const data = await stored(discoveryPlan(request(wire, limit)));
    if (data === undefined) {
      // Requests go out in page order: the first one missing is where buying starts.
      missing ??= { offset: (wire - base) * limit, limit };
      throw NOT_STORED;
    }
    return pageOf(data);
  };
  let complete = true;
  try {
    for await (const _ of discoveryRecords(plan, base, lookUp, tally)) {
      // Only counted.
    }
  } catch (err) {
    if (err !== NOT_STORED) throw err;
    complete = false;
  }
  if (tally.pages === 0) return undefined;
  const next = missing === undefined ? undefined : { ...missing, printed: tally.printed };
  return { pages: tally.pages, creators: tally.returned, complete, next };
}

/** Priced for the rest of the run only, its basis naming what comes from the store at 0 credits. */
function restPlan(
  plan: PagePlan,
  base: 0 | 1,
  request: (wirePage: number, limit?: number) => DiscoveryRequest,
  stored: StoredPrefix,
): Plan {
  const named = `${plural(stored.pages, 'page')} (${plural(stored.creators, 'creator')}) from the store at 0 credits`;
  const first = discoveryPlan(request(plan.page - 1 + base));
  if (stored.complete || stored.next === undefined)
    return { ...first, worstCaseMilli: 0, costBasis: `${named}; nothing to buy` };
  const { offset, limit, printed } = stored.next;
  const next = discoveryPlan(request(offset / limit + base, limit));
  let rest: { milli: number; basis: string };
  if (plan.maxResults !== undefined && offset % plan.limit !== 0) {
    // In the smaller requests of the tail: exactly the creators still wanted.
    const wanted = Math.max(0, Math.min(plan.maxResults - printed, DISCOVERY_RESULT_CAP - offset));
    rest = {
      milli: wanted * plan.priceMilli,
      basis: `${plural(wanted, 'creator')} x ${formatCredits(plan.priceMilli)}`,
    };
  } else {
    rest = worstCase({
      ...plan,
      page: offset / plan.limit + 1,
      maxResults: plan.maxResults === undefined ? undefined : Math.max(0, plan.maxResults - printed),
    });
  }
  const from = offset % plan.limit === 0 ? ` from page ${offset / plan.limit + 1}` : '';
  return { ...next, worstCaseMilli: rest.milli, costBasis: `${named}, then${from}: ${rest.basis}` };
}

function showing(ports: DiscoveryPorts, plan: PagePlan, tally: RunTally, named: DiscoveryNames): void {
  if (!ports.term.stderrIsTTY || plan.all || tally.pages !== 1 || tally.total === undefined) return;
  const reachable = Math.min(tally.total, DISCOVERY_RESULT_CAP);
  const more = (plan.page - 1) * plan.limit + tally.returned < reachable && tally.returned > 0;
  const next = more ? `; ${named.page} ${plan.page + 1} or ${named.all}` : '';
  ports.term.notice(
    `Showing ${countText(tally.printed)} of ${plural(tally.total, 'match', 'matches')} (page ${plan.page})${next}`,
  );
}

/** The page is paid for when it arrives, so a failed write reports the spend (printPaidItem). */
async function printEnvelope(
  output: OutputSettings,
  io: Terminal,
  records: AsyncIterable<DataRecord>,
  page: () => DiscoveryPage | undefined,
  tally: RunTally,
): Promise<number> {
  const accounts: DataRecord[] = [];
  const fields = pickedFields(output);
  for await (const record of records) accounts.push(fields === undefined ? record : selectFields(record, fields));
  const first = page();
  const envelope: DataRecord = {
    total: first?.total ?? null,
    credits_left: first?.credits_left ?? null,
    applied_filters: first?.applied_filters ?? null,
    accounts,
  };
  await printPaidItem(io, { ...output, fields: undefined }, envelope, undefined, tally.spentMilli);
  return accounts.length;
}

/** A dry run without a credential cannot make the check, so it says so instead of implying the ids are fine. */
async function verifyExclusionLists(ports: DiscoveryPorts, platform: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if (ports.dryRun && !(await ports.hasCredential())) {
    ports.term.warn(
      `Exclusion lists not verified (${ids.join(', ')}): no credential to look them up with. Log in or set CREATORS_API_KEY to check them.`,
    );
    return;
  }
  await checkExclusionLists(await ports.http(), platform, ids);
}

/** Creators paid for twice (the service's pages overlap when its results move) are counted in the terminal summary;
 * off a terminal they get a line of their own, so a script's log shows what was paid for nothing. */
async function summary(ports: DiscoveryPorts, tally: RunTally, priceMilli: number): Promise<void> {
  const dups = tally.duplicatesPaid ?? 0;
  if (!ports.term.stderrIsTTY || tally.pages === 0) {
    if (dups > 0) {
      ports.term.notice(
        `Paid for ${plural(dups, 'duplicate creator')} (${creditCount(dups * priceMilli)}): on an earlier page too, as the pages overlapped; printed once.`,
      );
    }
    return;
  }
  const left =
    tally.creditsLeft === undefined
      ? ''
      : `; ${plural(typeof tally.creditsLeft === 'number' ? tally.creditsLeft : String(tally.creditsLeft), 'credit')} left`;
  const stored = tally.fromStore
    ? `; ${countText(tally.fromStore)} from the store${(await ports.storeClause?.()) ?? ''}`
    : '';
  const repeated = dups > 0 ? `; ${plural(dups, 'duplicate')} paid for, printed once` : '';
  ports.term.notice(
    `Spent ${creditCount(tally.spentMilli)} on ${plural(tally.returned, 'creator')} (${plural(tally.pages, 'page')}${stored}${repeated})${left}.`,
  );
}

function describeFilters(applied: unknown): string {
  if (!applied || typeof applied !== 'object' || Array.isArray(applied)) return JSON.stringify(applied);
  const shown = { ...(applied as Record<string, unknown>) };
  if (Array.isArray(shown.exclude_handles)) shown.exclude_handles = plural(shown.exclude_handles.length, 'handle');
  return JSON.stringify(shown);
}
