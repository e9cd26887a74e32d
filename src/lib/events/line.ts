import type { ListeningRecord } from '../api/listening.js';
import { displayWidth, escapeControls, humanDate, truncate } from '../output/index.js';

/**
 * One event as a terminal line: when, id, type, who, a short summary of the value, forward status.
 * Everything from the event shows control characters as visible escapes. With `columns` (a terminal)
 * the line fits that width and never wraps: the summary gives way first, then the rest is cut with `…`,
 * the forward status kept at the end; without it (piped) the line is whole.
 */
export function humanLine(event: ListeningRecord, forwardStatus: number | undefined, columns?: number): string {
  const creator = (event.creator ?? {}) as Record<string, unknown>;
  const who = `${String(creator.platform ?? '?')}/${String(creator.platform_id ?? '?')}`;
  const when = humanDate(String(event.date_occurance ?? event.created_at ?? ''), { seconds: true });
  const value = event.event_value;
  const summary =
    value && typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v === null || typeof v !== 'object')
          .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`)
          .join(' ')
      : value === null || value === undefined ? '' : String(value);
  const headWith = (pad: number): string => escapeControls(`${when}  #${String(event.id)}  ${String(event.event_type ?? '').padEnd(pad)}  ${who}`);
  let head = headWith(18);
  const tail = forwardStatus === undefined ? '' : `  -> forwarded (HTTP ${forwardStatus})`;
  const shown = escapeControls(summary);
  if (columns === undefined) return `${head}${shown ? `  ${shown.replace(/\r\n|[\n\t]/g, ' ')}` : ''}${tail}`;
  // Narrow: the type's column padding goes before anything is cut (the creator stays whole longer).
  if (displayWidth(head) + displayWidth(tail) > columns) head = headWith(0);
  const room = columns - displayWidth(head) - displayWidth(tail) - 2;
  // A summary cut to a few characters says nothing: then it is left out.
  if (shown && room >= 8) return `${head}  ${truncate(shown, room)}${tail}`;
  if (displayWidth(head) + displayWidth(tail) <= columns) return `${head}${tail}`;
  return tail && displayWidth(tail) < columns ? `${truncate(head, columns - displayWidth(tail))}${tail}` : truncate(`${head}${tail}`, columns);
}
