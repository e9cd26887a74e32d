import type { Context } from '../../../app/context.js';
import { getKind } from '../verbs.js';

/** `creators listening subscriptions get <id>`. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  await getKind(ctx, 'subscription', args);
}
