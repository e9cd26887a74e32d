import type { Context } from '../../app/context.js';
import { getBatchStatus } from '../../lib/api/batch.js';
import { printItem, type ColumnSpec } from '../../lib/output/index.js';
import { printable } from './shared.js';

export const STATUS_COLUMNS: ColumnSpec[] = [
  { path: 'batch_id', header: 'Batch' },
  { path: 'status', header: 'Status' },
  { path: 'processed_rows', header: 'Processed', kind: 'number' },
  { path: 'total_rows', header: 'Total rows', kind: 'number' },
  { path: 'success_count', header: 'Enriched', kind: 'number' },
  { path: 'failed_count', header: 'No data / failed', kind: 'number' },
  { path: 'credits_used', header: 'Credits used', kind: 'number' },
  { path: 'started_at', header: 'Started', kind: 'date' },
  { path: 'estimated_completion', header: 'Estimated completion', kind: 'date' },
  { path: 'status_message', header: 'Message' },
];

/** `creators batch status <id>`: the state and progress of a job (free). */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const [id = ''] = args;
  const http = await ctx.http();
  const status = await getBatchStatus(http, id);
  await printItem(ctx.io, await ctx.output(), printable(status), STATUS_COLUMNS);
}
