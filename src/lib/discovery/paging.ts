import { UsageError } from '../errors.js';
import { storedAt } from '../http/client.js';
import { maxPages, type DiscoveryAccount, type DiscoveryPage, type PagePlan } from '../api/discovery.js';
import { DISCOVERY_PAGE_LIMIT, DISCOVERY_RESULT_CAP } from '../../contract/limits.js';

/**
 * The number of the first page on the wire, from CREATORS_PAGE_BASE or the `page-base` setting
 * (`raw`), else 0: the base both official clients send (the FAQ says 1; the setting exists for a
 * server that agrees with it).
 */
export function pageBase(raw: string | undefined): 0 | 1 {
  const text = (raw ?? '0').trim();
  if (text === '0') return 0;
  if (text === '1') return 1;
  throw new UsageError(`Invalid page base '${raw ?? ''}': use 0 or 1 (CREATORS_PAGE_BASE or \`creators config set page-base\`).`);
}

/**
 * The page size for `--max-results n` (from page 1, no `--limit`): the largest size (1-50) that splits
 * n into the fewest equal pages when one exists (120 = 40 x 3, 51 = 17 x 3), else 50, the rest being
 * fetched by `nextLimit`'s smaller aligned requests (101 = 50 + 50 + 1). Either way exactly n are bought.
 */
export function choosePageLimit(maxResults: number): number {
  const wanted = Math.min(maxResults, DISCOVERY_RESULT_CAP);
  if (wanted <= DISCOVERY_PAGE_LIMIT.max) return wanted;
  const fewest = Math.ceil(wanted / DISCOVERY_PAGE_LIMIT.max);
  return wanted % fewest === 0 ? wanted / fewest : DISCOVERY_PAGE_LIMIT.max;
}

/**
 * The page size of the next request. Whole pages of the plan's size while they fit; then, so that
 * exactly `remaining` more creators are bought, smaller pages at aligned offsets: a page of size d at
 * offset o is `page = o / d`, so d must divide o (page 50 with limit 1 is creator 51). With
 * `remaining` undefined (no `--max-results`) it is always the plan's size.
 */
export function nextLimit(offset: number, remaining: number | undefined, limit: number): number {
  if (remaining === undefined || (remaining >= limit && offset % limit === 0)) return limit;
  const target = Math.max(1, Math.min(remaining, limit));
  if (offset === 0) return target;
  for (let d = target; d > 1; d--) if (offset % d === 0) return d;
  return 1;
}

/** What a run did, filled in as pages arrive (for the summary line, also after an error). */
export interface RunTally {
  pages: number;
  /** Creators returned by the server (and so charged), including any not printed. */
  returned: number;
  printed: number;
  spentMilli: number;
  creditsLeft?: string | number | undefined;
  /** Pages answered from the store (0 credits). */
  fromStore?: number;
  /** Creators paid for again: already on an earlier page of the run (pages overlapping), not printed twice. */
  duplicatesPaid?: number;
  total?: number | undefined;
  /** Why `--all` stopped. */
  stop?: 'end' | 'max-results' | 'cap' | 'repeat' | 'declined' | undefined;
}

export function newTally(): RunTally {
  return { pages: 0, returned: 0, printed: 0, spentMilli: 0 };
}

function identity(a: DiscoveryAccount): string | undefined {
  const profile = a.profile as Record<string, unknown> | undefined;
  const id = a.user_id ?? profile?.username;
  return id === undefined || id === null ? undefined : String(id);
}

/**
 * Streams the creators of one page, or (`all`) of page after page, as they arrive. `fetchPage`
 * receives the wire page number (user page - 1 + base). Stops at the end of the result set (a short
 * or empty page, or `total` reached), after the page that reaches `maxResults` (a page is paid in
 * full, so all its creators are yielded, possibly a few more than `maxResults`; see
 * `choosePageLimit`), or at the 10,000-result cap. A creator already
 * seen is not printed twice; a page of nothing but repeats (a server counting pages from another
 * base) stops the run with `stop: 'repeat'` instead of paying for the same page again and again.
 *
 * Pages a sequential run is certain to buy are fetched concurrently, up to `window()` at once (the
 * caller sizes it from the pace and the latency: one at a few milliseconds, more when each page takes
 * seconds): once two pages have come back whole (so the page base is right) and the total is known,
 * every later full page below the total, `maxResults` and the cap is one the sequential run would buy,
 * whatever the pages hold (repeats only lower the count printed, so they never end a run sooner there).
 * The output stays in page order. If a page fails while later ones are on their way, those that come
 * back were paid for: they are yielded (after the gap) before the error is thrown, so nothing paid is
 * lost; pages not yet sent are not sent (Ctrl-C stops them in the client).
 */
