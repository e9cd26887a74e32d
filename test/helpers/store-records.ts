/** Records for the store's engine tests (sqlite.test.ts, engines.test.ts): answers, spend entries, holders. */
import { hostname } from 'node:os';
import type { Holder, SpendEntry, StoredAnswer } from '../../src/lib/store/types.js';

export const T0 = Date.UTC(2026, 0, 15, 12);
export const DAY = 86_400_000;

/** A paid creator answer under `key` (a big number in its body), bought at T0 unless told. */
export function answer(key: string, o: Partial<StoredAnswer> = {}): StoredAnswer {
  return {
    key,
    baseUrl: 'http://127.0.0.1:1/',
    route: 'creators/enrich/handle/raw',
    kind: 'creator',
    platform: 'instagram',
    subject: key,
    request: JSON.stringify({ body: { handle: key } }),
    body: `{"result":{"instagram":{"username":"${key}","followers":12345678901234567890}}}`,
    status: 'ok',
    creditsMilli: 30,
    records: 1,
    boughtAt: T0,
    profile: 'default',
    ...o,
  };
}

export function spend(run: string, creditsMilli: number, at = T0, origin?: string): SpendEntry {
  return {
    at,
    profile: 'default',
    baseUrl: 'http://127.0.0.1:1/',
    command: 'enrich handle',
    route: 'creators/enrich/handle/raw',
    platform: 'instagram',
    creditsMilli,
    records: 1,
    run,
    origin,
  };
}

/** A holder that is this process (alive, on this host). */
export const me = (run: string): Holder => ({ run, pid: process.pid, host: hostname() });

export async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
