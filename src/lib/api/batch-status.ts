/** The status words of the create response, the status endpoint and the prose disagree (api-contract §17.8). */
import { toNumber } from './account.js';

export type BatchPhase = 'pending' | 'done' | 'failed' | 'paused';

const PHASES: Record<string, BatchPhase> = {
  queued: 'pending',
  pending: 'pending',
  validating: 'pending',
  processing: 'pending',
  running: 'pending',
  in_progress: 'pending',
  finished: 'done',
  completed: 'done',
  complete: 'done',
  done: 'done',
  failed: 'failed',
  error: 'failed',
  cancelled: 'failed',
  canceled: 'failed',
  paused_insufficient_credits: 'paused',
  paused: 'paused',
  interrupted: 'paused',
};

/** The phase of a status word; an unknown word counts as still running (the poll keeps waiting). */
export function batchPhase(status: unknown): BatchPhase {
  const word = String(status ?? '')
    .trim()
    .toLowerCase();
  return PHASES[word] ?? 'pending';
}

export interface BatchStatus extends Record<string, unknown> {
  batch_id: string;
  status: string;
  phase: BatchPhase;
  total_rows: number | null;
  processed_rows: number | null;
  credits_used: number | null;
}

/** Normalises a status response: numbers from numbers or strings (`credits_used` is a string). */
export function normaliseStatus(data: unknown, id: string): BatchStatus {
  const raw = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const status = String(raw.status ?? raw.state ?? 'unknown');
  return {
    ...raw,
    batch_id: String(raw.batch_id ?? raw.id ?? id),
    status,
    phase: batchPhase(status),
    total_rows: toNumber(raw.total_rows),
    processed_rows: toNumber(raw.processed_rows),
    credits_used: toNumber(raw.credits_used),
  };
}
