/**
 * Discovery routes (api-contract §3, §4):
 *   POST /public/v1/discovery/[?return_filter_values=true]   0.01 (0.03) per creator returned
 *   POST /public/v1/discovery/creators/similar/              0.01 per creator returned
 * Response `{total, limit, credits_left: "999.80", accounts: [{user_id, profile: {username,
 * full_name, picture, followers, engagement_percent, url}, matched_filters? | similarity_score?}]}`,
 * plus `applied_filters` and `nlp_search` when `nlp_search` was sent. `paging.page` counts from
 * `config.pageBase` (0 by default). See discovery/*.ts for the rules.
 */
import { search, similar } from '../discovery/engine.js';
import { boolParam } from '../params.js';
import type { Router } from '../router.js';

export function register(router: Router): void {
  router.post('/public/v1/discovery/', (ctx) =>
    search(ctx.state, ctx.body, boolParam(ctx.query, 'return_filter_values', false)),
  );
  router.post('/public/v1/discovery/creators/similar/', (ctx) => similar(ctx.state, ctx.body));
}
