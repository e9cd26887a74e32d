import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/lib/errors.js';
import { OrderedRunner } from '../../../src/lib/bulk/runner.js';
import { formatDuration, progressText } from '../../../src/lib/bulk/progress.js';
import { memoryTerminal } from '../../helpers/terminal.js';

async function* count(n: number, onPull?: (i: number) => void): AsyncGenerator<number> {
  for (let i = 0; i < n; i++) {
    onPull?.(i);
    yield i;
  }
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('OrderedRunner', () => {
  it('yields results in input order although they finish out of order, at most `concurrency` at once', async () => {
    let active = 0;
    let peak = 0;
    const runner = new OrderedRunner({
      items: count(30),
      concurrency: 4,
      work: async (i: number) => {
        active++;
        peak = Math.max(peak, active);
        await tick((i * 7) % 5);
        active--;
        return i * 10;
      },
    });
    expect(await collect(runner.run())).toEqual(Array.from({ length: 30 }, (_, i) => i * 10));
    expect(peak).toBe(4);
    expect(runner.stopped).toBeUndefined();
  });

  it('reads the source lazily: never more than twice the workers ahead of the output', async () => {
    let pulled = 0;
    const runner = new OrderedRunner({
      items: count(1000, () => pulled++),
      concurrency: 3,
      work: async (i: number) => i,
    });
    let seen = 0;
    for await (const _ of runner.run()) {
      seen++;
      expect(pulled - seen).toBeLessThanOrEqual(6);
    }
    expect(seen).toBe(1000);
  });

  it('a throw stops the run: later items never start, earlier results still come out, the reason is kept', async () => {
    const started: number[] = [];
    const runner = new OrderedRunner({
      items: count(100),
      concurrency: 2,
      work: async (i: number) => {
        started.push(i);
        await tick();
        if (i === 5) throw new Error('fatal');
        return i;
      },
    });
    const out = await collect(runner.run());
    expect(out.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(out).not.toContain(5);
    expect((runner.stopped as Error).message).toBe('fatal');
    expect(Math.max(...started)).toBeLessThan(12);
  });

  it('an aborted signal stops pulling and reports an InterruptedError', async () => {
    const controller = new AbortController();
    const runner = new OrderedRunner({
      items: count(100),
      concurrency: 2,
      signal: controller.signal,
      work: async (i: number) => {
        if (i === 3) controller.abort();
        await tick();
        return i;
      },
    });
    const out = await collect(runner.run());
    expect(out.length).toBeLessThan(10);
    expect(runner.stopped).toBeInstanceOf(InterruptedError);
  });

  it('a source that throws (bad CSV mid-file) stops the run with that error', async () => {
    async function* broken(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      throw new Error('bad csv');
    }
    const runner = new OrderedRunner({ items: broken(), work: async (i: number) => i });
    expect(await collect(runner.run())).toEqual([1, 2]);
    expect((runner.stopped as Error).message).toBe('bad csv');
  });
});

describe('OrderedRunner.runBatches over chunks of items', () => {
  async function* chunked(n: number, size: number, onPull?: () => void): AsyncGenerator<number[]> {
    for (let i = 0; i < n; i += size) {
      onPull?.();
      yield Array.from({ length: Math.min(size, n - i) }, (_, k) => i + k);
    }
  }

  it('hands out runs of results in input order, each row in a run already ended, the window kept', async () => {
    const ended = new Set<number>();
    let started = 0;
    const runner = new OrderedRunner({
      items: count(0),
      chunks: chunked(500, 64),
      concurrency: 3,
      work: async (i: number) => {
        started++;
        await tick((i * 7) % 3);
        ended.add(i);
        return i;
      },
    });
    const out: number[] = [];
    let runs = 0;
    for await (const batch of runner.runBatches()) {
      runs++;
      for (const i of batch) expect(ended.has(i)).toBe(true);
      out.push(...batch);
      expect(started - out.length).toBeLessThanOrEqual(6);
    }
    expect(out).toEqual(Array.from({ length: 500 }, (_, i) => i));
    // More than one row a hop: the point of the runs.
    expect(runs).toBeLessThan(500);
    expect(runner.stopped).toBeUndefined();
  });

  it('a throw in a chunked run stops it: later items never start, the rows before it come out', async () => {
    const started: number[] = [];
    const runner = new OrderedRunner({
      items: count(0),
      chunks: chunked(200, 50),
      concurrency: 2,
      work: async (i: number) => {
        started.push(i);
        await tick();
        if (i === 5) throw new Error('fatal');
        return i;
      },
    });
    const out = await collect(runner.run());
    expect(out.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(out).not.toContain(5);
    expect((runner.stopped as Error).message).toBe('fatal');
    expect(Math.max(...started)).toBeLessThan(12);
  });

  it('a chunk source that throws stops the run with that error after the rows before it', async () => {
    async function* broken(): AsyncGenerator<number[]> {
      yield [1, 2, 3];
      throw new Error('bad csv');
    }
    const runner = new OrderedRunner({ items: count(0), chunks: broken(), work: async (i: number) => i });
    expect(await collect(runner.run())).toEqual([1, 2, 3]);
    expect((runner.stopped as Error).message).toBe('bad csv');
  });
});

describe('progress text', () => {
  it('shows done/total, failures, credits and an ETA', () => {
    expect(progressText('enrich handle', { done: 50, failed: 2, creditsMilli: 48000 }, 200, 10_000)).toBe(
      'enrich handle: 50/200 rows, 2 failed, 48 credits, ETA 30s',
    );
    expect(progressText('enrich email', { done: 5, failed: 0, creditsMilli: 250 }, undefined, 1000)).toBe(
      'enrich email: 5 rows, 0 failed, 0.25 credits',
    );
    expect(formatDuration(3_725_000)).toBe('1h02m');
    expect(formatDuration(65_000)).toBe('1m05s');
  });
});

describe('the progress line on a terminal', () => {
  it('shows control and format characters in its text as escapes, its own redraw codes stay', () => {
    const term = memoryTerminal({ stderrIsTTY: true, stdoutIsTTY: true });
    const line = term.liveLine(() => 0);
    line.draw((elapsed) =>
      progressText('enrich \u202Eeldnah\x1b]0;t\x07', { done: 1, failed: 0, creditsMilli: 30 }, 10, elapsed),
    );
    line.close();
    expect(term.err()).toBe(
      `\r\x1b[2K${String.raw`enrich \u202eeldnah\x1b]0;t\x07`}: 1/10 rows, 0 failed, 0.03 credits, ETA 0s\r\x1b[2K`,
    );
  });
});
