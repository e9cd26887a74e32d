import type { ListeningRecord } from '../api/listening.js';
import { escapeControls, humanDate, truncate } from '../output/index.js';

/**
 * One event as a terminal line: when, id, type, who, a short summary of the value, forward status.
 * Everything from the event shows control characters as visible escapes.
 */
export function humanLine(event: ListeningRecord, forwardStatus: number | undefined, columns = 100): string {
  const creator = (event.creator ?? {}) as Record<string, unknown>;
  const who = `${String(creator.platform ?? '?')}/${String(creator.platform_id ?? '?')}`;
  const raw = String(event.date_occurance ?? event.created_at ?? '');
  const when = humanDate(raw, { seconds: true });
  const value = event.event_value;
  const summary =
    value && typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v === null || typeof v !== 'object')
          .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`)
          .join(' ')
      : value === null || value === undefined ? '' : String(value);
  const head = escapeControls(`${when}  #${String(event.id)}  ${String(event.event_type ?? '').padEnd(18)}  ${who}`);
  const tail = forwardStatus === undefined ? '' : `  -> forwarded (HTTP ${forwardStatus})`;
  const room = Math.max(10, columns - head.length - tail.length - 2);
  return `${head}${summary ? `  ${truncate(escapeControls(summary), room)}` : ''}${tail}`;
}
