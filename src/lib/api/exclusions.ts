import { ApiError, UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { DISCOVERY_PLATFORMS, checkPlatform } from '../platforms.js';

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

/** The server takes at most this many handles per add/remove request. */
export const MAX_HANDLES_PER_REQUEST = 10_000;

const BASE = 'discovery/exclusion-lists';

/** Parses `<list>`; anything else is a usage error (nothing sent). */
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

/** `GET …/exclusion-lists/` (free): every list of the team. Anything but an array of objects with `id` is an error. */
export async function listExclusionLists(http: HttpClient): Promise<ExclusionList[]> {
  const res = await http.request<unknown>({ method: 'GET', path: BASE });
  const data = res.data;
  if (!Array.isArray(data) || !data.every((l) => l && typeof l === 'object' && 'id' in (l as object))) {
    throw new ApiError('The exclusion-list lookup did not return a list of lists.', { code: 'malformed_response' });
  }
  return data as ExclusionList[];
}

export async function createExclusionList(http: HttpClient, name: string, platform: string): Promise<ExclusionList> {
  return (await http.request<ExclusionList>({ method: 'POST', path: BASE, body: { name, platform } })).data;
}

export async function getExclusionList(http: HttpClient, ref: ListRef): Promise<ExclusionList> {
  return (await http.request<ExclusionList>({ method: 'GET', path: listPath(ref) })).data;
}

export async function renameExclusionList(http: HttpClient, ref: ListRef, name: string): Promise<ExclusionList> {
  return (await http.request<ExclusionList>({ method: 'PATCH', path: listPath(ref), body: { name } })).data;
}

/** `DELETE …/{id}/`: 204, no body. */
export async function deleteExclusionList(http: HttpClient, ref: ListRef): Promise<void> {
  await http.request<unknown>({ method: 'DELETE', path: listPath(ref) });
}

/** One page of handles. */
export async function listEntries(http: HttpClient, ref: ListRef, page: { offset?: number; limit?: number }): Promise<HandlesPage> {
  const res = await http.request<HandlesPage>({
    method: 'GET',
    path: `${listPath(ref)}/entries`,
    query: { offset: page.offset, limit: page.limit },
  });
  const data = res.data ?? ({} as HandlesPage);
  return { ...data, handles: Array.isArray(data.handles) ? data.handles : [] };
}

/** Every handle from `offset` on, page after page (stops on an empty page or at `total`). */
export async function* allEntries(http: HttpClient, ref: ListRef, limit: number, offset = 0): AsyncGenerator<string> {
  let at = offset;
  for (;;) {
    const page = await listEntries(http, ref, { offset: at, limit });
    yield* page.handles;
    at += page.handles.length;
    if (page.handles.length === 0 || (typeof page.total === 'number' && at >= page.total)) return;
  }
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
  for (let i = 0; i < handles.length; i += MAX_HANDLES_PER_REQUEST) {
    const chunk = handles.slice(i, i + MAX_HANDLES_PER_REQUEST);
    const res = await http.request<ExclusionList>({
      method: action === 'add' ? 'POST' : 'DELETE',
      path: `${listPath(ref)}/entries`,
      body: { handles: chunk },
    });
    last = res.data;
    onChunk?.(i + chunk.length, handles.length);
  }
  return last;
}
