import { defineGroup } from '../../app/command.js';
import add from './add.js';
import create from './create.js';
import del from './delete.js';
import entries from './entries.js';
import get from './get.js';
import list from './list.js';
import remove from './remove.js';
import rename from './rename.js';

/** `creators exclusions ...`: Discovery exclusion lists (all free). `<list>` is an id or `default:<platform>`. */
export default defineGroup({
  name: 'exclusions',
  description: 'Manage Discovery exclusion lists (free); <list> is a numeric id or default:<platform>',
  examples: [
    ['creators exclusions create competitors --platform instagram', 'a new list'],
    ['creators exclusions add 3 nike adidas', 'add handles'],
    ['creators search --platform instagram --exclude-list 3', 'leave them out of a search'],
  ],
  commands: [list, create, get, rename, del, entries, add, remove],
});
