import type { ListeningRecord } from '../api/listening.js';
import { displayWidth, escapeControls, humanDate, truncate } from '../output/index.js';

/** A summary cut to fewer columns than this says nothing: it goes to a line of its own instead. */
const MIN_SUMMARY = 8;

/**
 * One event for people. On a terminal (`columns`) its first line always says who (platform/handle) and what
 * happened (the type), never cut: the type's padding goes first, then the date (the time is kept), then the
 * time, then the id. The summary follows on that line when it fits, else on an indented line of its own, cut.
 */
export function humanLine(event: ListeningRecord, forwardStatus: number | undefined, columns?: number): string {
  const creator = (event.creator ?? {}) as Record<string, unknown>;
  const who = escapeControls(`${String(creator.platform ?? '?')}/${String(creator.platform_id ?? '?')}`);
  const when = escapeControls(humanDate(String(event.date_occurance ?? event.created_at ?? ''), { seconds: true }));
  const value = event.event_value;
  const summary =
    value && typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v === null || typeof v !== 'object')
          .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`)
          .join(' ')
      : value === null || value === undefined
        ? ''
        : String(value);
  const id = escapeControls(`#${String(event.id)}`);
  const type = escapeControls(String(event.event_type ?? ''));
  const tail = forwardStatus === undefined ? '' : `  -> forwarded (HTTP ${forwardStatus})`;
  const shown = escapeControls(summary).replace(/\r\n|[\n\t]/g, ' ');
  const head = (parts: string[], pad = 0): string =>
    [...parts, type.padEnd(pad), who].filter((part) => part !== '').join('  ');
  if (columns === undefined) return `${head([when, id], 18)}${shown ? `  ${shown}` : ''}${tail}`;
  const time = when.replace(/^\d{4}-\d{2}-\d{2} /, '');
  const heads = [head([when, id], 18), head([when, id]), head([time, id]), head([id]), head([])];
  const oneLine = (start: string): string | undefined => {
    if (shown === '') return displayWidth(start) + displayWidth(tail) <= columns ? `${start}${tail}` : undefined;
    const room = columns - displayWidth(start) - displayWidth(tail) - 2;
    return room >= Math.min(MIN_SUMMARY, displayWidth(shown)) ? `${start}  ${truncate(shown, room)}${tail}` : undefined;
  };
  // The fullest first line that holds the summary too; else the fullest that fits, the summary under it.
  for (const start of heads.slice(0, 2)) {
    const one = oneLine(start);
    if (one !== undefined) return one;
  }
  const first = heads.find((start) => displayWidth(start) <= columns) ?? heads[heads.length - 1]!;
  if (shown === '' && tail === '') return first;
  return `${first}\n${oneLine('  ') ?? `  ${truncate(shown, Math.max(1, columns - 2))}${tail}`}`;
}
