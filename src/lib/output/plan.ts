/** The `--dry-run` plan, printed like data: to stdout or to the `-o` file, in the format asked for. */
import type { Io } from '../io/streams.js';
import { printText } from './printers.js';
import type { OutputSettings } from './types.js';

/** The plan record of lib/cost.ts, as printed. */
export interface PrintablePlan {
  dry_run: true;
  method: string;
  url: string;
  body: unknown;
  worst_case_credits: number | null;
  cost_basis: string | null;
}

/**
 * json/jsonl: the record (pretty or one line). Any other format: a short text block naming what would
 * be sent and its worst-case cost.
 */
export async function printPlan(io: Io, settings: OutputSettings, plan: PrintablePlan): Promise<void> {
  if (settings.format === 'json' || settings.format === 'jsonl') {
    await printText(io, settings, `${JSON.stringify(plan, null, settings.format === 'json' ? 2 : undefined)}\n`);
    return;
  }
  const credits = plan.worst_case_credits === null ? 'unknown' : `${formatNumber(plan.worst_case_credits)} credits`;
  await printText(
    io,
    settings,
    `Dry run: nothing was sent.\n${plan.method} ${plan.url}\n` +
      (plan.body !== null ? `${JSON.stringify(plan.body, null, 2)}\n` : '') +
      `Worst-case cost: ${credits}${plan.cost_basis ? ` (${plan.cost_basis})` : ''}\n`,
  );
}

/** 1.5 -> `1.5`, 0.1 + 0.2 -> `0.3`: at most three decimals, trailing zeros trimmed. */
function formatNumber(n: number): string {
  return n.toFixed(3).replace(/\.?0+$/, '') || '0';
}
