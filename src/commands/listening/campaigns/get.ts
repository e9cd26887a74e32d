import type { Context } from '../../../app/context.js';
import { getKind } from '../verbs.js';

/** `creators listening campaigns get`. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  await getKind(ctx, 'campaign', args);
}
