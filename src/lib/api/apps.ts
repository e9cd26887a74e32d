import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { listBody } from './keys.js';

/** A connected OAuth app; the real fields are unpublished (api-contract §13.4), so all are kept. */
export type ConnectedApp = Record<string, unknown>;

/** `GET /public/v1/oauth/apps/`: apps the user has authorized. */
export async function listApps(http: HttpClient): Promise<ConnectedApp[]> {
  return listBody<ConnectedApp>((await http.request({ method: 'GET', path: 'oauth/apps' })).data);
}

/** `DELETE /public/v1/oauth/apps/{id}/`: disconnects the app and kills its tokens. */
export async function revokeApp(http: HttpClient, id: string): Promise<void> {
  await http.request({ method: 'DELETE', path: appPath(id) });
}

export function appPath(id: string): string {
  return `oauth/apps/${pathSegment(id, 'app id')}`;
}
