/**
 * V8 sizes the heap for throughput, and over a long run that, not what the run holds, is what its memory grows
 * with: the live heap of a bulk run or an event listing stays ~7-13 MB whatever the rows, but the young
 * generation doubles each time the bytes surviving its collections add up to its size (to 2 x 16 MB over a
 * 100,000-row run), and the old one fills to ~4x its live size plus the young generation's before a full
 * collection. Peak RSS was 85 MB at 1,000 rows and 140 MB at 100,000 (README, Performance).
 *
 * From the call on, the young generation keeps the size it has (start-up has grown it to a few MB) and the old
 * one grows by at most half its live size (V8 still adds at least 8 MB). Both flags are read at each collection,
 * so setting them at run time is what V8 honours; the maximum semi-space size, read once at start-up, would
 * not be. Set once a run is known to be long, not at start-up: a one-request command keeps V8's defaults.
 *
 * Node 26 pools Buffers under 32 KB in 64 KB slabs (8 KB before): a slab lives until its last chunk is done, through
 * young-generation collections, and is promoted; a parser's copy of each 16 KB chunk of input then piled up ~5 MB
 * until a full collection. Back to 8 KB, such a chunk has a buffer of its own that dies young.
 */
let held = false;

const POOL_BYTES = 8 * 1024;

export function holdHeapSize(): void {
  if (held) return;
  held = true;
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  v8.setFlagsFromString('--heap-growing-percent=50');
  if (Buffer.poolSize > POOL_BYTES) Buffer.poolSize = POOL_BYTES;
}
