import type { Context } from '../../../app/context.js';
import { addCreators } from '../verbs.js';

/** `creators listening campaigns add-creators`: starts monitoring them. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  await addCreators(ctx, 'campaign', args, opts);
}
