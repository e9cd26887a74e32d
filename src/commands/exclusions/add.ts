import { defineCommand } from '../../app/command.js';
import { CSV_INPUT_FLAGS } from '../csv-flags.js';
import { changeEntries } from './change.js';

/** `creators exclusions add <list> <handle...> [--file f|-]` (free; POST), in chunks of at most 10,000. */
export default defineCommand({
  name: 'add',
  description: 'Add handles (arguments, or --file with one per line; sent in chunks of at most 10,000)',
  args: [
    { name: '<list>', description: 'list id or default:<platform>' },
    { name: '[handles...]', description: 'handles, @handles or profile URLs (the API normalises them)' },
  ],
  flags: {
    file: { flags: '--file <file|->', description: 'read handles from a file or stdin: one per line, or the handle column of a CSV' },
    ...CSV_INPUT_FLAGS,
  },
  examples: [
    ['creators exclusions add 3 nike @adidas https://www.instagram.com/puma/', 'add three handles'],
    ['cut -d, -f1 contacted.csv | creators exclusions add default:instagram --file -', 'from stdin'],
  ],
  run: (ctx, { args: [list = '', ...handles], flags }) => changeEntries(ctx, { list, handles, file: flags.file, delimiter: flags.delimiter, relaxColumns: flags.relaxColumns }, 'add'),
});
