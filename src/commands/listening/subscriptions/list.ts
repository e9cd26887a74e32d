import type { Context } from '../../../app/context.js';
import { listKind } from '../verbs.js';

/** `creators listening subscriptions list`. */
export async function run(ctx: Context): Promise<void> {
  await listKind(ctx, 'subscription');
}
