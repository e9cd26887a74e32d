import { describe, expect, it } from 'vitest';
import { LineBatch } from '../../../src/lib/output/line-batch.js';
import type { Sink } from '../../../src/lib/output/sink.js';

/** A sink that records what each write received. */
function recordingSink(): { sink: Sink; writes: string[] } {
  const writes: string[] = [];
  const sink = {
    write: async (chunk: string) => {
      writes.push(chunk);
    },
  } as unknown as Sink;
  return { sink, writes };
}

describe('LineBatch', () => {
  it('writes lines added back to back in batches of at most 16 K characters and a line, in order', async () => {
    const { sink, writes } = recordingSink();
    const batch = new LineBatch(sink);
    const lines = Array.from({ length: 400 }, (_, i) => `${String(i).padStart(4, '0')},${'x'.repeat(495)}\n`);
    for (const line of lines) await batch.add(line);
    await batch.flush();
    expect(writes.join('')).toBe(lines.join(''));
    // A held batch lives through young-generation collections: bounded, so it is not promoted (README, Performance).
    for (const w of writes) expect(w.length).toBeLessThanOrEqual(16_384 + 500);
    expect(writes.length).toBeGreaterThanOrEqual(Math.ceil((400 * 500) / (16_384 + 500)));
  });
});
