import { UsageError } from '../errors.js';
import { storedAt } from '../http/types.js';
import { maxPages, type DiscoveryAccount, type DiscoveryPage, type PagePlan } from '../api/discovery.js';
import { DISCOVERY_PAGE_LIMIT, DISCOVERY_RESULT_CAP } from '../../contract/limits.js';

/** Default 0, the base both official clients send (the FAQ says 1; the setting is for a server that agrees with it). */
export function pageBase(raw: string | undefined): 0 | 1 {
  const text = (raw ?? '0').trim();
  if (text === '0') return 0;
  if (text === '1') return 1;
  throw new UsageError(
    `Invalid page base '${raw ?? ''}': use 0 or 1 (CREATORS_PAGE_BASE or \`creators config set page-base\`).`,
  );
}

/** The largest size splitting n into the fewest equal pages (120 = 40 x 3), else 50 with `nextLimit`'s aligned tail
 * (101 = 50 + 50 + 1): either way exactly n are bought. */
export function choosePageLimit(maxResults: number): number {
  const wanted = Math.min(maxResults, DISCOVERY_RESULT_CAP);
  if (wanted <= DISCOVERY_PAGE_LIMIT.max) return wanted;
  const fewest = Math.ceil(wanted / DISCOVERY_PAGE_LIMIT.max);
  return wanted % fewest === 0 ? wanted / fewest : DISCOVERY_PAGE_LIMIT.max;
}

/** To buy exactly `remaining` more: smaller pages at aligned offsets, since a page of size d at offset o is
 * `page = o / d`, so d must divide o (page 50 with limit 1 is creator 51). */
export function nextLimit(offset: number, remaining: number | undefined, limit: number): number {
  if (remaining === undefined || (remaining >= limit && offset % limit === 0)) return limit;
  const target = Math.max(1, Math.min(remaining, limit));
  if (offset === 0) return target;
  for (let d = target; d > 1; d--) if (offset % d === 0) return d;
  return 1;
}

export interface RunTally {
  pages: number;
  /** Charged, including any not printed. */
  returned: number;
  printed: number;
  spentMilli: number;
  creditsLeft?: string | number | undefined;
  fromStore?: number;
  duplicatesPaid?: number;
  total?: number | undefined;
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
 * A page is paid in full, so all of it is yielded (possibly past `maxResults`); a page of nothing but repeats (a server
 * counting from another base) stops the run. Up to `window()` pages go out at once, but only pages the sequential run
 * is certain to buy: after two whole pages with the total known, full pages below the total, `maxResults` and the cap.
 * Pages are sent ahead only once the page before them has been taken by the output (`outputTaken`): a reader that
 * falls behind or goes away (`| head -1`) is never bought pages it will not read.
 */
export async function* discoveryRecords(
  plan: PagePlan,
  base: 0 | 1,
  fetchPage: (wirePage: number, limit: number) => Promise<DiscoveryPage>,
  tally: RunTally,
  onPage?: (page: DiscoveryPage, index: number) => void,
  window: () => number = () => 1,
  /** Asked after the first page of `--all`, before anything more is sent: false stops there (`declined`). */
  goOn?: (nextOffset: number, printedAfter: number) => Promise<boolean>,
  /**
   * Settles once the records yielded so far have been taken by the output (not waiting on its reader), with the
   * bytes it has taken in all (undefined: not counted).
   */
  outputTaken?: () => Promise<number | undefined>,
): AsyncGenerator<DiscoveryAccount> {
  const seen = new Set<string>();
  // Requests are bounded: whole pages, plus at most a few aligned tail requests.
  const maxRequests = maxPages(plan) + 64;
  let requests = 0;
  const startOffset = (plan.page - 1) * plan.limit;
  const remaining = (printed: number): number | undefined =>
    plan.all && plan.maxResults !== undefined ? plan.maxResults - printed : undefined;
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
  const ahead: Ahead[] = [send(startOffset, nextLimit(startOffset, remaining(0), plan.limit))];
  // Times the output was seen to take more (two: it took a page, and took more after the next was asked for).
  let tookMore = 0;
  let took: number | undefined = 0;
  const certain = (offset: number, pagesSeen: number): boolean =>
    pagesSeen >= 2 &&
    (outputTaken === undefined || tookMore >= 2) &&
    tally.total !== undefined &&
    offset < tally.total &&
    offset % plan.limit === 0 &&
    offset + plan.limit <= DISCOVERY_RESULT_CAP &&
    (plan.maxResults === undefined || offset - startOffset + plan.limit <= plan.maxResults) &&
    requests < maxRequests;
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
      if (plan.all && stop === undefined && i === 0 && goOn !== undefined && !(await goOn(offset, printedAfter)))
        stop = 'declined';
      for (const account of fresh) {
        tally.printed++;
        yield account;
      }
      if (!plan.all) return;
      if (stop !== undefined) {
        // A wrong total or a repeating server stops with pages bought ahead: paid for, so what they bring that is new
        // is kept.
        yield* drainAhead(i);
        return void (tally.stop = stop);
      }
      // This page written and taken by the reader first: a reader blocked (a slow pipe) or gone (EPIPE) gets no page
      // sent ahead, and more than the next page go out only once the reader has taken output twice (a closed pipe is
      // learnt only by writing to it: `| head -1` is bought the page it read and the one being written).
      if (outputTaken) {
        const now = await outputTaken();
        if (now === undefined || took === undefined || now > took) tookMore++;
        took = now;
      }
      // Always what the run would fetch next anyway; pages already on their way keep coming meanwhile.
      if (ahead.length === 0 && requests < maxRequests)
        ahead.push(send(offset, nextLimit(offset, remaining(printedAfter), plan.limit)));
      const limitNow = Math.max(1, Math.floor(window()));
      for (;;) {
        const last = ahead[ahead.length - 1];
        if (!last || ahead.length >= limitNow) break;
        const at = last.offset + last.limit;
        if (last.limit !== plan.limit || !certain(at, i + 1)) break;
        ahead.push(send(at, plan.limit));
      }
    }
    if (plan.all)
      tally.stop = plan.maxResults !== undefined && tally.printed >= plan.maxResults ? 'max-results' : 'cap';
  } finally {
    // Stopped while pages were on their way (Ctrl-C, a write error): they may be charged, so they count in the spend.
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
