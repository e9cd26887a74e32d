import type { Command } from 'commander';
import type { Lazy } from '../../program.js';

/** Social listening: subscriptions, campaigns, usage, and events. */
export function registerListening(_program: Command, _lazy: Lazy): void {
  // Commands of this group are registered here.
}
