import { defineCommand } from '../../app/command.js';
import { changeEntries, ENTRY_ARGS, ENTRY_FLAGS } from './change.js';

/** `creators exclusions remove <list> <handle...> [--file f|-]` (free; DELETE with a body), in chunks of at most 10,000. */
export default defineCommand({
  name: 'remove',
  description: 'Remove handles (arguments, or --file with one per line; sent in chunks of at most 10,000)',
  args: ENTRY_ARGS,
  flags: ENTRY_FLAGS,
  examples: [
    ['creators exclusions remove 3 nike @adidas https://www.instagram.com/puma/', 'remove three handles'],
    ['cut -d, -f1 contacted.csv | creators exclusions remove default:instagram --file -', 'from stdin'],
  ],
  run: (ctx, { args: [list = '', ...handles], flags }) => changeEntries(ctx, { list, handles, flags }, 'remove'),
});
