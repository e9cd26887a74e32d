import { defineCommand } from '../../app/command.js';
import { changeEntries, ENTRY_ARGS, ENTRY_FLAGS } from './change.js';

/** `creators exclusions add <list> <handle...> [--file f|-]` (free; POST), in chunks of at most 10,000. */
export default defineCommand({
  name: 'add',
  description: 'Add handles (arguments, or --file with one per line; sent in chunks of at most 10,000)',
  args: ENTRY_ARGS,
  flags: ENTRY_FLAGS,
  examples: [
    ['creators exclusions add 3 nike @adidas https://www.instagram.com/puma/', 'add three handles'],
    ['cut -d, -f1 contacted.csv | creators exclusions add default:instagram --file -', 'from stdin'],
  ],
  run: (ctx, { args: [list = '', ...handles], flags }) => changeEntries(ctx, { list, handles, flags }, 'add'),
});
