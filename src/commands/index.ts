/**
 * The command tree, in the order `creators --help` lists it. Each entry is a verb or a group
 * declared with `defineCommand`/`defineGroup` (src/app/command.ts); entries that are functions are
 * groups still registered the old way.
 */
import type { Command } from 'commander';
import type { CommandNode } from '../app/command.js';
import type { Lazy } from '../program.js';
import { registerAccess } from './access/index.js';
import auth from './auth/index.js';
import credits from './credits.js';
import batch from './batch/index.js';
import { registerConfig } from './config/index.js';
import { registerDiscovery } from './discovery/index.js';
import { registerEnrich } from './enrich/index.js';
import { registerListening } from './listening/index.js';
import { registerTools } from './tools/index.js';

export type TreeEntry = CommandNode | ((program: Command, lazy: Lazy) => void);

export const COMMAND_TREE: readonly TreeEntry[] = [
  credits,
  auth,
  // access: login, logout, keys, apps
  registerAccess,
  // discovery: search, similar, dict, exclusions
  registerDiscovery,
  // enrichment: enrich, post
  registerEnrich,
  // batch
  batch,
  // listening, events
  registerListening,
  // config
  registerConfig,
  // tools: api, sandbox, completion, help
  registerTools,
];
