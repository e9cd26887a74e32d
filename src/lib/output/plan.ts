/**
 * The `--dry-run` plan, printed like data on stdout (a dry run writes no file, `-o` included), in the format asked for.
 */
import type { PlanRecord } from '../api/plan.js';
import type { Terminal } from '../io/terminal.js';
import { printText } from './printers.js';
import type { OutputSettings } from './types.js';
import { countText, creditCount } from '../words.js';

const LONG_LIST = 20;
const LIST_HEAD = 10;

/** For a person, a long list (10,000 handles left out by `--skip-bought`) is shortened; json keeps the body as sent. */
function shortened(value: unknown): unknown {
  if (Array.isArray(value)) {
    const shown = value.slice(0, value.length > LONG_LIST ? LIST_HEAD : value.length).map(shortened);
    return value.length > LONG_LIST
      ? [...shown, `… ${countText(value.length - LIST_HEAD)} more (${countText(value.length)} in all)`]
      : shown;
  }
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shortened(v)]));
  return value;
}

export async function printPlan(
  io: Terminal,
  settings: OutputSettings,
  plan: PlanRecord & { input_checks?: string[] },
): Promise<void> {
  if (settings.format === 'json' || settings.format === 'jsonl') {
    await printText(io, settings, `${JSON.stringify(plan, null, settings.format === 'json' ? 2 : undefined)}\n`);
    return;
  }
  const credits = plan.worst_case_credits === null ? 'unknown' : creditCount(plan.worst_case_credits * 1000);
  await printText(
    io,
    settings,
    `Dry run: ${plan.input_checks?.length ? 'nothing was sent but the free reads that check the input' : 'nothing was sent'}.\n${plan.method} ${plan.url}\n` +
      (plan.body !== null ? `${JSON.stringify(shortened(plan.body), null, 2)}\n` : '') +
      `Worst-case cost: ${credits}${plan.cost_basis ? ` (${plan.cost_basis})` : ''}\n` +
      (plan.input_checks?.length
        ? `Sent to check the input first (free reads, as the real run does): ${plan.input_checks.join(', ')}\n`
        : ''),
  );
}
