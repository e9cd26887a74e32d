import type { FlagDefs } from '../../app/command.js';
import type { Context } from '../../app/context.js';
import { ports } from '../../app/ports.js';
import type { EntriesChange } from '../../lib/discovery/exclusions.js';
import { CSV_INPUT_FLAGS, csvReadOptions } from '../csv-flags.js';

/** The arguments `exclusions add` and `remove` share. */
export const ENTRY_ARGS = [
  { name: '<list>', description: 'list id or default:<platform>' },
  { name: '[handles...]', description: 'handles, @handles or profile URLs (the API normalises them)' },
];

/** The flags `exclusions add` and `remove` share: the handles from a file, read by the one CSV reader. */
export const ENTRY_FLAGS = {
  file: {
    flags: '--file <file|->',
    description: 'read handles from a file or stdin: one per line, or the handle column of a CSV',
    stdin: true,
  },
  ...CSV_INPUT_FLAGS,
} as const satisfies FlagDefs;

/** `exclusions add|remove`: the workflow's ports from the context, then the change (the gate comes first). */
export async function changeEntries(
  ctx: Context,
  {
    list,
    handles,
    flags,
  }: {
    list: string;
    handles: string[];
    flags: { file?: string | undefined; delimiter?: string | undefined; relaxColumns?: boolean | undefined };
  },
  action: 'add' | 'remove',
): Promise<void> {
  const change: EntriesChange = {
    list,
    handles,
    file: flags.file,
    csv: csvReadOptions(flags),
  };
  const { changeEntriesFrom } = await import('../../lib/discovery/exclusions.js');
  // The gate comes first: a dry run sends nothing (and so creates no default list).
  await changeEntriesFrom(await ports.entries(ctx), change, action);
}
