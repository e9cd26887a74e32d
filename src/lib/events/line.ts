import type { ListeningRecord } from '../api/listening.js';
import { displayWidth, escapeControls, humanDate, truncate } from '../output/index.js';

/** A summary cut to fewer columns than this says nothing: it is left out instead. */
const MIN_SUMMARY = 8;

/**
 * One event for people. On a terminal (`columns`) nothing that names something (id, type, creator) is cut:
 * the type's padding goes first, then the event wraps to two or three indented lines; only the summary is cut.
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
  const line = (start: string): string | undefined => {
    const room = columns - displayWidth(start) - displayWidth(tail) - 2;
    if (shown === '') return displayWidth(start) + displayWidth(tail) <= columns ? `${start}${tail}` : undefined;
    return room >= Math.min(MIN_SUMMARY, displayWidth(shown)) ? `${start}  ${truncate(shown, room)}${tail}` : undefined;
  };
  for (const pad of [18, 0]) {
    const one = line(`${lead(pad)}  ${who}`);
    if (one !== undefined) return one;
  }
  const head = `${lead(0)}  ${who}`;
  if (shown === '' && tail === '') return head;
  if (displayWidth(head) <= columns) return `${head}\n${line('  ') ?? `  ${truncate(shown, columns - 2)}${tail}`}`;
  return `${lead(0)}\n${line(`  ${who}`) ?? `  ${who}\n${line('  ') ?? `  ${truncate(shown, columns - 2)}${tail}`}`}`;
}
