/**
 * Work a forced exit must not cut short: the process's second Ctrl-C (main.ts `run()`) exits at once,
 * except while something here is pending, such as a refreshed login not yet stored (the server has
 * already killed the old pair, so losing the new one logs the user out). Process-wide, like the exit
 * it guards. A hold is released when its work settles, whether it succeeded or not.
 */
const pending = new Map<number, { what: string; done: Promise<void> }>();
let next = 0;

/** Marks `what` (`the refreshed login`) as pending until `work` settles; returns its result. */
export async function holdExit<T>(what: string, work: () => Promise<T>): Promise<T> {
  const id = next++;
  let release!: () => void;
  pending.set(id, { what, done: new Promise<void>((r) => (release = r)) });
  try {
    return await work();
  } finally {
    pending.delete(id);
    release();
  }
}

/** What a forced exit would cut short now (empty: nothing). */
export function pendingExitHolds(): string[] {
  return [...pending.values()].map((h) => h.what);
}

/** Settles when every hold pending now has been released. */
export async function exitHoldsSettled(): Promise<void> {
  await Promise.all([...pending.values()].map((h) => h.done));
}
