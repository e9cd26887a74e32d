// Work a second Ctrl-C (main.ts `run()`) must not cut short, such as a refreshed login not yet stored: the server
// has already revoked the old pair, so losing the new one logs the user out. Process-wide, like the exit it guards.
const pending = new Map<number, { what: string; done: Promise<void> }>();
let next = 0;

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

export function pendingExitHolds(): string[] {
  return [...pending.values()].map((h) => h.what);
}

export async function exitHoldsSettled(): Promise<void> {
  await Promise.all([...pending.values()].map((h) => h.done));
}
