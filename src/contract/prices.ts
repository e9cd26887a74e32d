/**
 * The one price table, in thousandths of a credit (integers, so sums never drift), shared by the
 * CLI (worst-case estimates: `--dry-run`, `--max-credits`, the confirmation) and the sandbox (the
 * ledger). Prices come from service-spec.md (Limits -> Credits) and api-contract.md.
 *
 * Where the sources disagree, both figures are kept: `chargedMilli` is what the spec's pricing table
 * says (the sandbox charges it) and `worstCaseMilli` is the higher published figure (the CLI bounds
 * the cost with it). They differ for creator posts (0.03 vs 0.15). Email basic's 0.1 is the old MCP README's
 * alone; the spec's table, the docs and the newest MCP all charge 0.05, so a dry run quotes what is charged.
 */
import type { EmailMode, HandleMode } from './platforms.js';

export interface Price {
  /** The route the price belongs to: the path under `/public/v1/`, without slashes at the ends. */
  route: string;
  /** What one unit is: a request, a creator returned, or a creator watched for a day. */
  per: 'request' | 'creator' | 'creator-day';
  /** What the service charges per the spec's pricing table (the sandbox charges this). */
  chargedMilli: number;
  /** The highest published price (the CLI's worst case). */
  worstCaseMilli: number;
  /** Set when this price applies only under a query parameter. */
  query?: Readonly<Record<string, string>>;
}

export const PRICES = {
  discoveryPerCreator: { route: 'discovery', per: 'creator', chargedMilli: 10, worstCaseMilli: 10 },
  /** Replaces, not adds to, the 0.01 rate when `return_filter_values=true`. */
  discoveryPerCreatorWithFilterValues: {
    route: 'discovery',
    per: 'creator',
    chargedMilli: 30,
    worstCaseMilli: 30,
    query: { return_filter_values: 'true' },
  },
  similarPerCreator: { route: 'discovery/creators/similar', per: 'creator', chargedMilli: 10, worstCaseMilli: 10 },
  enrichRaw: { route: 'creators/enrich/handle/raw', per: 'request', chargedMilli: 30, worstCaseMilli: 30 },
  enrichProfile: { route: 'creators/enrich/handle/profile', per: 'request', chargedMilli: 200, worstCaseMilli: 200 },
  enrichAnalytics: {
    route: 'creators/enrich/handle/analytics',
    per: 'request',
    chargedMilli: 800,
    worstCaseMilli: 800,
  },
  enrichFull: { route: 'creators/enrich/handle/full', per: 'request', chargedMilli: 1000, worstCaseMilli: 1000 },
  /** 0.05 in the spec's table, the docs and the newest MCP; only the old MCP README says 0.1. */
  enrichEmailBasic: { route: 'creators/enrich/email', per: 'request', chargedMilli: 50, worstCaseMilli: 50 },
  enrichEmailAdvanced: {
    route: 'creators/enrich/email/advanced',
    per: 'request',
    chargedMilli: 2000,
    worstCaseMilli: 2000,
  },
  postDetails: { route: 'creators/content/details', per: 'request', chargedMilli: 30, worstCaseMilli: 30 },
  /** 0.03 in the spec and older material, 0.15 in the newest official client. */
  creatorPosts: { route: 'creators/content/posts', per: 'request', chargedMilli: 30, worstCaseMilli: 150 },
  connectedSocials: { route: 'creators/socials', per: 'request', chargedMilli: 500, worstCaseMilli: 500 },
  audienceOverlap: { route: 'creators/audience/overlap', per: 'request', chargedMilli: 1000, worstCaseMilli: 1000 },
  /** Per distinct creator per day, however many subscriptions or campaigns watch it. */
  monitoringPerCreatorDay: { route: 'social/listening', per: 'creator-day', chargedMilli: 300, worstCaseMilli: 300 },
} as const satisfies Record<string, Price>;

export type PriceKey = keyof typeof PRICES;

const pick = (field: 'chargedMilli' | 'worstCaseMilli'): Readonly<Record<PriceKey, number>> =>
  Object.fromEntries(Object.entries(PRICES).map(([key, price]) => [key, price[field]])) as Record<PriceKey, number>;

/** `PRICES` reduced to what the service charges (the sandbox's ledger). */
export const CHARGED_MILLI = pick('chargedMilli');

/** `PRICES` reduced to the highest published figure (the CLI's worst case). */
export const WORST_CASE_MILLI = pick('worstCaseMilli');

/** The price of each enrichment mode (single calls, and each enriched row of a batch job). */
export const MODE_PRICE: Readonly<Record<HandleMode | EmailMode, PriceKey>> = {
  raw: 'enrichRaw',
  profile: 'enrichProfile',
  analytics: 'enrichAnalytics',
  full: 'enrichFull',
  basic: 'enrichEmailBasic',
  advanced: 'enrichEmailAdvanced',
};

/** The route a batch job bills its rows to (at the mode's single-call price). */
export const BATCH_ROUTE = 'enrichment/batch';

/**
 * The per-request price of a route (path under `/public/v1/`, slashes at the ends ignored), or
 * undefined when the route has no fixed price per request (free, per creator, or unknown).
 */
export function requestPriceOf(route: string): Price | undefined {
  const r = route.replace(/^\/+|\/+$/g, '');
  return Object.values(PRICES).find((p: Price) => p.per === 'request' && p.route === r);
}

/** `/public/v1/<route>/`, the path a price's route answers on (as the sandbox records charges). */
export function routePath(route: string): string {
  return `/public/v1/${route}/`;
}
