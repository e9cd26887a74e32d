import type { Context } from '../../../app/context.js';
import { removeCreators } from '../verbs.js';

/** `creators listening campaigns remove-creators`: confirms unless --yes. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  await removeCreators(ctx, 'campaign', args, opts);
}
