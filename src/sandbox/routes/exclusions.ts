/**
 * Discovery exclusion lists, exactly as api-contract §11 describes them (all free):
 *   GET|POST          /public/v1/discovery/exclusion-lists/                    array of lists | create {name, platform}
 *   GET|PATCH|DELETE  /public/v1/discovery/exclusion-lists/{id}/               list | rename {name} | 204
 *   GET|POST|DELETE   /public/v1/discovery/exclusion-lists/{id}/entries/       handles page | add | remove {handles}
 *   GET               /public/v1/discovery/exclusion-lists/default/{platform}/ the default list, created on first access
 *   GET|POST|DELETE   /public/v1/discovery/exclusion-lists/default/{platform}/entries/
 * List object `{id, name, platform, is_default, handle_count, created_at, updated_at}`; handles page
 * `{total, offset, limit, handles}` sorted alphabetically (`limit` 1-2000, default 1000). Unknown
 * lists answer 404 `{"error": "Exclusion list not found."}`.
 */
import {
  changeHandles,
  createList,
  defaultList,
  exclusionLists,
  viewOf,
  type ExclusionList,
} from '../discovery/exclusion-store.js';
import { intParam } from '../params.js';
import { isDiscoveryPlatform, DISCOVERY_PLATFORMS } from '../../contract/platforms.js';
import { ApiError, created, errorList, errorText, fieldError, json, noContent, type Reply } from '../respond.js';
import type { Handler, RouteContext, Router } from '../router.js';
import { EXCLUSION_ENTRIES_PAGE, EXCLUSION_ENTRIES_PER_REQUEST } from '../../contract/limits.js';

const BASE = '/public/v1/discovery/exclusion-lists';

function notFoundList(): ApiError {
  return new ApiError(errorText(404, 'Exclusion list not found.'));
}

function platformOf(value: unknown, field = 'platform'): (typeof DISCOVERY_PLATFORMS)[number] {
  if (typeof value !== 'string' || !value) throw fieldError(field, 'This field is required.');
  if (!isDiscoveryPlatform(value)) throw fieldError(field, `"${value}" is not a valid choice.`);
  return value;
}

/** The list a request names: `{id}` or `default/{platform}`. */
function target(ctx: RouteContext): ExclusionList {
  if (ctx.params.platform !== undefined) {
    if (!isDiscoveryPlatform(ctx.params.platform)) throw notFoundList();
    return defaultList(ctx.state, ctx.params.platform);
  }
  const id = ctx.params.id ?? '';
  const list = /^\d+$/.test(id) ? exclusionLists(ctx.state).get(Number(id)) : undefined;
  if (!list) throw notFoundList();
  return list;
}

function objectBody(ctx: RouteContext): Record<string, unknown> {
  const body = ctx.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(errorList(400, ['Expected a JSON object.']));
  }
  return body as Record<string, unknown>;
}

function checkName(state: RouteContext['state'], name: unknown, platform: string, except?: number): string {
  if (typeof name !== 'string' || !name.trim()) throw fieldError('name', 'This field may not be blank.');
  const clean = name.trim();
  if (clean.length > 300) throw fieldError('name', 'Ensure this field has no more than 300 characters.');
  for (const list of exclusionLists(state).values()) {
    if (list.id !== except && list.platform === platform && list.name.toLowerCase() === clean.toLowerCase()) {
      throw fieldError('name', 'A list with this name already exists for this platform.');
    }
  }
  return clean;
}

function handlesOf(ctx: RouteContext): string[] {
  const handles = objectBody(ctx).handles;
  if (!Array.isArray(handles) || handles.length === 0) throw fieldError('handles', 'This list may not be empty.');
  if (handles.length > EXCLUSION_ENTRIES_PER_REQUEST)
    throw fieldError('handles', `Ensure this field has no more than ${EXCLUSION_ENTRIES_PER_REQUEST} elements.`);
  if (!handles.every((h) => typeof h === 'string')) throw fieldError('handles', 'Each handle must be a string.');
  return handles as string[];
}

const listAll: Handler = ({ state }) =>
  json([...exclusionLists(state).values()].sort((a, b) => a.id - b.id).map(viewOf));

const create: Handler = (ctx) => {
  const body = objectBody(ctx);
  const platform = platformOf(body.platform);
  const name = checkName(ctx.state, body.name, platform);
  return created(viewOf(createList(ctx.state, name, platform)));
};

const getOne: Handler = (ctx) => json(viewOf(target(ctx)));

const rename: Handler = (ctx) => {
  const list = target(ctx);
  if (list.is_default) return errorList(400, ['The default exclusion list cannot be renamed.']);
  list.name = checkName(ctx.state, objectBody(ctx).name, list.platform, list.id);
  list.updated_at = new Date(ctx.state.now()).toISOString();
  return json(viewOf(list));
};

const remove: Handler = (ctx) => {
  const list = target(ctx);
  if (list.is_default) return errorList(400, ['The default exclusion list cannot be deleted.']);
  exclusionLists(ctx.state).delete(list.id);
  return noContent();
};

const entries: Handler = (ctx) => {
  const list = target(ctx);
  const offset = intParam(ctx.query, 'offset', 0, { min: 0 });
  const limit = intParam(ctx.query, 'limit', EXCLUSION_ENTRIES_PAGE.default, {
    min: 1,
    max: EXCLUSION_ENTRIES_PAGE.max,
  });
  const sorted = [...list.handles].sort();
  return json({ total: sorted.length, offset, limit, handles: sorted.slice(offset, offset + limit) });
};

function change(add: boolean): Handler {
  return (ctx): Reply => {
    const list = target(ctx);
    changeHandles(ctx.state, list, handlesOf(ctx), add);
    return json(viewOf(list));
  };
}

export function register(router: Router): void {
  router.get(`${BASE}/`, listAll);
  router.post(`${BASE}/`, create);
  router.get(`${BASE}/:id/`, getOne);
  router.patch(`${BASE}/:id/`, rename);
  router.delete(`${BASE}/:id/`, remove);
  router.get(`${BASE}/:id/entries/`, entries);
  router.post(`${BASE}/:id/entries/`, change(true));
  router.delete(`${BASE}/:id/entries/`, change(false));
  router.get(`${BASE}/default/:platform/`, getOne);
  router.get(`${BASE}/default/:platform/entries/`, entries);
  router.post(`${BASE}/default/:platform/entries/`, change(true));
  router.delete(`${BASE}/default/:platform/entries/`, change(false));
}
