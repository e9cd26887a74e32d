import { UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { HttpResponse } from '../http/types.js';
import { pathSegment } from '../http/url.js';
import { checkPlatform } from '../platforms.js';
import { DISCOVERY_PLATFORMS } from '../../contract/platforms.js';
import { freePlan, type Plan } from './plan.js';
import { plural } from '../words.js';
import { EXCLUSION_ENTRIES_PER_REQUEST } from '../../contract/limits.js';

/** api-contract §11; unknown fields kept. */
export interface ExclusionList extends Record<string, unknown> {
  id: number;
  name: string;
  platform: string;
  is_default?: boolean;
  handle_count?: number;
}

export interface HandlesPage extends Record<string, unknown> {
  total: number;
  offset: number;
  limit: number;
  handles: string[];
}

export type ListRef = { kind: 'id'; id: number } | { kind: 'default'; platform: string };

const BASE = 'discovery/exclusion-lists';

export function checkListName(name: string): string {
  const clean = name.trim();
  if (!clean || clean.length > 300) throw new UsageError('The list name must be 1 to 300 characters.');
  return clean;
}

export function parseListRef(raw: string): ListRef {
  const text = raw.trim();
  if (/^\d+$/.test(text) && Number(text) > 0 && Number.isSafeInteger(Number(text)))
    return { kind: 'id', id: Number(text) };
  const m = /^default:(.+)$/i.exec(text);
  if (m) return { kind: 'default', platform: pathSegment(checkPlatform(m[1] ?? '', DISCOVERY_PLATFORMS), 'platform') };
  throw new UsageError(`Invalid exclusion list '${raw}'.`, {
    hint: 'Give a numeric list id, or default:<platform> (e.g. default:instagram).',
  });
}

export function listPath(ref: ListRef): string {
  return ref.kind === 'id' ? `${BASE}/${ref.id}` : `${BASE}/default/${ref.platform}`;
}

/**
 * The service creates a platform's default list on first access, so such a GET is state-changing: a dry run stops at
 * the plan.
 */
export function createsDefaultList(ref: ListRef): boolean {
  return ref.kind === 'default';
}

function send<T>(http: HttpClient, plan: Plan, ref?: ListRef, inputCheck = false): Promise<HttpResponse<T>> {
  const { method, path, query, body } = plan;
  return http.request<T>({
    method,
    path,
    query,
    body,
    ...(ref && createsDefaultList(ref) ? { createsState: true } : {}),
    ...(inputCheck ? { inputCheck } : {}),
  });
}

function listPlan(ref: ListRef, plan: Plan): Plan {
  if (plan.method !== 'GET' || ref.kind !== 'default') return plan;
  return { ...plan, costBasis: `free; creates the default ${ref.platform} list if it does not exist yet` };
}

export function listExclusionListsPlan(): Plan {
  return freePlan('GET', BASE);
}

/** `inputCheck`: read to check a run's list ids (a dry run still makes it, and its plan says so). */
export async function listExclusionLists(http: HttpClient, o: { inputCheck?: boolean } = {}): Promise<ExclusionList[]> {
  return (await send<ExclusionList[]>(http, listExclusionListsPlan(), undefined, o.inputCheck)).data;
}

export function createExclusionListPlan(name: string, platform: string): Plan {
  return freePlan('POST', BASE, { body: { name, platform } });
}

export async function createExclusionList(http: HttpClient, name: string, platform: string): Promise<ExclusionList> {
  return (await send<ExclusionList>(http, createExclusionListPlan(name, platform))).data;
}

export function getExclusionListPlan(ref: ListRef): Plan {
  return listPlan(ref, freePlan('GET', listPath(ref)));
}

export async function getExclusionList(http: HttpClient, ref: ListRef): Promise<ExclusionList> {
  return (await send<ExclusionList>(http, getExclusionListPlan(ref), ref)).data;
}

export function renameExclusionListPlan(ref: ListRef, name: string): Plan {
  return freePlan('PATCH', listPath(ref), { body: { name } });
}

export async function renameExclusionList(http: HttpClient, ref: ListRef, name: string): Promise<ExclusionList> {
  return (await send<ExclusionList>(http, renameExclusionListPlan(ref, name), ref)).data;
}

export function deleteExclusionListPlan(ref: ListRef): Plan {
  return freePlan('DELETE', listPath(ref));
}

export async function deleteExclusionList(http: HttpClient, ref: ListRef): Promise<void> {
  await send<unknown>(http, deleteExclusionListPlan(ref), ref);
}

export function listEntriesPlan(ref: ListRef, page: { offset?: number | undefined; limit?: number | undefined }): Plan {
  return listPlan(
    ref,
    freePlan('GET', `${listPath(ref)}/entries`, { query: { offset: page.offset, limit: page.limit } }),
  );
}

export async function listEntries(
  http: HttpClient,
  ref: ListRef,
  page: { offset?: number; limit?: number },
): Promise<HandlesPage> {
  const res = await send<HandlesPage>(http, listEntriesPlan(ref, page), ref);
  const data = res.data ?? ({} as HandlesPage);
  return { ...data, handles: Array.isArray(data.handles) ? data.handles : [] };
}

/** When pages are slow and the first page was full and told the total, the offsets left are fetched several at once,
 * in order; then page after page again from where they ended, in case the list grew meanwhile. */
export async function* allEntries(
  http: HttpClient,
  ref: ListRef,
  limit: number,
  offset = 0,
  window: () => number = () => 1,
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

export function entryRequests(count: number): number {
  return Math.ceil(count / EXCLUSION_ENTRIES_PER_REQUEST);
}

/** The first request's body only, with how many handles and requests in all. */
export function changeEntriesPlan(ref: ListRef, handles: readonly string[], action: 'add' | 'remove'): Plan {
  const requests = entryRequests(handles.length);
  return {
    ...freePlan(action === 'add' ? 'POST' : 'DELETE', `${listPath(ref)}/entries`, {
      body: { handles: handles.slice(0, EXCLUSION_ENTRIES_PER_REQUEST) },
    }),
    costBasis: `${plural(handles.length, 'handle')} in ${plural(requests, 'request')}, free`,
  };
}

/** The server normalises handles itself; they are sent as given. */
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
