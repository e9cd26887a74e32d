/**
 * The command tree, in the order `creators --help` lists it: verbs and groups declared with
 * `defineCommand`/`defineGroup` (src/app/command.ts). Nothing here loads a verb's heavy modules: each
 * verb imports what it runs inside its `run`.
 */
import type { CommandNode } from '../app/command.js';
import api from './api.js';
import apps from './apps/index.js';
import auth from './auth/index.js';
import batch from './batch/index.js';
import completion from './completion.js';
import config from './config/index.js';
import credits from './credits.js';
import dict from './dict.js';
import enrich from './enrich/index.js';
import events from './events/index.js';
import exclusions from './exclusions/index.js';
import help from './help.js';
import keys from './keys/index.js';
import listening from './listening/index.js';
import login from './login.js';
import logout from './logout.js';
import mcp from './mcp.js';
import overlap from './overlap.js';
import post from './post.js';
import posts from './posts.js';
import sandbox from './sandbox.js';
import search from './search.js';
import similar from './similar.js';
import socials from './socials.js';
import spend from './spend.js';
import store from './store/index.js';

export const COMMAND_TREE: readonly CommandNode[] = [
  // account and access
  credits,
  spend,
  auth,
  login,
  logout,
  keys,
  apps,
  // discovery
  search,
  similar,
  dict,
  exclusions,
  // enrichment and content
  enrich,
  post,
  posts,
  socials,
  overlap,
  batch,
  // social listening
  listening,
  events,
  // settings and tools
  config,
  store,
  api,
  sandbox,
  mcp,
  completion,
  help,
];
