/**
 * Polls `check` until it holds, bounded by a generous deadline in time (default 15 s, under the 20 s test
 * timeout) rather than by a count of polls: a loaded machine makes each poll slower, not the awaited thing
 * faster, so a small count (200 x 25 ms) can run out before a starved child process has done its part.
 * Throws, naming `what`, when the deadline passes.
 */
export async function until(what: string, check: () => boolean, limitMs = 15_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
