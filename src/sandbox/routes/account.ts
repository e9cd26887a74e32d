/** Account routes: credits. (API keys and connected apps will join this module or a sibling.) */
import { toCredits } from '../ledger.js';
import { json } from '../respond.js';
import type { Router } from '../router.js';

export function register(router: Router): void {
  // Free. The real response keys are unconfirmed (api-contract.md §10); the spec names these two.
  router.get('/public/v1/accounts/credits/', ({ state }) =>
    json({
      credits_available: toCredits(state.ledger.balanceMilli),
      credits_used: toCredits(state.ledger.usedMilli),
    }),
  );
}
