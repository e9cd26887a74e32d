/**
 * The one place route modules are registered. A module exports `register(router)` and adds its
 * routes with `router.get('/public/v1/.../', handler)`; list it here and it is live.
 */
import type { Router } from '../router.js';
import * as account from './account.js';
import * as batch from './batch.js';
import * as content from './content.js';
import * as control from './control.js';
import * as creators from './creators.js';
import * as dictionaries from './dictionaries.js';
import * as discovery from './discovery.js';
import * as enrichment from './enrichment.js';
import * as exclusions from './exclusions.js';
import * as faults from './faults.js';
import * as keys from './keys.js';
import * as listening from './listening.js';
import * as oauth from './oauth.js';

export const ROUTE_MODULES: ReadonlyArray<{ register(router: Router): void }> = [
  account,
  dictionaries,
  discovery,
  exclusions,
  enrichment,
  content,
  creators,
  batch,
  listening,
  keys,
  oauth,
  control,
  faults,
];

export function registerRoutes(router: Router): void {
  for (const mod of ROUTE_MODULES) mod.register(router);
}
