import type { Context } from '../../../app/context.js';
import { addCreators } from '../verbs.js';

/** `creators listening subscriptions add-creators <id> [handle...]`. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  await addCreators(ctx, 'subscription', args, opts);
}
