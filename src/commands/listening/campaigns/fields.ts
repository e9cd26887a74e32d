import { parseIntegerOption } from '../../../lib/options.js';
import { UsageError } from '../../../lib/errors.js';

/** `--days n`: the campaign's monitoring duration, 1 to 365 days. */
export function daysOption(raw: unknown): number | undefined {
  const days = parseIntegerOption(raw, '--days', 1);
  if (days !== undefined && days > 365) throw new UsageError(`Invalid --days '${String(raw)}': at most 365.`);
  return days;
}
