import { delimiter, type FlagDefs } from '../app/command.js';

/** How a user's CSV is read (lib/csv/read.ts): shared by every verb that reads one. */
export const CSV_INPUT_FLAGS = {
  delimiter: {
    flags: '--delimiter <char>',
    description:
      'input delimiter: comma, semicolon, tab, pipe or any one character (default: detected from the header line)',
    value: delimiter,
  },
  relaxColumns: {
    flags: '--relax-columns',
    description:
      'accept input rows wider or narrower than the header (padded or cut to it) instead of refusing the file',
  },
} as const satisfies FlagDefs;
