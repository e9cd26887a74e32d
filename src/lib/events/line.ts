import type { ListeningRecord } from '../api/listening.js';
import { displayWidth, escapeControls, humanDate, truncate } from '../output/index.js';

/** A summary cut to fewer columns than this says nothing: it is left out instead. */
const MIN_SUMMARY = 8;

/**
 * One event for people: when, id, type, who, a short summary of the value, forward status. Everything from
 * the event shows control characters as visible escapes. Without `columns` (piped) the line is whole. With
 * `columns` (a terminal) nothing that names something is ever cut (the id, the type, the creator) and what
 * happened is not dropped for them: the type's padding goes first; then, when the summary would be cut to
 * less than a few characters, the event takes two lines, the second indented, the creator moving down to
 * it when the first is still too wide (and what happened to a third when the second has no room for it);
 * only the summary is cut (with `…`), the forward status kept last.
 */
export function humanLine(event: ListeningRecord, forwardStatus: number | undefined, columns?: number): string {
  const creator = (event.creator ?? {}) as Record<string, unknown>;
  const who = escapeControls(`${String(creator.platform ?? '?')}/${String(creator.platform_id ?? '?')}`);
  const when = humanDate(String(event.date_occurance ?? event.created_at ?? ''), { seconds: true });
  const value = event.event_value;
  const summary =
    value && typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v === null || typeof v !== 'object')
          .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`)
          .join(' ')
      : value === null || value === undefined ? '' : String(value);
  const lead = (pad: number): string => escapeControls(`${when}  #${String(event.id)}  ${String(event.event_type ?? '').padEnd(pad)}`);
  const tail = forwardStatus === undefined ? '' : `  -> forwarded (HTTP ${forwardStatus})`;
  const shown = escapeControls(summary).replace(/\r\n|[\n\t]/g, ' ');
  if (columns === undefined) return `${lead(18)}  ${who}${shown ? `  ${shown}` : ''}${tail}`;
  /** `start`, then the summary cut to what is left of the line (left out below MIN_SUMMARY), then the tail. */
  const line = (start: string): string | undefined => {
    const room = columns - displayWidth(start) - displayWidth(tail) - 2;
    if (shown === '') return displayWidth(start) + displayWidth(tail) <= columns ? `${start}${tail}` : undefined;
    return room >= Math.min(MIN_SUMMARY, displayWidth(shown)) ? `${start}  ${truncate(shown, room)}${tail}` : undefined;
  };
  for (const pad of [18, 0]) {
    const one = line(`${lead(pad)}  ${who}`);
    if (one !== undefined) return one;
  }
  // Two lines: the creator stays on the first when it fits there whole.
  const head = `${lead(0)}  ${who}`;
  if (shown === '' && tail === '') return head;
  if (displayWidth(head) <= columns) return `${head}\n${line('  ') ?? `  ${truncate(shown, columns - 2)}${tail}`}`;
  // Narrower still: the creator alone on the second line, what happened on a third.
  return `${lead(0)}\n${line(`  ${who}`) ?? `  ${who}\n${line('  ') ?? `  ${truncate(shown, columns - 2)}${tail}`}`}`;
}
