import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { freePlan, type Plan } from './plan.js';

/** An API key as the service returns it (api-contract §12); unknown fields are kept. */
export interface ApiKey extends Record<string, unknown> {
  id: number;
  name?: string;
  token?: string;
  scopes?: string[];
  active?: boolean;
  expires_at?: string | null;
  created_at?: string;
  last_used_at?: string | null;
}

/** Writable fields of a key; `expires_at: null` removes the expiry. */
export interface KeyChanges {
  name?: string;
  active?: boolean;
  expires_at?: string | null;
}

const PATH = 'accounts/tokens';

/** A list body: a bare array, or a paged object with `results` (tolerated). */
export function listBody<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  const results = (data as { results?: unknown } | null)?.results;
  return Array.isArray(results) ? (results as T[]) : [];
}

/** `GET /public/v1/accounts/tokens/`: every key, inactive ones included. */
export async function listKeys(http: HttpClient): Promise<ApiKey[]> {
  return listBody<ApiKey>((await http.request(listKeysPlan())).data);
}

/** The plan of `listKeys` (free). */
export function listKeysPlan(): Plan {
  return freePlan('GET', PATH);
}

/** `POST /public/v1/accounts/tokens/`: a new long-lived key, value included. */
export async function createKey(http: HttpClient, changes: KeyChanges): Promise<ApiKey> {
  return (await http.request<ApiKey>(createKeyPlan(changes))).data;
}

/** The plan of `createKey` (free: keys are not billed). */
export function createKeyPlan(changes: KeyChanges): Plan {
  return { ...freePlan('POST', PATH, { body: changes }), costBasis: 'free' };
}

/** `PATCH /public/v1/accounts/tokens/{id}/`. */
export async function updateKey(http: HttpClient, id: string, changes: KeyChanges): Promise<ApiKey> {
  return (await http.request<ApiKey>(updateKeyPlan(id, changes))).data;
}

/** The plan of `updateKey` (free). */
export function updateKeyPlan(id: string, changes: KeyChanges): Plan {
  return { ...freePlan('PATCH', keyPath(id), { body: changes }), costBasis: 'free' };
}

/** `DELETE /public/v1/accounts/tokens/{id}/`: permanent. */
export async function deleteKey(http: HttpClient, id: string): Promise<void> {
  await http.request(deleteKeyPlan(id));
}

/** The plan of `deleteKey` (free). */
export function deleteKeyPlan(id: string): Plan {
  return { ...freePlan('DELETE', keyPath(id)), costBasis: 'free' };
}

export function keyPath(id: string): string {
  return `${PATH}/${pathSegment(id, 'key id')}`;
}
