/** Flag values of subscription create/update, checked before anything is sent. */
import { UsageError } from '../../../lib/errors.js';
import { parseForwardUrl } from '../../../lib/events/forward.js';

/** `--type new_post,bio_change` -> a list; any name is passed on (the spec's list is not complete). */
export function eventTypes(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = String(raw).split(',').map((t) => t.trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError('--type needs at least one event type, e.g. --type new_post,bio_change.');
  return list;
}

/** `--webhook-url <url>` (an absolute http(s) URL) or `none` to clear it. */
export function webhookUrl(raw: unknown): string | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'none') return null;
  if (!parseForwardUrl(String(raw))) throw new UsageError(`Invalid --webhook-url '${String(raw)}': expected an http(s) URL, or none.`);
  return String(raw);
}
