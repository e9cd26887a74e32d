import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { freePlan, type Plan } from './plan.js';

/** api-contract §12; unknown fields are kept. */
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

/** `expires_at: null` removes the expiry. */
export interface KeyChanges {
  name?: string;
  active?: boolean;
  expires_at?: string | null;
}

const PATH = 'accounts/tokens';

export function listBody<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  const results = (data as { results?: unknown } | null)?.results;
  return Array.isArray(results) ? (results as T[]) : [];
}

export async function listKeys(http: HttpClient): Promise<ApiKey[]> {
  return listBody<ApiKey>((await http.request(listKeysPlan())).data);
}

export function listKeysPlan(): Plan {
  return freePlan('GET', PATH);
}

export async function createKey(http: HttpClient, changes: KeyChanges): Promise<ApiKey> {
  return (await http.request<ApiKey>(createKeyPlan(changes))).data;
}

export function createKeyPlan(changes: KeyChanges): Plan {
  return { ...freePlan('POST', PATH, { body: changes }), costBasis: 'free' };
}

export async function updateKey(http: HttpClient, id: string, changes: KeyChanges): Promise<ApiKey> {
  return (await http.request<ApiKey>(updateKeyPlan(id, changes))).data;
}

export function updateKeyPlan(id: string, changes: KeyChanges): Plan {
  return { ...freePlan('PATCH', keyPath(id), { body: changes }), costBasis: 'free' };
}

export async function deleteKey(http: HttpClient, id: string): Promise<void> {
  await http.request(deleteKeyPlan(id));
}

export function deleteKeyPlan(id: string): Plan {
  return { ...freePlan('DELETE', keyPath(id)), costBasis: 'free' };
}

export function keyPath(id: string): string {
  return `${PATH}/${pathSegment(id, 'key id')}`;
}
