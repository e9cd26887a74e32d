import type { Context } from '../../app/context.js';
import type { EntriesChange } from '../../lib/discovery/exclusions.js';

/** `exclusions add|remove`: the workflow's ports from the context, then the change (the gate comes first). */
export async function changeEntries(ctx: Context, change: EntriesChange, action: 'add' | 'remove'): Promise<void> {
  const { changeEntriesFrom } = await import('../../lib/discovery/exclusions.js');
  // The gate comes first: a dry run sends nothing (and so creates no default list).
  const ports = { http: await ctx.http(), gate: ctx.gate.bind(ctx), notices: ctx.term, input: ctx.term, io: ctx.io, output: await ctx.output() };
  await changeEntriesFrom(ports, change, action);
}
