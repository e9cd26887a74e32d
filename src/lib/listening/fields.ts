import { UsageError } from '../errors.js';
import { parseForwardUrl } from '../events/forward.js';
import { matchChoice } from '../options.js';
import { EVENT_TYPES } from '../../contract/events.js';

/** A known type in any case is sent as spelled; any other name is passed on (the spec's list is not complete). */
export function eventTypes(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((t) => t.trim()).filter(Boolean).map((t) => matchChoice(t, EVENT_TYPES) ?? t);
  if (list.length === 0) throw new UsageError('--type needs at least one event type, e.g. --type new_post,bio_change.');
  return list;
}

export function webhookUrl(raw: string | undefined): string | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'none') return null;
  if (!parseForwardUrl(raw)) throw new UsageError(`Invalid --webhook-url '${raw}': expected an http(s) URL, or none.`);
  return raw;
}

export function statusChange(flags: { pause: boolean; resume: boolean }): 'paused' | 'active' | undefined {
  if (flags.pause && flags.resume) throw new UsageError('--pause and --resume cannot be used together.');
  return flags.pause ? 'paused' : flags.resume ? 'active' : undefined;
}
