import { defineGroup } from '../../app/command.js';
import list from './list.js';
import revoke from './revoke.js';

/** `creators apps list|revoke`: OAuth apps connected to the account. */
export default defineGroup({
  name: 'apps',
  description: 'Connected OAuth apps (/public/v1/oauth/apps/)',
  examples: [
    ['creators apps list', 'the apps authorized to act for the account'],
    ['creators apps revoke 2 --yes', "revoke one app's access"],
  ],
  commands: [list, revoke],
});
