/**
 * The values of a filters object checked against the catalogue's shapes (src/contract/filters.ts): a range's
 * bounds, a growth's fields, list items, booleans, the audience items' keys and `creator_has`. The service
 * ignores a sub-key it does not know (`number_of_followers.minn`) as it ignores a top-level one, and the run
 * then buys unfiltered results; so every level is checked before paying, naming the nearest valid key.
 */
import {
  AUDIENCE_CREDIBILITY,
  AUDIENCE_ITEM_KEYS,
  filterTypeOf,
  GROWTH_KEYS,
  RANGE_ALIASES,
  RANGE_KEYS,
  type FilterType,
} from '../../contract/filters.js';
import { AUDIENCE_KEYS, CREATOR_HAS_KEYS } from '../../contract/filter-catalogue.js';
import { closest } from '../output/fields-check.js';

export interface ShapeProblem {
  /** The dotted path the problem is at (`number_of_followers.minn`). */
  key: string;
  message: string;
  hint: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const shown = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/** Every problem in `filters` (top-level keys are the catalogue check's; here only the values under them). */
export function shapeProblems(filters: Record<string, unknown>): ShapeProblem[] {
  const out: ShapeProblem[] = [];
  for (const [key, value] of Object.entries(filters)) checkValue(key, value, out);
  return out;
}

function checkValue(path: string, value: unknown, out: ShapeProblem[]): void {
  if (value === null || value === undefined) return;
  const type = filterTypeOf(path);
  if (type === undefined) return;
  const problem = (message: string, hint: string, at = path): void => {
    out.push({ key: at, message, hint });
  };
  const unknownKeys = (value: Record<string, unknown>, allowed: readonly string[], what: string): void => {
    for (const sub of Object.keys(value)) {
      if (allowed.includes(sub)) continue;
      const alias = type === 'range' ? RANGE_ALIASES[sub] : undefined;
      const near = alias ?? closest(sub, allowed);
      const because = alias ? ` The API reads a range's bounds as min and max (${sub} is a client-side spelling).` : '';
      problem(
        `Unknown filter '${path}.${sub}'.${because}${near === undefined ? '' : ` Did you mean '${path}.${near}'?`}`,
        `'${path}' ${what}: ${allowed.join(', ')}.`,
        `${path}.${sub}`,
      );
    }
  };
  switch (type) {
    case 'range':
      return checkRange(path, value, problem, unknownKeys);
    case 'growth': {
      if (!isObject(value))
        return problem(
          `Filter '${path}' is a growth: give its percentage, as '${path}.growth_percentage=${isNumber(value) ? value : 10}'.`,
          `'${path}' takes ${GROWTH_KEYS.map((k) => `${path}.${k}`).join(' and ')}.`,
        );
      unknownKeys(value, GROWTH_KEYS, 'takes');
      const pct = value.growth_percentage;
      if (pct === undefined || pct === null)
        problem(
          `Filter '${path}' needs '${path}.growth_percentage' (without it the service does not filter).`,
          `e.g. ${path}.growth_percentage=10 ${path}.time_range_months=3.`,
        );
      else if (!isNumber(pct))
        problem(
          `Filter '${path}.growth_percentage' must be a number, not ${shown(pct)}.`,
          'A percentage, e.g. 10.',
          `${path}.growth_percentage`,
        );
      const months = value.time_range_months;
      if (months !== undefined && months !== null && !(isNumber(months) && Number.isInteger(months) && months >= 1)) {
        problem(
          `Filter '${path}.time_range_months' must be a whole number of months, 1 or more, not ${shown(months)}.`,
          'e.g. 3.',
          `${path}.time_range_months`,
        );
      }
      return;
    }
    case 'bool':
      if (typeof value !== 'boolean')
        problem(`Filter '${path}' takes true or false, not ${shown(value)}.`, `e.g. ${path}=true.`);
      return;
    case 'number':
      if (!isNumber(value)) problem(`Filter '${path}' must be a number, not ${shown(value)}.`, `e.g. ${path}=2.`);
      return;
    case 'string': {
      const level = path === 'audience.credibility' ? credibilityProblem(value) : undefined;
      if (level) out.push(level);
      else checkScalar(path, value, problem);
      return;
    }
    case 'text':
      for (const item of Array.isArray(value) ? value : [value]) checkScalar(path, item, problem);
      return;
    case 'list':
    case 'int-list':
    case 'object-list':
      return checkList(path, type, value, problem);
    case 'object':
      return checkObject(path, value, problem, unknownKeys, out);
  }
}

type Report = (message: string, hint: string, at?: string) => void;
type UnknownKeys = (value: Record<string, unknown>, allowed: readonly string[], what: string) => void;

function checkRange(path: string, value: unknown, problem: Report, unknownKeys: UnknownKeys): void {
  if (!isObject(value)) {
    const example = isNumber(value) ? value : 1000;
    problem(
      `Filter '${path}' is a range: give its bounds. Did you mean '${path}.min=${example}'?`,
      `'${path}' takes ${path}.min and ${path}.max.`,
    );
    return;
  }
  unknownKeys(value, RANGE_KEYS, 'is a range');
  const bounds: Record<string, number> = {};
  for (const bound of RANGE_KEYS) {
    const v = value[bound];
    if (v === undefined || v === null) continue;
    if (!isNumber(v))
      problem(
        `Filter '${path}.${bound}' must be a number, not ${shown(v)}.`,
        `e.g. ${path}.${bound}=1000.`,
        `${path}.${bound}`,
      );
    else if (v < 0)
      problem(
        `Filter '${path}.${bound}' must be 0 or more, not ${v}.`,
        `e.g. ${path}.${bound}=1000.`,
        `${path}.${bound}`,
      );
    else bounds[bound] = v;
  }
  if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
    problem(
      `Filter '${path}': min ${bounds.min} is above max ${bounds.max}, so nothing could match.`,
      'Swap the bounds.',
    );
  }
}

