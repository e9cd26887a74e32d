/** Sandbox routes: exclusions. */
import type { Router } from '../router.js';

export function register(_router: Router): void {
  // Routes of this module are registered here.
}
