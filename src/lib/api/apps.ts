import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { listBody } from './keys.js';
import { freePlan, type Plan } from './plan.js';

/** The real fields are unpublished (api-contract §13.4), so all are kept. */
export type ConnectedApp = Record<string, unknown>;

export async function listApps(http: HttpClient): Promise<ConnectedApp[]> {
  return listBody<ConnectedApp>((await http.request(listAppsPlan())).data);
}

export function listAppsPlan(): Plan {
  return freePlan('GET', 'oauth/apps');
}

/** Disconnects the app and kills its tokens. */
export async function revokeApp(http: HttpClient, id: string): Promise<void> {
  await http.request(revokeAppPlan(id));
}

export function revokeAppPlan(id: string): Plan {
  return { ...freePlan('DELETE', appPath(id)), costBasis: 'free' };
}

export function appPath(id: string): string {
  return `oauth/apps/${pathSegment(id, 'app id')}`;
}
