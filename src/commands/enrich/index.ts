import type { Command } from 'commander';
import type { Lazy } from '../../program.js';

/** Enrichment and content: enrich handle, enrich email, post (issue: enrichment). */
export function registerEnrich(_program: Command, _lazy: Lazy): void {
  // Commands of this group are registered here.
}
