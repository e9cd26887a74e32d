/** The `--dry-run` plan, printed like data on stdout (a dry run writes no file, `-o` included), in the format asked for. */
import type { PlanRecord } from '../cost.js';
import type { Io } from '../io/streams.js';
import { printText } from './printers.js';
import type { OutputSettings } from './types.js';
import { creditCount } from './humanize.js';

/**
 * json/jsonl: the record (pretty or one line). Any other format: a short text block naming what would
 * be sent and its worst-case cost.
 */
export async function printPlan(io: Io, settings: OutputSettings, plan: PlanRecord): Promise<void> {
  if (settings.format === 'json' || settings.format === 'jsonl') {
    await printText(io, settings, `${JSON.stringify(plan, null, settings.format === 'json' ? 2 : undefined)}\n`);
    return;
  }
  const credits = plan.worst_case_credits === null ? 'unknown' : creditCount(plan.worst_case_credits * 1000);
  await printText(
    io,
    settings,
    `Dry run: nothing was sent.\n${plan.method} ${plan.url}\n` +
      (plan.body !== null ? `${JSON.stringify(plan.body, null, 2)}\n` : '') +
      `Worst-case cost: ${credits}${plan.cost_basis ? ` (${plan.cost_basis})` : ''}\n`,
  );
}
