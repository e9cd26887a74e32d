/**
 * Where a profile's store is and how it is opened: `CREATORS_STORE` > the profile's `store` setting >
 * `<config dir>/store/<profile>.db`. A dry run opens an existing store read-only (it changes nothing
 * anywhere) and uses none when there is no file yet.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { durationText } from '../output/humanize.js';
import type { MemoryTally } from './memory.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

export interface StoreLocationInput {
  configDir: string;
  profile: string;
  cwd: string;
  /** `CREATORS_STORE` or the `store` setting, when given. */
  setting?: string | undefined;
}

/** The store file of a profile. */
export function storeFile(o: StoreLocationInput): string {
  const given = o.setting?.trim();
  if (given) {
    if (/^postgres(ql)?:\/\//i.test(given)) {
      throw new UsageError('A PostgreSQL store is not supported by this version of creators.', {
        hint: 'Unset CREATORS_STORE / the store setting to use the local file, or run with --no-store.',
      });
    }
    return path.resolve(o.cwd, given);
  }
  return path.join(o.configDir, 'store', `${o.profile}.db`);
}

export interface OpenOptions {
  file: string;
  busyTimeoutMs?: number | undefined;
  readOnly?: boolean | undefined;
}

/**
 * Opens the store (creating it unless read-only); undefined when read-only and there is none yet: no
 * file, or an empty one (a run that created it and could not write, on a full disk), or one without a
 * schema: a read-only open cannot give it tables, and a dry run would fail where the real run just begins.
 */
export async function openStore(o: OpenOptions): Promise<Store | undefined> {
  if (o.readOnly && (!existsSync(o.file) || statSync(o.file).size === 0)) return undefined;
  const store = await openSqliteStore(o);
  if (o.readOnly && store.version() === 0) {
    await store.close();
    return undefined;
  }
  return store;
}

/** `37 of 200 requests answered from the store (bought within 14 days): 0 credits; --max-age 0 buys fresh.` */
export function reuseNotice(t: MemoryTally): string | undefined {
  if (t.reused === 0) return undefined;
  const total = t.reused + t.bought;
  const what = total === 1 ? 'request' : 'requests';
  const within = t.windowMs === undefined ? '' : ` (bought within ${durationText(t.windowMs)})`;
  return `${t.reused} of ${total} paid ${what} answered from the store${within}: 0 credits; --max-age 0 buys fresh.`;
}
