import type { Context } from '../../../app/context.js';
import { listCreators } from '../verbs.js';

/** `creators listening subscriptions creators <id>`. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  await listCreators(ctx, 'subscription', args);
}
