import type { Command } from 'commander';
import type { Lazy } from '../../program.js';

/** Account access: login, logout, auth token, keys, apps. */
export function registerAccess(_program: Command, _lazy: Lazy): void {
  // Commands of this group are registered here.
}
