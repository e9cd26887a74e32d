import type { Context } from '../../../app/context.js';
import { change } from './add.js';

/** `creators exclusions remove <list> <handle...> [--file f|-]` (free), DELETE with a body, chunks of 10,000. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  await change(ctx, args, opts, 'remove');
}