function checkScalar(path: string, value: unknown, problem: Report): void {
  if (typeof value === 'string' || isNumber(value)) return;
  if (isObject(value)) {
    const [sub] = Object.keys(value);
    problem(
      `Unknown filter '${path}.${sub ?? ''}': '${path}' takes a value, not keys.`,
      `e.g. ${path}=<value>.`,
      `${path}.${sub ?? ''}`,
    );
    return;
  }
  problem(`Filter '${path}' takes a text value, not ${shown(value)}.`, `e.g. ${path}=<value>.`);
}

function checkList(path: string, type: FilterType, value: unknown, problem: Report): void {
  // A single value is sent as a one-item list (buildFilters), so it is checked as one.
  const items = Array.isArray(value) ? value : [value];
  if (type === 'object-list') {
    const keys = AUDIENCE_ITEM_KEYS[path] ?? [];
    for (const item of items) {
      if (!isObject(item)) {
        problem(
          `Filter '${path}' takes items {${keys.join(', ')}}, not ${shown(item)}. Did you mean '${path}.${keys[0]}=${typeof item === 'string' ? item : '...'}'?`,
          `Each item: ${keys.map((k) => `${path}.${k}`).join(', ')}.`,
        );
        continue;
      }
      checkAudienceItem(path, item, keys, problem);
    }
    return;
  }
  for (const item of items) {
    if (type === 'int-list') {
      if (!(isNumber(item) && Number.isInteger(item)))
        problem(
          `Filter '${path}' takes ids (whole numbers), not ${shown(item)}.`,
          'creators exclusions list shows the ids.',
        );
      continue;
    }
    if (typeof item === 'string' || isNumber(item)) continue;
    if (isObject(item)) {
      const [sub] = Object.keys(item);
      const example =
        typeof item[sub ?? ''] === 'string' || isNumber(item[sub ?? '']) ? String(item[sub ?? '']) : '<value>';
      problem(
        `Unknown filter '${path}.${sub ?? ''}': '${path}' takes a list of values, not keys. Did you mean '${path}=${example}'?`,
        `e.g. ${path}=${example} (several: comma-separated).`,
        `${path}.${sub ?? ''}`,
      );
      continue;
    }
    problem(`Filter '${path}' takes a list of text values, not ${shown(item)}.`, `e.g. ${path}=<value>,<value>.`);
  }
}

