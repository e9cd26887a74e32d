/** A batch's progress in words, for the poll's line and the wait. */
import { creditCount } from '../words.js';
import type { BatchStatus } from '../api/batch-status.js';

export function progressText(s: BatchStatus): string {
  const parts: string[] = [s.status];
  if (s.total_rows !== null && s.processed_rows !== null) {
    const pct = s.total_rows > 0 ? ` (${Math.floor((s.processed_rows / s.total_rows) * 100)}%)` : '';
    parts.push(`${s.processed_rows.toLocaleString('en-US')}/${s.total_rows.toLocaleString('en-US')} rows${pct}`);
  }
  if (s.credits_used !== null) parts.push(`${creditCount(s.credits_used * 1000)} used`);
  return parts.join(', ');
}
