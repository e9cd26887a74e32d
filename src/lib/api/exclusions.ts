import { UsageError } from '../errors.js';
import type { HttpClient, HttpResponse } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { DISCOVERY_PLATFORMS, checkPlatform } from '../platforms.js';
import { freePlan, type Plan } from './plan.js';
import { plural } from '../output/humanize.js';
import { EXCLUSION_ENTRIES_PER_REQUEST } from '../../contract/limits.js';

/** The list object (api-contract §11); unknown fields kept. */
export interface ExclusionList extends Record<string, unknown> {
  id: number;
  name: string;
  platform: string;
  is_default?: boolean;
  handle_count?: number;
}

/** A page of handles: `{total, offset, limit, handles}`, sorted alphabetically. */
export interface HandlesPage extends Record<string, unknown> {
  total: number;
  offset: number;
  limit: number;
  handles: string[];
}

/** The CLI's `<list>`: a numeric id or `default:<platform>`. */
export type ListRef = { kind: 'id'; id: number } | { kind: 'default'; platform: string };

const BASE = 'discovery/exclusion-lists';

/** Parses `<list>`; anything else is a usage error (nothing sent). */
/** A list name as the service takes it: trimmed, 1 to 300 characters; a usage error otherwise. */
export function checkListName(name: string): string {
  const clean = name.trim();
  if (!clean || clean.length > 300) throw new UsageError('The list name must be 1 to 300 characters.');
  return clean;
}

export function parseListRef(raw: string): ListRef {
  const text = raw.trim();
  if (/^\d+$/.test(text) && Number(text) > 0 && Number.isSafeInteger(Number(text))) return { kind: 'id', id: Number(text) };
  const m = /^default:(.+)$/i.exec(text);
  if (m) return { kind: 'default', platform: pathSegment(checkPlatform(m[1] ?? '', DISCOVERY_PLATFORMS), 'platform') };
  throw new UsageError(`Invalid exclusion list '${raw}'.`, { hint: 'Give a numeric list id, or default:<platform> (e.g. default:instagram).' });
}

/** The API path of a list (without `entries/`). */
export function listPath(ref: ListRef): string {
  return ref.kind === 'id' ? `${BASE}/${ref.id}` : `${BASE}/default/${ref.platform}`;
}

/**
 * Whether reading `ref` may create something: the service creates a platform's default list on the
 * first access to `default/<platform>/` (or its entries), so such a GET is sent as state-changing
 * (`createsState`) and a `--dry-run` must stop at the plan.
 */
export function createsDefaultList(ref: ListRef): boolean {
  return ref.kind === 'default';
}

/** Sends a plan; the GETs of `default/<platform>` are marked as creating state. */
function send<T>(http: HttpClient, plan: Plan, ref?: ListRef, inputCheck = false): Promise<HttpResponse<T>> {
  const { method, path, query, body } = plan;
  return http.request<T>({ method, path, query, body, ...(ref && createsDefaultList(ref) ? { createsState: true } : {}), ...(inputCheck ? { inputCheck } : {}) });
}

/** A free plan on a list; a read of a default list says it may create it. */
function listPlan(ref: ListRef, plan: Plan): Plan {
  if (plan.method !== 'GET' || ref.kind !== 'default') return plan;
  return { ...plan, costBasis: `free; creates the default ${ref.platform} list if it does not exist yet` };
}

/** The plan of `listExclusionLists` (free; creates nothing). */
export function listExclusionListsPlan(): Plan {
  return freePlan('GET', BASE);
}

/**
 * `GET …/exclusion-lists/` (free): every list of the team (an array of objects with `id`: the HTTP client
 * checks it against src/contract/responses.ts). `inputCheck`: read to check a run's list ids (a dry run
 * still makes it, and its plan says so).
 */
export async function listExclusionLists(http: HttpClient, o: { inputCheck?: boolean } = {}): Promise<ExclusionList[]> {
  return (await send<ExclusionList[]>(http, listExclusionListsPlan(), undefined, o.inputCheck)).data;
}

/** The plan of `createExclusionList` (free). */
export function createExclusionListPlan(name: string, platform: string): Plan {
  return freePlan('POST', BASE, { body: { name, platform } });
}

export async function createExclusionList(http: HttpClient, name: string, platform: string): Promise<ExclusionList> {
  return (await send<ExclusionList>(http, createExclusionListPlan(name, platform))).data;
}

/** The plan of `getExclusionList` (free; a default list is created on first access). */
export function getExclusionListPlan(ref: ListRef): Plan {
  return listPlan(ref, freePlan('GET', listPath(ref)));
}

export async function getExclusionList(http: HttpClient, ref: ListRef): Promise<ExclusionList> {
  return (await send<ExclusionList>(http, getExclusionListPlan(ref), ref)).data;
}

/** The plan of `renameExclusionList` (free). */
export function renameExclusionListPlan(ref: ListRef, name: string): Plan {
  return freePlan('PATCH', listPath(ref), { body: { name } });
}

