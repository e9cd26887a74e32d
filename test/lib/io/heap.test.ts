import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.js';

// A fresh process: the young generation's size is the process's own, and a test worker's has grown already.
let dir: string;
beforeAll(async () => {
  dir = tempDir('creators-heap-');
  await build({
    entryPoints: [join(import.meta.dirname, '../../../src/lib/io/heap.ts')],
    outfile: join(dir, 'heap.mjs'),
    format: 'esm',
    platform: 'node',
    bundle: true,
    logLevel: 'silent',
  });
  // Objects that live through a few collections (a run's rows in flight), so V8 would grow its young generation.
  writeFileSync(
    join(dir, 'run.mjs'),
    `import v8 from 'node:v8';
import { holdHeapSize } from './heap.mjs';
const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
// Garbage first: both semi-spaces in use (the space's size counts the second from the first collection on).
let sink = 0;
for (let i = 0; i < 200_000; i++) sink += { i }.i;
if (process.argv[2] === 'hold') holdHeapSize();
const before = young() + (sink < 0 ? 1 : 0);
const ring = new Array(20_000);
// The event loop turns between pieces, as a run's does between runs of rows.
for (let i = 0; i < 3_000_000; i++) {
  ring[i % ring.length] = { i, text: 'row ' + i, cells: [i, i + 1] };
  if (i % 5_000 === 0) await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write(JSON.stringify({ before, after: young() }));
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const youngGeneration = (...args: string[]): { before: number; after: number } => {
  const r = spawnSync(process.execPath, [join(dir, 'run.mjs'), ...args], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { before: number; after: number };
};

describe('holdHeapSize', () => {
  it('keeps the young generation at 8 MB at most through a long run, silently, where V8 alone grows it past', () => {
    const free = youngGeneration();
    expect(free.after).toBeGreaterThan(8 * 1024 * 1024);
    const held = youngGeneration('hold');
    expect(held.after).toBeLessThanOrEqual(Math.max(held.before, 8 * 1024 * 1024));
  });
});
