/**
 * Resource ids (API keys, apps, subscriptions, campaigns, events) are positive integers on the
 * service. They are checked here, before anything is sent, so a typo is a usage error (exit 2)
 * rather than a server 404 (exit 1) — one meaning for "<id>" across every group.
 */
import { UsageError } from './errors.js';
import { pathSegment } from './http/url.js';

/**
 * Returns `raw` trimmed when it is a positive integer (no sign, no leading zero, at most 18 digits),
 * safe to put into a path; throws `UsageError` "Invalid <what> '<raw>': expected a positive integer."
 * otherwise. `what` names the thing in the message, e.g. `key id`, `campaign id`, `--subscription`.
 */
export function positiveId(raw: string | undefined, what: string): string {
  const value = (raw ?? '').trim();
  if (!/^[1-9]\d{0,17}$/.test(value)) throw new UsageError(`Invalid ${what} '${raw ?? ''}': expected a positive integer.`);
  return pathSegment(value, what);
}
