import type { Context } from '../../app/context.js';
import { listApps } from '../../lib/api/apps.js';
import { printList } from '../../lib/output/index.js';

/** `creators apps list`: connected OAuth apps; fields passed through as the server sends them. */
export async function run(ctx: Context): Promise<void> {
  const output = await ctx.output();
  const apps = await listApps(await ctx.http());
  const count = await printList(ctx.io, output, apps, [
    { path: 'id', header: 'ID', kind: 'number' },
    { path: 'client_name', header: 'App' },
    { path: 'client_id', header: 'Client ID' },
    { path: 'scope', header: 'Scope' },
    { path: 'created_at', header: 'Authorized', kind: 'date' },
    { path: 'last_used_at', header: 'Last used', kind: 'date' },
  ]);
  if (count === 0 && output.format === 'table') ctx.notice('No connected apps.');
}
