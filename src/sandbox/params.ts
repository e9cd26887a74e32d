/**
 * Query-string parsing with the service's validation errors (`{"error": {field: [...]}}`), for
 * every route that takes `limit`, `offset`, `page`, booleans...
 */
import { fieldError } from './respond.js';

export interface IntOptions {
  min?: number;
  max?: number;
}

/** An integer query parameter, or `fallback` when absent or empty. Throws a 400 ApiError. */
export function intParam(query: URLSearchParams, name: string, fallback: number, options?: IntOptions): number;
export function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number | undefined,
  options?: IntOptions,
): number | undefined;
export function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number | undefined,
  options: IntOptions = {},
): number | undefined {
  const text = query.get(name)?.trim();
  if (text === undefined || text === '') return fallback;
  if (!/^[+-]?\d+$/.test(text)) throw fieldError(name, 'A valid integer is required.');
  const value = Number(text);
  const { min, max } = options;
  if (min !== undefined && max !== undefined && (value < min || value > max)) {
    throw fieldError(name, `Ensure this value is between ${min} and ${max}.`);
  }
  if (min !== undefined && value < min) throw fieldError(name, `Ensure this value is greater than or equal to ${min}.`);
  if (max !== undefined && value > max) throw fieldError(name, `Ensure this value is less than or equal to ${max}.`);
  return value;
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** A boolean query parameter as DRF's BooleanField reads it (`true`/`True`/`1`...). */
export function boolParam(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const text = query.get(name)?.trim().toLowerCase();
  if (text === undefined || text === '') return fallback;
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw fieldError(name, 'Must be a valid boolean.');
}

/** A trimmed string parameter; empty counts as absent. */
export function stringParam(query: URLSearchParams, name: string): string | undefined {
  const text = query.get(name)?.trim();
  return text ? text : undefined;
}
