/**
 * The one place route modules are registered. A module exports `register(router)` and adds its
 * routes with `router.get('/public/v1/.../', handler)`; list it here and it is live.
 */
import type { Router } from '../router.js';
import * as account from './account.js';
import * as control from './control.js';
import * as dictionaries from './dictionaries.js';

export const ROUTE_MODULES: ReadonlyArray<{ register(router: Router): void }> = [account, dictionaries, control];

export function registerRoutes(router: Router): void {
  for (const mod of ROUTE_MODULES) mod.register(router);
}
