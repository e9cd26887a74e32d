/**
 * The rules a store location must meet before anything is opened, created or sent: the text of a setting
 * (`CREATORS_STORE`, the profile's `store`) and the file it names. A mistyped URL must never become a local
 * SQLite file (whose folder names would hold the password), and the store must never be written through a
 * device, a FIFO or a link to someone else's file.
 */
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  statSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';

export const ACCEPTED_STORE_FORMS = 'a file path, or a postgres:// (or postgresql://) URL';

/** The store setting as it may be printed: a URL's password (in the user part or a `password=` parameter) as `***`. */
export function shownStoreValue(value: string): string {
  return (
    value
      // A mistyped URL (`postgres:/u:pw@h`, `postgres//u:pw@h`) spells its password the same way.
      .replace(/^(\s*["'`]?[A-Za-z][A-Za-z0-9+.-]*(?::\/{0,2}|\/\/)[^/?#@\s:]*:)[^@/?#\s]*@/, '$1***@')
      .replace(/([?&]password=)[^&#\s]*/gi, '$1***')
  );
}

/** The password a store setting spells (user part or `password=`), to keep out of every line printed. */
export function storeValuePasswords(value: string): string[] {
  const found = [
    /^\s*["'`]?[A-Za-z][A-Za-z0-9+.-]*(?::\/{0,2}|\/\/)[^/?#@\s:]*:([^@/?#\s]*)@/.exec(value)?.[1],
    ...[...value.matchAll(/[?&]password=([^&#\s"'`]*)/gi)].map((m) => m[1]),
  ];
  return found
    .filter((p): p is string => Boolean(p))
    .flatMap((p) => {
      try {
        return [p, decodeURIComponent(p)];
      } catch {
        return [p];
      }
    });
}

const QUOTES = /^["'`]|["'`]$/;
/** A URL's scheme, or a word that is one without its slashes (`pg:host/db`, `postgres:/db`). */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const BARE_SCHEME =
  /^(postgres|postgresql|pg|psql|pgsql|postgre|postgress|mysql|mariadb|sqlite|sqlite3|libsql|file|https?):/i;

/** What is wrong with a store setting's text (`must be ...`), or undefined when it is a path or a PostgreSQL URL. */
export function storeSettingProblem(value: string): string | undefined {
  const v = value.trim();
  const must = `must be ${ACCEPTED_STORE_FORMS}`;
  if (v === '') return must;
  if (QUOTES.test(v)) return `${must}, without quotes around it`;
  if (/[\u0000-\u001f\u007f]/.test(v)) return `${must}, without control characters`;
  if (/^postgres(ql)?:\/\//i.test(v)) return undefined;
  // A URL that lost its colon (`postgres//u:pw@h/db`) would be a folder named after the password.
  const lostColon = /^([A-Za-z][A-Za-z0-9+.-]*)\/\//.exec(v)?.[1];
  if (lostColon !== undefined) return `${must}; '${lostColon}//' looks like a URL missing the ':' after its scheme`;
  const scheme = SCHEME.exec(v)?.[1] ?? BARE_SCHEME.exec(v)?.[1];
  // The URL itself is left to the driver, which reads forms URL parsers refuse (`postgres://user@/db?host=/run/...`).
  if (scheme !== undefined && !/^postgres(ql)?:\/\//i.test(v))
    return `${must}; '${scheme}:' is not a scheme the store knows`;
  return undefined;
}

/**
 * Refuses a store setting that is neither a path nor a PostgreSQL URL (exit 2), naming where it came from
 * (`CREATORS_STORE`, `the store setting`) and showing it without its password.
 */
export function checkStoreSetting(value: string, source: string): void {
  const problem = storeSettingProblem(value);
  if (problem === undefined) return;
  const fix =
    source === 'CREATORS_STORE'
      ? 'Fix CREATORS_STORE, or unset it for the default file'
      : 'Fix it with `creators config set store <file or URL>`, or `creators config unset store` for the default file';
  throw new UsageError(
    `The store location '${shownStoreValue(value.trim())}' in ${source} was refused: it ${problem}. Nothing was opened or sent.`,
    {
      code: 'store_location',
      hint: `${fix}.`,
    },
  );
}

export interface PrepareOptions {
  /** Create a missing file (0600) and its folder (0700). */
  create: boolean;
  /** Bring a looser file mode to 0600 (never in a dry run: it changes nothing anywhere). Default: `create`. */
  tighten?: boolean | undefined;
  /** The folder is the store's own (the default place): a looser one is brought to 0700 too. */
  privateFolder?: boolean | undefined;
}

/** What the store file was found to be. */
export interface Prepared {
  exists: boolean;
  /** Its mode was looser than 0600 and was tightened. */
  tightened: boolean;
}

function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  if (s.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function notAFile(file: string, what: string): UsageError {
  return new UsageError(`The store ${file} is ${what}, not a regular file; nothing was opened or sent.`, {
    code: 'store_location',
    hint: 'Point CREATORS_STORE (or the store setting) at a file path of its own (it is created if missing).',
  });
}

/**
 * The filesystem rules of a store file: a regular file, never reached through a symbolic link (O_NOFOLLOW),
 * private (0600 in a 0700 folder when created; a looser file is tightened). A missing file is created only
 * with `create`. Refusals are usage errors (exit 2): the location is a setting the user gave, and nothing
 * was done.
 */
export function prepareStoreFile(file: string, o: PrepareOptions): Prepared {
  const tighten = o.tighten ?? o.create;
  let found: Stats | undefined;
  try {
    found = lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (found?.isSymbolicLink()) {
    let target: Stats | undefined;
    try {
      target = statSync(file);
    } catch {
      target = undefined;
    }
    throw notAFile(
      file,
      target === undefined || target.isFile()
        ? 'a symbolic link (the store does not follow links)'
        : `a symbolic link to ${kindOf(target)}`,
    );
  }
  if (found && !found.isFile()) throw notAFile(file, kindOf(found));
  if (!found && !o.create) return { exists: false, tightened: false };
  const dir = path.dirname(file);
  if (!found) {
    // mkdir's mode is cut by the umask; a folder made here is the store's own.
    if (makeFolders(dir)) chmodQuietly(dir, 0o700);
  }
  if (tighten && o.privateFolder) tightenFolder(dir);
  if (!found) {
    // A new file is made private before SQLite opens it (its -wal and -shm files take the same mode). Opened
    // only when it did not exist, so this process holds no SQLite lock on it that closing could drop.
    // O_NOFOLLOW and O_NONBLOCK: a link or a FIFO put in place since the look above is neither followed nor waited on.
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP')
        throw notAFile(file, 'a symbolic link (the store does not follow links)');
      throw err;
    }
    try {
      const s = fstatSync(fd);
      if (!s.isFile()) throw notAFile(file, kindOf(s));
    } finally {
      closeSync(fd);
    }
    return { exists: false, tightened: false };
  }
  // An existing file is never opened here: closing any descriptor of a database file drops every POSIX lock
  // this process holds on it (SQLite's own, if it has the store open), and another process could then take
  // the store for unused and fold its WAL away under this one's writes. Looked at by path only.
  let tightened = false;
  if (tighten && (found.mode & 0o077) !== 0) {
    try {
      chmodSync(file, (found.mode & 0o700) | 0o600);
      tightened = true;
    } catch {
      // Another user's file (a shared store): left as its owner set it.
    }
  }
  checkCompanions(file, tighten);
  return { exists: true, tightened };
}

/** SQLite writes beside the file (`-wal`, `-shm`, `-journal`): the same rules, or it would write through a link. */
function checkCompanions(file: string, tighten: boolean): void {
  for (const suffix of ['-wal', '-shm', '-journal']) {
    const companion = file + suffix;
    let s: Stats;
    try {
      s = lstatSync(companion);
    } catch {
      continue;
    }
    if (!s.isFile()) throw notAFile(companion, kindOf(s));
    if (tighten && (s.mode & 0o077) !== 0) chmodQuietly(companion, 0o600);
  }
}

function tightenFolder(dir: string): void {
  try {
    const s = statSync(dir);
    if (s.isDirectory() && (s.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  } catch {
    // A folder that is not ours: the file's own mode still keeps it private.
  }
}

function chmodQuietly(dir: string, mode: number): void {
  try {
    chmodSync(dir, mode);
  } catch {
    // Made here but not changeable (an odd filesystem): the file's own mode still keeps it private.
  }
}

export interface StoreAddressInput {
  configDir: string;
  profile: string;
  cwd: string;
  /** `CREATORS_STORE` as given (empty: the default place). */
  env?: string | undefined;
  /** The profile's `store` setting. */
  setting?: string | undefined;
}

export interface StoreAddress {
  /** The file (absolute) or the team store's URL (as given, password included): for opening, never for printing. */
  address: string;
  /** The default place in the config directory (its folder is the store's own). */
  isDefault: boolean;
  /** Something the user should fix (a relative path in the profile, from an older version). */
  warning?: string | undefined;
}

/**
 * Where a profile's store is: `CREATORS_STORE` (a relative path from the current folder, as any path in
 * the environment) > the `store` setting > `<config dir>/store/<profile>.db`. `config set store` makes a
 * path absolute; a relative one an older version kept is read from the config directory (one place, not
 * a new store in every folder), with a warning to set it again.
 */
export function storeAddress(o: StoreAddressInput): StoreAddress {
  const fromEnv = o.env !== undefined;
  const given = (fromEnv ? o.env : o.setting)?.trim();
  if (given) {
    checkStoreSetting(given, fromEnv ? 'CREATORS_STORE' : 'the store setting');
    if (/^postgres(ql)?:\/\//i.test(given)) return { address: given, isDefault: false };
    if (fromEnv || path.isAbsolute(given)) return { address: path.resolve(o.cwd, given), isDefault: false };
    const address = path.resolve(o.configDir, given);
    return {
      address,
      isDefault: false,
      warning: `The store setting '${given}' is a relative path; it is read from the config directory (${address}). Run \`creators config set store <path>\` to keep it as an absolute path.`,
    };
  }
  return { address: path.join(o.configDir, 'store', `${o.profile}.db`), isDefault: true };
}

/**
 * The `store` setting as `config set` keeps it: a path made absolute from `cwd` (and `~/` from `home`), a URL as given.
 */
export function storeSettingToKeep(value: string, cwd: string, home: string | undefined): string {
  const v = value.trim();
  if (/^postgres(ql)?:\/\//i.test(v)) return v;
  if (home && (v === '~' || v.startsWith('~/'))) return path.join(home, v.slice(1));
  return path.resolve(cwd, v);
}

/**
 * `mkdir -p`, one level at a time from the nearest folder that exists. Not `mkdirSync(dir, { recursive: true })`:
 * under a folder that refuses new entries without saying ENOENT's opposite (/proc/nope) Node's recursive mkdir
 * never returns, and the run spun at 65% CPU deaf to SIGTERM. Whether it made `dir`.
 */
function makeFolders(dir: string): boolean {
  const missing: string[] = [];
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      if (!statSync(at).isDirectory())
        throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR', path: at });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(at) === at) throw err;
      missing.unshift(at);
    }
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (err) {
      // Another process made it meanwhile.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return missing.length > 0;
}