function checkAudienceItem(
  path: string,
  item: Record<string, unknown>,
  keys: readonly string[],
  problem: Report,
): void {
  for (const [sub, v] of Object.entries(item)) {
    if (!keys.includes(sub)) {
      const near = closest(sub, keys);
      problem(
        `Unknown filter '${path}.${sub}'.${near === undefined ? '' : ` Did you mean '${path}.${near}'?`}`,
        `Each item of '${path}' takes: ${keys.join(', ')}.`,
        `${path}.${sub}`,
      );
    } else if (sub === 'min_pct') {
      if (!isNumber(v) || v < 0 || v > 100)
        problem(
          `Filter '${path}.min_pct' must be a percentage from 0 to 100, not ${shown(v)}.`,
          `e.g. ${path}.min_pct=20.`,
          `${path}.min_pct`,
        );
    } else if (typeof v !== 'string' && !isNumber(v)) {
      problem(
        `Filter '${path}.${sub}' takes a text value, not ${shown(v)}.`,
        `e.g. ${path}.${sub}=<value>.`,
        `${path}.${sub}`,
      );
    }
  }
}

function checkObject(
  path: string,
  value: unknown,
  problem: Report,
  unknownKeys: UnknownKeys,
  out: ShapeProblem[],
): void {
  if (!isObject(value)) {
    const first =
      path === 'creator_has'
        ? 'has_youtube=true'
        : path === 'audience'
          ? 'location.name=Germany'
          : `${AUDIENCE_ITEM_KEYS[path]?.[0] ?? 'key'}=...`;
    problem(
      `Filter '${path}' takes keys, not ${shown(value)}. Did you mean '${path}.${first}'?`,
      `e.g. ${path}.${first}.`,
    );
    return;
  }
  if (path === 'creator_has') {
    unknownKeys(value, CREATOR_HAS_KEYS, 'takes');
    for (const [k, v] of Object.entries(value)) {
      if (CREATOR_HAS_KEYS.includes(k) && typeof v !== 'boolean')
        problem(
          `Filter 'creator_has.${k}' takes true or false, not ${shown(v)}.`,
          `e.g. creator_has.${k}=true.`,
          `creator_has.${k}`,
        );
    }
    return;
  }
  if (path === 'audience') {
    unknownKeys(value, AUDIENCE_KEYS, 'takes');
    for (const [k, v] of Object.entries(value)) if (AUDIENCE_KEYS.includes(k)) checkValue(`audience.${k}`, v, out);
    return;
  }
  // audience.gender: one item's keys.
  checkAudienceItem(path, value, AUDIENCE_ITEM_KEYS[path] ?? [], problem);
}

/** `audience.credibility`: one of the service's levels. */
function credibilityProblem(value: unknown): ShapeProblem | undefined {
  if (value === null || value === undefined || (typeof value === 'string' && AUDIENCE_CREDIBILITY.includes(value)))
    return undefined;
  const near = typeof value === 'string' ? closest(value, AUDIENCE_CREDIBILITY) : undefined;
  return {
    key: 'audience.credibility',
    message: `Filter 'audience.credibility' is one of ${AUDIENCE_CREDIBILITY.join(', ')}, not ${shown(value)}.${near === undefined ? '' : ` Did you mean '${near}'?`}`,
    hint: 'e.g. audience.credibility=good.',
  };
}
