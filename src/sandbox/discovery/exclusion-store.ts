/**
 * Discovery exclusion lists (api-contract §11): named, platform-scoped sets of handles, shared by
 * the team. Kept in a state slot so the exclusion routes and the Discovery engine see the same lists.
 * Handles are stored normalised (lowercase, `@` stripped, profile URLs reduced to the handle).
 */
import { normalizeHandle } from '../../contract/handles.js';
import type { DiscoveryPlatform } from '../../contract/platforms.js';
import { isoNow, nextId, slot, type SandboxState } from '../state.js';

export interface ExclusionList {
  id: number;
  name: string;
  platform: DiscoveryPlatform;
  is_default: boolean;
  handles: Set<string>;
  created_at: string;
  updated_at: string;
}

/** The list object as the API renders it. */
export interface ExclusionListView {
  id: number;
  name: string;
  platform: string;
  is_default: boolean;
  handle_count: number;
  created_at: string;
  updated_at: string;
}

/** Every list of the sandbox account, by id. */
export function exclusionLists(state: SandboxState): Map<number, ExclusionList> {
  return slot(state, 'exclusion-lists', () => new Map<number, ExclusionList>());
}

export function viewOf(list: ExclusionList): ExclusionListView {
  return {
    id: list.id,
    name: list.name,
    platform: list.platform,
    is_default: list.is_default,
    handle_count: list.handles.size,
    created_at: list.created_at,
    updated_at: list.updated_at,
  };
}

export function createList(
  state: SandboxState,
  name: string,
  platform: DiscoveryPlatform,
  isDefault = false,
): ExclusionList {
  const now = isoNow(state);
  const list: ExclusionList = {
    id: nextId(state, 'exclusion_list'),
    name,
    platform,
    is_default: isDefault,
    handles: new Set(),
    created_at: now,
    updated_at: now,
  };
  exclusionLists(state).set(list.id, list);
  return list;
}

/** The platform's default list, created empty on first access as the real API does. */
export function defaultList(state: SandboxState, platform: DiscoveryPlatform): ExclusionList {
  for (const list of exclusionLists(state).values()) {
    if (list.platform === platform && list.is_default) return list;
  }
  return createList(state, `Default (${platform})`, platform, true);
}

/** Adds or removes handles (normalised; blanks skipped); returns how many changed. */
export function changeHandles(
  state: SandboxState,
  list: ExclusionList,
  handles: readonly string[],
  add: boolean,
): number {
  let changed = 0;
  for (const raw of handles) {
    const handle = normalizeHandle(raw);
    if (!handle) continue;
    if (add && !list.handles.has(handle)) {
      list.handles.add(handle);
      changed++;
    } else if (!add && list.handles.delete(handle)) {
      changed++;
    }
  }
  if (changed > 0) list.updated_at = isoNow(state);
  return changed;
}

export interface ExclusionSelection {
  /** `filters.exclude_list`: ids; unknown or other-platform ids are skipped silently, like the real API. */
  ids?: readonly number[];
  /** `filters.exclude_default_list`. */
  useDefault?: boolean;
  /** `filters.exclude_all_lists`: every list of the platform, whatever `ids` says. */
  all?: boolean;
}

/** The handles the selected lists exclude on `platform`. */
export function excludedByLists(
  state: SandboxState,
  platform: DiscoveryPlatform,
  sel: ExclusionSelection,
): Set<string> {
  const out = new Set<string>();
  const wanted = new Set(sel.ids ?? []);
  for (const list of exclusionLists(state).values()) {
    if (list.platform !== platform) continue;
    if (sel.all || wanted.has(list.id) || (sel.useDefault && list.is_default)) {
      for (const h of list.handles) out.add(h);
    }
  }
  return out;
}
