import { defineGroup } from '../../app/command.js';
import get from './get.js';
import list from './list.js';
import path from './path.js';
import set from './set.js';
import unset from './unset.js';

/** `creators config get|set|unset|list|path`: per-profile preferences. */
export default defineGroup({
  name: 'config',
  description: 'Read and change per-profile settings (base-url, format, platform, max-credits, api-key ...)',
  examples: [
    ['creators config set format csv', 'default output format for this profile'],
    ['creators --profile staging config set base-url http://127.0.0.1:8787', 'a second profile'],
    ['creators config list', 'all settings (secrets masked)'],
    ['creators config path', 'where the file lives'],
  ],
  commands: [get, set, unset, list, path],
});