export async function renameExclusionList(http: HttpClient, ref: ListRef, name: string): Promise<ExclusionList> {
  return (await send<ExclusionList>(http, renameExclusionListPlan(ref, name), ref)).data;
}

/** The plan of `deleteExclusionList` (free). */
export function deleteExclusionListPlan(ref: ListRef): Plan {
  return freePlan('DELETE', listPath(ref));
}

/** `DELETE …/{id}/`: 204, no body. */
export async function deleteExclusionList(http: HttpClient, ref: ListRef): Promise<void> {
  await send<unknown>(http, deleteExclusionListPlan(ref), ref);
}

/** The plan of `listEntries` (free; a default list is created on first access). */
export function listEntriesPlan(ref: ListRef, page: { offset?: number | undefined; limit?: number | undefined }): Plan {
  return listPlan(ref, freePlan('GET', `${listPath(ref)}/entries`, { query: { offset: page.offset, limit: page.limit } }));
}

/** One page of handles. */
export async function listEntries(http: HttpClient, ref: ListRef, page: { offset?: number; limit?: number }): Promise<HandlesPage> {
  const res = await send<HandlesPage>(http, listEntriesPlan(ref, page), ref);
  const data = res.data ?? ({} as HandlesPage);
  return { ...data, handles: Array.isArray(data.handles) ? data.handles : [] };
}

/**
 * Every handle from `offset` on, page after page (stops on an empty page or at `total`). When the window
 * allows more than one (slow pages) and the first page was full and told the total, the offsets left are
 * known: they are fetched several at once and yielded in order (free GETs); then page after page again
 * from where they ended, in case the list grew meanwhile.
 */
export async function* allEntries(
  http: HttpClient,
  ref: ListRef,
  limit: number,
  offset = 0,
  window: () => number = () => 1,
  /** Told of each page as it is taken, in order (a progress line). */
  onPage: (page: HandlesPage) => void = () => {},
): AsyncGenerator<string> {
  let at = offset;
  const first = await listEntries(http, ref, { offset: at, limit });
  onPage(first);
  yield* first.handles;
  at += first.handles.length;
  if (first.handles.length === 0 || (typeof first.total === 'number' && at >= first.total)) return;
  if (first.handles.length === limit && typeof first.total === 'number' && window() > 1) {
    const total = first.total;
    const queue: Promise<HandlesPage>[] = [];
    let next = at;
    while (next < total || queue.length > 0) {
      while (next < total && queue.length < Math.max(1, Math.floor(window()))) {
        const page = listEntries(http, ref, { offset: next, limit });
        page.catch(() => {});
        queue.push(page);
        next += limit;
      }
      const page = await (queue.shift() as Promise<HandlesPage>);
      onPage(page);
      yield* page.handles;
      at += page.handles.length;
      // A short page before the total: the list changed under us; the rest page by page.
      if (page.handles.length < limit) break;
    }
    if (at >= total) return;
  }
  for (;;) {
    const page = await listEntries(http, ref, { offset: at, limit });
    onPage(page);
    yield* page.handles;
    at += page.handles.length;
    if (page.handles.length === 0 || (typeof page.total === 'number' && at >= page.total)) return;
  }
}

/** How many requests `changeEntries` sends for this many handles. */
export function entryRequests(count: number): number {
  return Math.ceil(count / EXCLUSION_ENTRIES_PER_REQUEST);
}

/**
 * The plan of `changeEntries` (free): its first request (the first chunk of at most 10,000 handles),
 * with how many handles and requests in all.
 */
export function changeEntriesPlan(ref: ListRef, handles: readonly string[], action: 'add' | 'remove'): Plan {
  const requests = entryRequests(handles.length);
  return {
    ...freePlan(action === 'add' ? 'POST' : 'DELETE', `${listPath(ref)}/entries`, { body: { handles: handles.slice(0, EXCLUSION_ENTRIES_PER_REQUEST) } }),
    costBasis: `${plural(handles.length, 'handle')} in ${plural(requests, 'request')}, free`,
  };
}

/**
 * Adds (`POST`) or removes (`DELETE` with a JSON body) handles, in chunks of at most 10,000.
 * The server normalises handles itself; they are sent as given. Returns the list after the last chunk.
 */
export async function changeEntries(
  http: HttpClient,
  ref: ListRef,
  handles: readonly string[],
  action: 'add' | 'remove',
  onChunk?: (done: number, total: number) => void,
): Promise<ExclusionList | undefined> {
  let last: ExclusionList | undefined;
  for (let i = 0; i < handles.length; i += EXCLUSION_ENTRIES_PER_REQUEST) {
    const chunk = handles.slice(i, i + EXCLUSION_ENTRIES_PER_REQUEST);
    const res = await send<ExclusionList>(http, changeEntriesPlan(ref, chunk, action), ref);
    last = res.data;
    onChunk?.(i + chunk.length, handles.length);
  }
  return last;
}
