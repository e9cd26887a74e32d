/**
 * The command tree, in the order `creators --help` lists it. Each entry is a verb or a group
 * declared with `defineCommand`/`defineGroup` (src/app/command.ts); entries that are functions are
 * groups still registered the old way.
 */
import type { Command } from 'commander';
import type { CommandNode } from '../app/command.js';
import type { Lazy } from '../program.js';
import apps from './apps/index.js';
import auth from './auth/index.js';
import credits from './credits.js';
import { registerBatch } from './batch/index.js';
import config from './config/index.js';
import dict from './dict.js';
import enrich from './enrich/index.js';
import events from './events/index.js';
import exclusions from './exclusions/index.js';
import keys from './keys/index.js';
import listening from './listening/index.js';
import login from './login.js';
import logout from './logout.js';
import search from './search.js';
import similar from './similar.js';
import post from './post.js';
import api from './api.js';
import sandbox from './sandbox.js';
import completion from './completion.js';
import help from './help.js';

export type TreeEntry = CommandNode | ((program: Command, lazy: Lazy) => void);

export const COMMAND_TREE: readonly TreeEntry[] = [
  credits,
  auth,
  // access: login, logout, keys, apps
  login,
  logout,
  keys,
  apps,
  // discovery: search, similar, dict, exclusions
  search,
  similar,
  dict,
  exclusions,
  // enrichment: enrich, post
  enrich,
  post,
  // batch
  registerBatch,
  // listening, events
  listening,
  events,
  // config
  config,
  // tools
  api,
  sandbox,
  completion,
  help,
];
