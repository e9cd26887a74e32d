import type { Context } from '../../../app/context.js';
import { deleteKind } from '../verbs.js';

/** `creators listening subscriptions delete <id>`: confirms unless --yes. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  await deleteKind(ctx, 'subscription', args, 'Delete');
}