export async function* discoveryRecords(
  plan: PagePlan,
  base: 0 | 1,
  fetchPage: (wirePage: number, limit: number) => Promise<DiscoveryPage>,
  tally: RunTally,
  onPage?: (page: DiscoveryPage, index: number) => void,
  window: () => number = () => 1,
  /**
   * Asked once the first page of an `--all` run is in and more would follow, before anything more is
   * sent: false stops the run there (`stop: 'declined'`), keeping the first page.
   */
  goOn?: (nextOffset: number, printedAfter: number) => Promise<boolean>,
): AsyncGenerator<DiscoveryAccount> {
  const seen = new Set<string>();
  // Requests are bounded: whole pages, plus at most a few aligned tail requests.
  const maxRequests = maxPages(plan) + 64;
  let requests = 0;
  const startOffset = (plan.page - 1) * plan.limit;
  const remaining = (printed: number): number | undefined => (plan.all && plan.maxResults !== undefined ? plan.maxResults - printed : undefined);
  interface Ahead {
    offset: number;
    limit: number;
    page: Promise<DiscoveryPage>;
  }
  const send = (offset: number, limit: number): Ahead => {
    requests++;
    const page = fetchPage(offset / limit + base, limit);
    // Awaited in the loop or in `finally`; never an unhandled rejection meanwhile.
    page.catch(() => {});
    return { offset, limit, page };
  };
  // Requests sent and not yet taken, in page order; the first is the page to print next.
  const ahead: Ahead[] = [send(startOffset, nextLimit(startOffset, remaining(0), plan.limit))];
  /** A full page the sequential run is certain to buy (see above). */
  const certain = (offset: number, pagesSeen: number): boolean =>
    pagesSeen >= 2 &&
    tally.total !== undefined &&
    offset < tally.total &&
    offset % plan.limit === 0 &&
    offset + plan.limit <= DISCOVERY_RESULT_CAP &&
    (plan.maxResults === undefined || offset - startOffset + plan.limit <= plan.maxResults) &&
    requests < maxRequests;
  /** Counts a page that came back and returns its creators not seen before. */
  const take = (page: DiscoveryPage, index: number): DiscoveryAccount[] => {
    const accounts = page.accounts;
    tally.pages++;
    tally.returned += accounts.length;
    // A page from the store was paid for when it was bought: nothing now, and its balance is stale.
    const stored = storedAt(page) !== undefined;
    if (stored) tally.fromStore = (tally.fromStore ?? 0) + 1;
    else tally.spentMilli += accounts.length * plan.priceMilli;
    if (page.credits_left !== undefined && !stored) tally.creditsLeft = page.credits_left;
    if (typeof page.total === 'number') tally.total = page.total;
    onPage?.(page, index);
    const fresh: DiscoveryAccount[] = [];
    for (const account of accounts) {
      const id = identity(account);
      if (id !== undefined) {
        if (seen.has(id)) {
          if (!stored) tally.duplicatesPaid = (tally.duplicatesPaid ?? 0) + 1;
          continue;
        }
        seen.add(id);
      }
      fresh.push(account);
    }
    return fresh;
  };
  /** Takes the pages bought ahead that come back (paid for), yielding what they bring that is new, in order. */
  async function* drainAhead(index: number): AsyncGenerator<DiscoveryAccount> {
    for (const later of ahead.splice(0)) {
      const got = await later.page.catch(() => undefined);
      if (!got) continue;
      for (const account of take(got, ++index)) {
        tally.printed++;
        yield account;
      }
    }
  }
  try {
    for (let i = 0; i < maxRequests; i++) {
      const head = ahead.shift();
      if (!head) break;
      let page: DiscoveryPage;
      try {
        page = await head.page;
      } catch (err) {
        // Pages after the failed one that come back were paid for: kept, in order, then the error.
        yield* drainAhead(i);
        throw err;
      }
      const { limit } = head;
      const accounts = page.accounts;
      const fresh = take(page, i);
      const printedAfter = tally.printed + fresh.length;
      const offset = head.offset + limit;
      let stop: RunTally['stop'];
      if (!plan.all) stop = undefined;
      else if (accounts.length > 0 && fresh.length === 0) stop = 'repeat';
      else if (plan.maxResults !== undefined && printedAfter >= plan.maxResults) stop = 'max-results';
      else if (accounts.length < limit || (tally.total !== undefined && offset >= tally.total)) stop = 'end';
      else if (offset >= DISCOVERY_RESULT_CAP) stop = 'cap';
      if (plan.all && stop === undefined && i === 0 && goOn !== undefined && !(await goOn(offset, printedAfter))) stop = 'declined';
      if (plan.all && stop === undefined) {
        // The next request of the plan is sent while this page is being written (pipelining hides the
        // client's share of the time): always what the run would fetch next anyway.
        if (ahead.length === 0 && requests < maxRequests) ahead.push(send(offset, nextLimit(offset, remaining(printedAfter), plan.limit)));
        // Then the pages it is certain to buy after that, while the window allows.
        const limitNow = Math.max(1, Math.floor(window()));
        for (;;) {
          const last = ahead[ahead.length - 1];
          if (!last || ahead.length >= limitNow) break;
          const at = last.offset + last.limit;
          if (last.limit !== plan.limit || !certain(at, i + 1)) break;
          ahead.push(send(at, plan.limit));
        }
      }
      // No cut at maxResults inside a page: its creators are already paid for, so they are all yielded.
      for (const account of fresh) {
        tally.printed++;
        yield account;
      }
      if (!plan.all) return;
      if (stop !== undefined) {
        // Only a server whose total was wrong (a short page before it) or that repeats itself stops with
        // pages bought ahead: they were paid for, so what they bring that is new is kept.
        yield* drainAhead(i);
        return void (tally.stop = stop);
      }
    }
    if (plan.all) tally.stop = plan.maxResults !== undefined && tally.printed >= plan.maxResults ? 'max-results' : 'cap';
  } finally {
    // The run stopped while pages were on their way (Ctrl-C, a write error): they may be charged, so
    // they are counted in the spend the summary reports.
    for (const later of ahead.splice(0)) {
      const page = await later.page.catch(() => undefined);
      if (page) {
        tally.pages++;
        tally.returned += page.accounts.length;
        if (storedAt(page) === undefined) {
          tally.spentMilli += page.accounts.length * plan.priceMilli;
          if (page.credits_left !== undefined) tally.creditsLeft = page.credits_left;
        } else tally.fromStore = (tally.fromStore ?? 0) + 1;
      }
    }
  }
}
