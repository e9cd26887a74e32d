import { WORST_CASE_MILLI } from '../../contract/prices.js';
import { formatCredits } from '../words.js';
import { UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { readOutcome, type EnrichOutcome } from './enrichment.js';
import { pagedRun, type PageBound, type Plan } from './plan.js';

import type { ContentKind } from '../../contract/platforms.js';

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The API wants the id, not a URL (api-contract.md §8.2): the id, and the URL's platform (none for a bare id). */
export function parsePostRef(value: string): { platform: string | undefined; postId: string } {
  const text = value.trim();
  if (ID.test(text)) return { platform: undefined, postId: text };
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    throw new UsageError(
      `Invalid post id '${value}': only letters, digits, '-' and '_' are allowed, or give the post URL.`,
    );
  }
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.|vm\.)/, '');
  const parts = url.pathname.split('/').filter(Boolean);
  let found: { platform: string; postId: string | undefined } | undefined;
  if (host === 'instagram.com' || host === 'instagr.am') {
    const i = parts.findIndex((p) => ['p', 'reel', 'reels', 'tv'].includes(p));
    found = { platform: 'instagram', postId: i >= 0 ? parts[i + 1] : undefined };
  } else if (host === 'tiktok.com') {
    const i = parts.indexOf('video');
    found = { platform: 'tiktok', postId: i >= 0 ? parts[i + 1] : undefined };
  } else if (host === 'youtube.com' || host === 'music.youtube.com') {
    const id =
      parts[0] === 'watch'
        ? (url.searchParams.get('v') ?? undefined)
        : parts[0] === 'shorts' || parts[0] === 'live'
          ? parts[1]
          : undefined;
    found = { platform: 'youtube', postId: id };
  } else if (host === 'youtu.be') {
    found = { platform: 'youtube', postId: parts[0] };
  }
  if (!found || !found.postId || !ID.test(found.postId)) {
    throw new UsageError(`Cannot find a post id in '${value}'.`, {
      hint: 'Give the post id itself, or a URL like instagram.com/p/<id>/, tiktok.com/@user/video/<id>, youtube.com/watch?v=<id>, youtu.be/<id>.',
    });
  }
  return { platform: found.platform, postId: found.postId };
}

export interface DetailsRequest {
  platform: string;
  postId: string;
  kind: ContentKind;
  paginationToken?: string | undefined;
}

export function detailsBody(req: DetailsRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { platform: req.platform, post_id: req.postId, content_type: req.kind };
  if (req.paginationToken) body.pagination_token = req.paginationToken;
  return body;
}

export interface DetailsPage extends EnrichOutcome {
  nextToken: string | undefined;
  creditsLeft: number | undefined;
}

/** `credits_left` may be a numeric string (api-contract §4, §8); `credits_available` is the credits endpoint's name. */
export function creditsLeftOf(response: unknown): number | undefined {
  const body = (response && typeof response === 'object' ? response : {}) as Record<string, unknown>;
  for (const value of [body.credits_left, body.credits_available]) {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  }
  return undefined;
}

const DETAILS_PRICE_MILLI = WORST_CASE_MILLI.postDetails;

export function postDetailsPlan(req: DetailsRequest): Plan {
  return commentPagesPlan(req, { maxPages: 1 }).plan;
}

/** Without `maxPages`, a credit budget bounds the pages; with neither the worst case is unknown. */
export function commentPagesPlan(req: DetailsRequest, bound: PageBound): { plan: Plan; pages: number } {
  const price = DETAILS_PRICE_MILLI;
  const { pages, costBasis } = pagedRun(bound, price, formatCredits(price));
  return {
    plan: {
      method: 'POST',
      path: 'creators/content/details',
      body: detailsBody(req),
      worstCaseMilli: pages === undefined ? null : pages * price,
      costBasis,
      purchase: { kind: 'page', platform: req.platform },
      label: 'Fetching the post…',
    },
    pages: pages ?? Infinity,
  };
}

/** 0.03 credits when data comes back. */
export async function postDetails(http: HttpClient, req: DetailsRequest): Promise<DetailsPage> {
  const res = await http.request(postDetailsPlan(req));
  return detailsPageOf(res.data);
}

export function detailsPageOf(data: unknown): DetailsPage {
  const outcome = readOutcome(data);
  const body = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const token = body.next_token ?? outcome.result?.next_token;
  return {
    ...outcome,
    nextToken: typeof token === 'string' && token ? token : undefined,
    creditsLeft: outcome.storedAt !== undefined ? undefined : creditsLeftOf(data),
  };
}

export function commentsOf(page: DetailsPage): Record<string, unknown>[] {
  const body = (page.response && typeof page.response === 'object' ? page.response : {}) as Record<string, unknown>;
  const data = body.data as Record<string, unknown> | undefined;
  const list = page.result?.comments ?? body.comments ?? data?.comments ?? [];
  return Array.isArray(list)
    ? list.map((c) => (c && typeof c === 'object' ? (c as Record<string, unknown>) : { value: c }))
    : [];
}

/** Every page is a billed request; stops at a page with no cursor or at a repeated one. */
export async function* commentPages(
  http: HttpClient,
  req: DetailsRequest,
  maxPages = Infinity,
): AsyncGenerator<DetailsPage> {
  let token = req.paginationToken;
  const seen = new Set<string>();
  for (let n = 0; n < maxPages; n++) {
    const page = await postDetails(http, { ...req, paginationToken: token });
    yield page;
    if (!page.nextToken || seen.has(page.nextToken)) return;
    seen.add(page.nextToken);
    token = page.nextToken;
  }
}
