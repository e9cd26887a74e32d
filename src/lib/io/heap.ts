/**
 * V8 sizes the heap for throughput, and over a long run that, not what the run holds, is what its memory grows
 * with: the live heap of a bulk run or an event listing stays ~7-13 MB whatever the rows, but the young
 * generation doubles each time the bytes surviving its collections add up to its size (to 2 x 16 MB over a
 * 100,000-row run), and the old one fills to ~4x its live size plus the young generation's before a full
 * collection. Peak RSS was 85 MB at 1,000 rows and 140 MB at 100,000 (README, Performance).
 *
 * From the call on, the young generation grows to 8 MB at most and keeps that size, and the old one grows by at
 * most half its live size (V8 still adds at least 8 MB). Both flags are read at each collection, so setting them
 * at run time is what V8 honours; the maximum semi-space size, read once at start-up, would not be. Held at the
 * 4 MB start-up leaves it, a 1M-row bulk run made 4,276 young collections (672 unheld) and spent ~0.5 s more
 * CPU (~8%); 8 MB takes back most of that for ~3 MB of peak RSS, 16 MB was no longer flat (80 -> 90 MB from 1k to
 * 100k rows). Set once a run is known to be long, not at start-up: a one-request command keeps V8's defaults.
 *
 * Node 26 pools Buffers under 32 KB in 64 KB slabs (8 KB before): a slab lives until its last chunk is done, through
 * young-generation collections, and is promoted; a parser's copy of each 16 KB chunk of input then piled up ~5 MB
 * until a full collection. Back to 8 KB, such a chunk has a buffer of its own that dies young.
 */

/** The young generation's size (both semi-spaces) past which it no longer grows. */
const YOUNG_BYTES = 8 * 1024 * 1024;
let held = false;

const POOL_BYTES = 8 * 1024;

export function holdHeapSize(): void {
  if (held) return;
  held = true;
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--heap-growing-percent=50');
  if (Buffer.poolSize > POOL_BYTES) Buffer.poolSize = POOL_BYTES;
  const youngSize = (): number =>
    v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? YOUNG_BYTES;
  // Node 24 and later size the young generation in small steps, and a hold set late no longer stops it (a 3M-object
  // loop ended at 15 MB held after the fact, 2 MB held at once; 55 MB unheld): there it is held at once.
  if (youngSize() >= YOUNG_BYTES || Number(process.versions.node.split('.')[0]) >= 24) {
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    return;
  }
  // Told after collections: the first that finds the young generation grown to the size holds it there.
  const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
  const observer = new PerformanceObserver(() => {
    if (youngSize() < YOUNG_BYTES) return;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
