import type { Command } from 'commander';
import type { Lazy } from '../../program.js';

/** Batch enrichment: upload, status, poll, download, resume, run. */
export function registerBatch(_program: Command, _lazy: Lazy): void {
  // Commands of this group are registered here.
}
