import type { Context } from '../../app/context.js';
import type { ListeningPorts } from '../../lib/listening/workflows.js';

/** The ports the listening workflows take, assembled from the context (the HTTP client is built here). */
export async function listeningPorts(ctx: Context): Promise<ListeningPorts> {
  return { http: await ctx.http(), term: ctx.term, gate: (plan) => ctx.gate(plan), dryRun: ctx.dryRun, now: ctx.deps.now };
}
