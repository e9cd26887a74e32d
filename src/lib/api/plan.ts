/**
 * A plan: one request described before it is sent (method, API path, query, body) with its
 * worst-case price. `lib/api` functions that send a request also describe it as a plan; `--dry-run`,
 * `--max-credits` and the confirmation above `confirm-above` read plans (lib/cost.ts `gate`).
 */
import type { Method, Purchase } from '../http/types.js';
import { buildUrl, type Query } from '../http/url.js';
import { plural } from '../words.js';

export interface Plan {
  method: Method;
  /** API path as sent (`/public/v1/` and the trailing slash are added by the URL rules). */
  path: string;
  query?: Query | undefined;
  body?: unknown;
  /** Worst-case cost in thousandths of a credit; null when it cannot be known in advance. */
  worstCaseMilli: number | null;
  /** What the cost is made of, e.g. `50 creators x 2 pages x 0.01`. */
  costBasis?: string | undefined;
  /** What a billable request buys, for the purchase memory (lib/store): reused within its window, kept once paid. */
  purchase?: Purchase | undefined;
  /**
   * A paging run (`search --all`) whose first request costs this much and which asks itself after it,
   * with the real number of matches (lib/cost.ts `confirmRest`): when this is within `confirm-above`,
   * the gate asks nothing before the first request.
   */
  confirmAfterFirstMilli?: number | undefined;
  /** What the wait spinner says while the request is out (`RequestOptions.label`). */
  label?: string | undefined;
}

/** A free plan (reads, and writes the service does not bill). */
export function freePlan(method: Method, path: string, extra: Pick<Plan, 'query' | 'body'> = {}): Plan {
  return { method, path, ...extra, worstCaseMilli: 0 };
}

/** The URL a plan goes to: the same rules the HTTP client applies when it sends it. */
export function planUrl(baseUrl: URL, plan: Pick<Plan, 'path' | 'query'>): URL {
  return buildUrl(baseUrl, plan.path, plan.query);
}

/** How many pages a cursor-paged run may fetch, as its plan function takes it. */
export interface PageBound {
  maxPages?: number | undefined;
  /** Without `maxPages`, the pages the budget pays for at the worst case. */
  budget?: Budget | undefined;
}

/** A credit budget in thousandths, and how a quote names it: the caller's words (`--max-credits`). */
export interface Budget {
  milli: number;
  named: string;
}

/**
 * The pages a cursor-paged run may buy at `priceMilli` a page, and its quote's cost basis (`each`: a page's price as
 * shown): `maxPages` when given, else as many as the budget pays for, else unknown. A budget below one page still
 * plans one, so the gate refuses it (exit 5) rather than ending as if there were nothing to read.
 */
export function pagedRun(
  bound: PageBound,
  priceMilli: number,
  each: string,
): { pages: number | undefined; costBasis: string } {
  const { maxPages, budget } = bound;
  const budgetPages =
    maxPages === undefined && budget !== undefined ? Math.floor(budget.milli / priceMilli) : undefined;
  const pages = maxPages ?? (budgetPages === undefined ? undefined : Math.max(1, budgetPages));
  const costBasis =
    maxPages !== undefined
      ? `${plural(maxPages, 'request')} x ${each}`
      : budget === undefined || budgetPages === undefined
        ? `pages unknown x ${each}`
        : budgetPages === 0
          ? `1 page x ${each}: ${budget.named} pays for no whole page`
          : `pages unknown x ${each}; stops after ${plural(budgetPages, 'page')} to stay within ${budget.named}`;
  return { pages, costBasis };
}

/** A cursor-paged run (posts, comments) as its plan function describes it. */
export interface CursorRun {
  /** The plan and page bound of the run from the page of `token` (undefined: the first). */
  plan(token: string | undefined, bound: PageBound): { plan: Plan; pages: number };
  /** The cursor the run follows after a page's answer, or undefined where it stops. */
  next(data: unknown): string | undefined;
  /** The cursor it starts from. */
  first: string | undefined;
  bound: PageBound;
}

/**
 * The plan of a cursor-paged run with the purchase memory: the pages the store answers from the first
 * on are followed through their own cursors (each stored page's token leads to the next request);
 * the gate then sees the first request to buy, priced for the rest only (`--max-pages` less the
 * stored pages, or what `--max-credits` pays for after them), its basis naming the pages from the
 * store at 0 credits. `pages` is the bound to run with: stored pages are not counted against a budget.
 */
export async function planAfterStoredPages(
  stored: ((plan: Plan) => Promise<unknown>) | undefined,
  run: CursorRun,
): Promise<{ plan: Plan; pages: number }> {
  const whole = run.plan(run.first, run.bound);
  if (!stored) return whole;
  let token = run.first;
  const seen = new Set<string>();
  let held = 0;
  let complete = false;
  // Stored pages cost nothing: only --max-pages bounds them (a budget bounds the pages bought).
  const most = run.bound.maxPages ?? Infinity;
  while (held < most) {
    const data = await stored(run.plan(token, { maxPages: 1 }).plan);
    if (data === undefined) break;
    held++;
    const next = run.next(data);
    if (next === undefined || seen.has(next)) {
      complete = true;
      break;
    }
    seen.add(next);
    token = next;
  }
  if (held === 0) return whole;
  const named = `${plural(held, 'page')} from the store at 0 credits`;
  if (complete || held >= most)
    return {
      plan: { ...run.plan(run.first, { maxPages: 1 }).plan, worstCaseMilli: 0, costBasis: `${named}; nothing to buy` },
      pages: Math.max(whole.pages, held),
    };
  const rest = run.plan(token, {
    maxPages: run.bound.maxPages === undefined ? undefined : run.bound.maxPages - held,
    budget: run.bound.budget,
  });
  return {
    plan: { ...rest.plan, costBasis: `${named}, then ${rest.plan.costBasis ?? 'the rest'}` },
    pages: held + rest.pages,
  };
}

/** A plan as `--dry-run` prints it (json/jsonl as this record, text otherwise; lib/output/plan.ts). */
export interface PlanRecord {
  dry_run: true;
  method: string;
  url: string;
  body: unknown;
  worst_case_credits: number | null;
  cost_basis: string | null;
}
