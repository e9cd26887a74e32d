import { defineGroup } from '../../app/command.js';
import create from './create.js';
import del from './delete.js';
import list from './list.js';
import update from './update.js';

/** `creators keys list|create|update|delete`: the account's API keys. */
export default defineGroup({
  name: 'keys',
  description: 'Manage API keys (/public/v1/accounts/tokens/)',
  examples: [
    ['creators keys list', 'every key, values masked'],
    ['creators keys create --name ci', 'a new key, printed once in full'],
    ['creators keys delete 3 --yes', 'delete a key in a script'],
  ],
  commands: [list, create, update, del],
});
