/**
 * Where a profile's store is: `CREATORS_STORE` > the profile's `store` setting > `<config dir>/store/<profile>.db`;
 * a `postgres://` URL is a team store. A dry run opens an existing store read-only, and uses none when there is none.
 */
import { statSync } from 'node:fs';
import { durationText } from '../output/humanize.js';
import type { MemoryTally } from './memory.js';
import { isPgUrl, pgTarget } from './pg-errors.js';
import { storeError } from './errors.js';
import { prepareStoreFile, storeAddress, type StoreAddressInput } from './location.js';

export { isPgUrl, pgTarget };
import { openSqliteStore } from './sqlite.js';
import { SCHEMA_VERSION } from './schema.js';
import type { Engine, Store } from './types.js';

export type StoreLocationInput = StoreAddressInput;

/**
 * The store of a profile: its file, or the URL of a team store (as given, password included). A setting
 * that is neither a path nor a PostgreSQL URL is refused here (lib/store/location.ts), before anything opens.
 */
export function storeFile(o: StoreLocationInput): string {
  return storeAddress(o).address;
}

export function localStoreFile(o: Omit<StoreLocationInput, 'setting' | 'env'>): string {
  return storeFile({ ...o, env: undefined, setting: undefined });
}

/** Where a store is, fit to print: the file, or the server's URL without its password. */
export function storeDisplay(file: string, env: Record<string, string | undefined>): string {
  return isPgUrl(file) ? pgTarget(file, env).display : file;
}

export interface OpenOptions {
  file: string;
  env?: Record<string, string | undefined> | undefined;
  busyTimeoutMs?: number | undefined;
  readOnly?: boolean | undefined;
  migrate?: boolean | undefined;
  /** A file store's clock (the run's); a team store reads the server's. */
  now?: (() => number) | undefined;
  /** The run's Ctrl-C (a write waiting for a file store's lock stops waiting). */
  signal?: AbortSignal | undefined;
  /** A dry run: a looser file mode is left as found (it changes nothing anywhere). */
  dryRun?: boolean | undefined;
  /** The store's folder is its own (the default place): a looser one is brought to 0700. */
  privateFolder?: boolean | undefined;
}

/**
 * The file rules before SQLite sees the file (a regular file, no link, private); a missing file is made only when
 * writing.
 */
function prepare(o: OpenOptions, create: boolean): boolean {
  try {
    return prepareStoreFile(o.file, { create, tighten: !o.dryRun, privateFolder: o.privateFolder }).exists;
  } catch (err) {
    // A folder that cannot be made or read (EACCES, ENOTDIR): one line naming the store, as SQLite's own failures.
    throw storeError(err, o.file);
  }
}

/** The file rules of a store file, creating and changing nothing (before a paid run that may open it only later). */
export function checkStoreFile(file: string): void {
  prepare({ file, dryRun: true }, false);
}

/**
 * Undefined when read-only and there is no store yet (no file, an empty one, or one without a schema): a
 * read-only open cannot give it tables, and a dry run would fail where the real run just begins.
 */
export async function openStore(o: OpenOptions): Promise<Store | undefined> {
  if (isPgUrl(o.file)) {
    const env = o.env ?? process.env;
    const { openPgStore } = await import('./postgres.js');
    const store = await openPgStore({
      url: o.file.trim(),
      env,
      target: pgTarget(o.file.trim(), env),
      busyTimeoutMs: o.busyTimeoutMs,
      readOnly: o.readOnly,
      migrate: o.migrate,
    });
    if (o.readOnly && (await store.version()) === 0) {
      await store.close();
      return undefined;
    }
    return store;
  }
  const exists = prepare(o, !o.readOnly);
  if (o.readOnly && (!exists || statSync(o.file).size === 0)) return undefined;
  const store = await openSqliteStore(o);
  if (o.readOnly && store.version() === 0) {
    await store.close();
    return undefined;
  }
  return store;
}

/**
 * `creators store migrate` (`readOnly`: only reads the version). An SQLite file migrates itself when opened; a team
 * store only here.
 */
export async function migrateStore(o: OpenOptions): Promise<{ engine: Engine; from: number; to: number }> {
  if (isPgUrl(o.file)) {
    const env = o.env ?? process.env;
    const { pgSchemaVersion, migratePgStore } = await import('./postgres.js');
    const base = { url: o.file.trim(), env, target: pgTarget(o.file.trim(), env), busyTimeoutMs: o.busyTimeoutMs };
    const from = o.readOnly ? await pgSchemaVersion(base) : await migratePgStore(base);
    return { engine: 'postgres', from, to: Math.max(from, SCHEMA_VERSION) };
  }
  const existing =
    prepare(o, false) && statSync(o.file).size > 0 ? await openSqliteStore({ ...o, readOnly: true }) : undefined;
  const from = existing ? existing.version() : 0;
  await existing?.close();
  if (!o.readOnly && from < SCHEMA_VERSION) await (await openSqliteStore({ ...o, readOnly: false })).close();
  return { engine: 'sqlite', from, to: Math.max(from, SCHEMA_VERSION) };
}

/** `37 of 200 requests answered from the store (bought within 14 days): 0 credits; --max-age 0 buys fresh.` */
export function reuseNotice(t: MemoryTally): string | undefined {
  if (t.reused === 0) return undefined;
  const total = t.reused + t.bought;
  const what = total === 1 ? 'request' : 'requests';
  const within = t.windowMs === undefined ? '' : ` (bought within ${durationText(t.windowMs)})`;
  return `${t.reused} of ${total} paid ${what} answered from the store${within}: 0 credits; --max-age 0 buys fresh.`;
}
