/**
 * `creators store push`, in slices of one transaction each: a copy run twice, or stopped and run again, adds nothing
 * twice.
 */
import { InterruptedError } from '../errors.js';
import type { Store } from './types.js';

export interface PushCounts {
  answers: { read: number; added: number };
  spend: { read: number; added: number };
}

const ANSWER_SLICE = 200;
const SPEND_SLICE = 1000;

/** Copies `from` into `to`; `onSlice` after each slice (a progress line); stops between slices on `signal`. */
export async function pushStore(
  from: Store,
  to: Store,
  o: { signal?: AbortSignal | undefined; onSlice?: (c: PushCounts) => void } = {},
): Promise<PushCounts> {
  const counts: PushCounts = { answers: { read: 0, added: 0 }, spend: { read: 0, added: 0 } };
  const stopped = (): void => {
    if (o.signal?.aborted) {
      throw new InterruptedError(
        `Interrupted: ${counts.answers.added} answers and ${counts.spend.added} spend entries were copied; run the same command again to copy the rest (nothing is copied twice).`,
      );
    }
  };
  for (let after: string | undefined; ; ) {
    stopped();
    const slice = await from.dumpAnswers(after, ANSWER_SLICE);
    if (slice.length === 0) break;
    const added = await to.load(slice, []);
    counts.answers.read += slice.length;
    counts.answers.added += added.answers;
    after = slice[slice.length - 1]?.answer.key;
    o.onSlice?.(counts);
  }
  for (let after: number | undefined; ; ) {
    stopped();
    const slice = await from.dumpSpend(after, SPEND_SLICE);
    if (slice.length === 0) break;
    const added = await to.load(
      [],
      slice.map((x) => x.entry),
    );
    counts.spend.read += slice.length;
    counts.spend.added += added.spend;
    after = slice[slice.length - 1]?.id;
    o.onSlice?.(counts);
  }
  return counts;
}
