// api-contract.md §8.1, §7, §5; every plan priced from src/contract.
import { normalizeHandle } from '../../contract/handles.js';
import { OVERLAP_CREATORS, POSTS_PAGE_SIZES, type CONTENT_PLATFORMS } from '../../contract/platforms.js';
import { CHARGED_MILLI, WORST_CASE_MILLI } from '../../contract/prices.js';
import { formatCredits } from '../words.js';
import { UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { keepStoredMark } from '../http/types.js';
import { readCharge } from './charge.js';
import { cleanHandle, readOutcome, type EnrichOutcome } from './enrichment.js';
import { pagedRun, type PageBound, type Plan } from './plan.js';
import { creditsLeftOf } from './content.js';

type ContentPlatform = (typeof CONTENT_PLATFORMS)[number];

export interface PostsRequest {
  platform: ContentPlatform;
  handle: string;
  /** Posts per page; Instagram's pages are a fixed 12, so it is not sent there. */
  count?: number | undefined;
  paginationToken?: string | undefined;
}

export function postsBody(req: PostsRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { platform: req.platform, handle: req.handle };
  if (req.count !== undefined && !POSTS_PAGE_SIZES[req.platform].fixed) body.count = req.count;
  if (req.paginationToken) body.pagination_token = req.paginationToken;
  return body;
}

/** Worst case of one posts request: the newest official client's 0.15, though the spec says 0.03. */
const POSTS_PRICE_MILLI = WORST_CASE_MILLI.creatorPosts;
const POSTS_PRICE_WHY = `(the newest official client's price; the spec says 0.03)`;

/**
 * Without `maxPages`, a credit budget bounds the pages (at the worst case); with neither the cost is unknown.
 */
export function creatorPostsPlan(req: PostsRequest, bound: PageBound): { plan: Plan; pages: number } {
  const price = POSTS_PRICE_MILLI;
  const { pages, costBasis } = pagedRun(bound, price, `${formatCredits(price)} ${POSTS_PRICE_WHY}`);
  return {
    plan: {
      method: 'POST',
      path: 'creators/content/posts',
      body: postsBody(req),
      worstCaseMilli: pages === undefined ? null : pages * price,
      costBasis,
      purchase: { kind: 'page', platform: req.platform, subject: normalizeHandle(req.handle) },
      label: 'Fetching posts…',
    },
    pages: pages ?? Infinity,
  };
}

export interface PostsPage extends EnrichOutcome {
  posts: Record<string, unknown>[];
  nextToken: string | undefined;
  creditsLeft: number | undefined;
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The response shape is unpublished: posts from `result.posts`, or a top-level or `data` list as a third-party client
 * saw it.
 */
export async function creatorPosts(http: HttpClient, req: PostsRequest): Promise<PostsPage> {
  const res = await http.request(creatorPostsPlan(req, { maxPages: 1 }).plan);
  return postsPageOf(res.data);
}

export function postsPageOf(data: unknown): PostsPage {
  const body = asObject(data);
  const top = Array.isArray(body.posts)
    ? body.posts
    : Array.isArray(asObject(body.data).posts)
      ? (asObject(body.data).posts as unknown[])
      : undefined;
  const outcome =
    top && !body.result
      ? { ...readOutcome(keepStoredMark(data, { ...body, result: { posts: top } })), response: data }
      : readOutcome(data);
  const list = outcome.result?.posts;
  const posts = Array.isArray(list)
    ? list.map((p) => (p && typeof p === 'object' ? (p as Record<string, unknown>) : { value: p }))
    : [];
  const token = body.next_token ?? outcome.result?.next_token;
  return {
    ...outcome,
    posts,
    nextToken: typeof token === 'string' && token ? token : undefined,
    creditsLeft: outcome.storedAt !== undefined ? undefined : creditsLeftOf(data),
  };
}

export function nextPostsToken(page: PostsPage): string | undefined {
  return page.posts.length === 0 ? undefined : page.nextToken;
}

/** Every page is a billed request; stops at a page with no cursor or no posts, or at a repeated cursor. */
export async function* creatorPostPages(
  http: HttpClient,
  req: PostsRequest,
  maxPages = Infinity,
): AsyncGenerator<PostsPage> {
  let token = req.paginationToken;
  const seen = new Set<string>();
  for (let n = 0; n < maxPages; n++) {
    const page = await creatorPosts(http, { ...req, paginationToken: token });
    yield page;
    const next = nextPostsToken(page);
    if (!next || seen.has(next)) return;
    seen.add(next);
    token = next;
  }
}

/** Nothing found costs nothing. */
export function connectedSocialsPlan(handle: string, platform: string): Plan {
  const price = WORST_CASE_MILLI.connectedSocials;
  return {
    method: 'POST',
    path: 'creators/socials',
    body: { platform, handle },
    worstCaseMilli: price,
    costBasis: `1 request x ${formatCredits(price)}`,
    purchase: { kind: 'creator', platform, subject: normalizeHandle(handle) },
    label: 'Finding connected socials…',
  };
}

/** A top-level `socials` list (a third-party client's reading of the unpublished shape) is read too. */
export async function connectedSocials(http: HttpClient, handle: string, platform: string): Promise<EnrichOutcome> {
  const plan = connectedSocialsPlan(handle, platform);
  const res = await http.request(plan);
  const body = asObject(res.data);
  if (body.result === undefined && Array.isArray(body.socials)) {
    const found = body.socials.length > 0;
    // An answer from the store was paid for when it was bought: it costs nothing now.
    const said =
      body.credits_cost !== undefined && body.credits_cost !== null ? readCharge(plan, res.data, found) : undefined;
    const cost =
      res.storedAt !== undefined
        ? 0
        : said?.refused
          ? (said.milli ?? 0) / 1000
          : Number(body.credits_cost ?? (found ? CHARGED_MILLI.connectedSocials / 1000 : 0)) || 0;
    return {
      status: found ? 'ok' : 'not_found',
      result: found ? { socials: body.socials } : null,
      creditsCost: cost,
      response: res.data,
      storedAt: res.storedAt,
    };
  }
  return readOutcome(res.data, plan);
}

export function cleanOverlapCreators(values: readonly string[]): string[] {
  const creators = values.map(cleanHandle);
  if (creators.length < OVERLAP_CREATORS.min || creators.length > OVERLAP_CREATORS.max) {
    throw new UsageError(
      `Give ${OVERLAP_CREATORS.min} to ${OVERLAP_CREATORS.max} creators to compare (got ${creators.length}).`,
    );
  }
  const seen = new Map<string, string>();
  for (const c of creators) {
    // One creator however it is written (`@Noah`, `noah`, its profile URL), as the service reads it.
    const key = normalizeHandle(c) || c.toLowerCase();
    const before = seen.get(key);
    if (before !== undefined) throw new UsageError(`'${c}' is given twice (as '${before}').`);
    seen.set(key, c);
  }
  return creators;
}

/** The creators in one order whatever order they were given in: one comparison is one request (and one purchase). */
function canonicalOrder(creators: readonly string[]): string[] {
  const keyed = creators.map((c) => ({ c, key: normalizeHandle(c) }));
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((k) => k.c);
}

/**
 * 1 credit per request, however many creators; sent in a canonical order (the answer is printed in the order given).
 */
export function audienceOverlapPlan(platform: string, creators: readonly string[]): Plan {
  const price = WORST_CASE_MILLI.audienceOverlap;
  return {
    method: 'POST',
    path: 'creators/audience/overlap',
    body: { platform, creators: canonicalOrder(creators) },
    worstCaseMilli: price,
    costBasis: `1 request x ${formatCredits(price)}`,
    purchase: { kind: 'creator', platform },
    label: 'Comparing audiences…',
  };
}

export interface OverlapAnswer {
  found: boolean;
  creditsCost: number;
  creditsLeft: number | undefined;
  details: Record<string, unknown>[];
  totalFollowers: number | undefined;
  totalUniqueFollowers: number | undefined;
  message: string | undefined;
  response: Record<string, unknown>;
}

/**
 * The overlap's own credits_cost, or the spend log's reading of it when the route cannot charge that
 * (lib/api/charge.ts).
 */
function overlapCharged(plan: Plan, body: Record<string, unknown>, found: boolean): number {
  const said =
    body.credits_cost !== undefined && body.credits_cost !== null ? readCharge(plan, body, found) : undefined;
  return said?.refused ? (said.milli ?? 0) / 1000 : (num(body.credits_cost) ?? 0);
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/**
 * The answer's rows in the order the creators were given (it was bought in a canonical order); rows it cannot match
 * follow, as they came.
 */
function inGivenOrder(details: readonly unknown[], creators: readonly string[]): unknown[] {
  const nameOf = (d: unknown): string => {
    const name = asObject(d).username ?? asObject(asObject(d).user).username;
    return typeof name === 'string' ? normalizeHandle(name) : '';
  };
  const rest = [...details];
  const ordered: unknown[] = [];
  for (const c of creators) {
    const i = rest.findIndex((d) => nameOf(d) === normalizeHandle(c));
    if (i >= 0) ordered.push(...rest.splice(i, 1));
  }
  return [...ordered, ...rest];
}

export async function audienceOverlap(
  http: HttpClient,
  platform: string,
  creators: readonly string[],
): Promise<OverlapAnswer> {
  const plan = audienceOverlapPlan(platform, creators);
  const res = await http.request(plan);
  const raw = asObject(res.data);
  const list = Array.isArray(raw.details) ? inGivenOrder(raw.details, creators) : undefined;
  const details = (list ?? []).filter((d): d is Record<string, unknown> => !!d && typeof d === 'object');
  // The whole answer (--json) lists them in that order too.
  const body: Record<string, unknown> = list ? keepStoredMark(raw, { ...raw, details: list }) : raw;
  const basics = asObject(body.basics);
  const message = typeof body.message === 'string' ? body.message : undefined;
  return {
    found: details.length > 0 && body.success !== false && body.status !== false,
    // An answer from the store was paid for when it was bought: it costs nothing now (its balance is stale).
    creditsCost:
      res.storedAt !== undefined
        ? 0
        : overlapCharged(plan, body, details.length > 0 && body.success !== false && body.status !== false),
    creditsLeft: res.storedAt !== undefined ? undefined : num(body.credits_left),
    details,
    totalFollowers: num(basics.total_followers),
    totalUniqueFollowers: num(basics.total_unique_followers),
    message,
    response: body,
  };
}

export function platformOfProfileUrl(value: string): ContentPlatform | undefined {
  const text = value.trim();
  if (!/^(https?:\/\/)?(www\.|m\.)?[a-z0-9.-]+\.[a-z]{2,}\//i.test(text)) return undefined;
  let host: string;
  try {
    host = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`).hostname
      .toLowerCase()
      .replace(/^(www\.|m\.)/, '');
  } catch {
    return undefined;
  }
  if (host === 'instagram.com') return 'instagram';
  if (host === 'tiktok.com') return 'tiktok';
  if (host === 'youtube.com') return 'youtube';
  return undefined;
}
