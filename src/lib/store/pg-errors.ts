/** A team store's failures as one line naming the server (never its password) and what to do. */
import { AuthError, BusyError, CliError, EXIT } from '../errors.js';
import { NO_STORE, tooNewError } from './errors.js';

export interface PgTarget {
  /** `postgres://user@host:port/database`. */
  display: string;
  host: string;
  port: number;
  database: string;
  /** The password given in the URL or `PGPASSWORD` (to keep it out of every line printed). */
  password: string | undefined;
}

export function isPgUrl(setting: string): boolean {
  return /^postgres(ql)?:\/\//i.test(setting.trim());
}

/** The server a URL names, with the `PG*` variables for what it leaves out (the URL wins, as in psql). */
export function pgTarget(url: string, env: Record<string, string | undefined>): PgTarget {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  // A socket directory as host (`?host=/run/postgresql`) is shown as given.
  const host = decodeURIComponent(u?.hostname || '') || u?.searchParams.get('host') || env.PGHOST || 'localhost';
  const port = Number(u?.port || env.PGPORT || 5432);
  const user = decodeURIComponent(u?.username || '') || env.PGUSER || env.USER || '';
  const database = decodeURIComponent((u?.pathname ?? '').replace(/^\//, '')) || env.PGDATABASE || user;
  const password = decodeURIComponent(u?.password || '') || env.PGPASSWORD || undefined;
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    display: `postgres://${user ? `${encodeURIComponent(user)}@` : ''}${shownHost}:${port}/${encodeURIComponent(database)}`,
    host,
    port,
    database,
    password,
  };
}

const UNREACHABLE =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE|57P01|57P02|57P03|08000|08003|08006|08001|08004)$/;

/** Whether an error means the team store could not be reached (the answer may be kept later). */
export function isUnreachable(err: unknown): boolean {
  return err instanceof CliError && err.code === 'store_unreachable';
}

/** Removes the password from a server's message, should it ever quote it. */
function clean(text: string, t: PgTarget): string {
  return t.password ? text.split(t.password).join('***') : text;
}

export function pgError(err: unknown, t: PgTarget): CliError {
  if (err instanceof CliError) return err;
  const e = (err ?? {}) as { code?: unknown; message?: unknown; found?: number; known?: number; errors?: unknown[] };
  // An AggregateError (every address of a host refused) carries the codes of its parts.
  const code = String(e.code ?? (e.errors?.[0] as { code?: unknown } | undefined)?.code ?? '');
  const message = clean(typeof e.message === 'string' && e.message ? e.message : String(err), t);
  const where = `the team store at ${t.host}:${t.port}`;
  if (code === 'CREATORS_NEWER_SCHEMA') return tooNewError(t.display, e, err);
  if (code === 'CREATORS_MIGRATE') {
    const what =
      e.found === 0
        ? 'has no creators schema yet'
        : `is at schema ${e.found}; this version of creators needs ${e.known}`;
    return new CliError(`The store ${t.display} ${what}; nothing was bought.`, EXIT.ERROR, {
      code: 'store_migrate',
      hint: `Run \`creators store migrate\` once for the team (it is safe to run again), ${NO_STORE}.`,
      cause: err,
    });
  }
  if (code === 'CREATORS_FOREIGN_DB') {
    return new CliError(
      `The database ${t.display} holds another program's tables (answers without a creators schema); nothing was changed.`,
      EXIT.ERROR,
      {
        code: 'store_foreign',
        hint: `Point CREATORS_STORE (or the store setting) at a database of its own, ${NO_STORE}.`,
        cause: err,
      },
    );
  }
  // PgBouncer refuses credentials itself, as a protocol violation in its own words.
  const bouncerAuth = code === '08P01' && /authentication failed|^no such user$/i.test(message);
  if (code === '28P01' || code === '28000' || bouncerAuth) {
    return new AuthError(`${cap(where)} refused the credentials: ${message}.`, {
      code: 'store_auth',
      hint: 'Check the user and password in the URL, PGUSER/PGPASSWORD or the password file (~/.pgpass, PGPASSFILE).',
      cause: err,
    });
  }
  if (code === '3D000') {
    return new CliError(`${cap(where)} has no database '${t.database}' (${message}).`, EXIT.ERROR, {
      code: 'store_unreachable',
      hint: `Create it (createdb ${t.database}), then run \`creators store migrate\`, ${NO_STORE}.`,
      cause: err,
    });
  }
  if (code === '55P03' || code === '40P01') {
    return new BusyError(
      `${cap(where)} kept a row locked by another run past the busy timeout; nothing more was sent.`,
      {
        code: 'store_busy',
        hint: 'Wait for the other run to finish and try again (CREATORS_STORE_BUSY_TIMEOUT sets the wait, in seconds).',
        cause: err,
      },
    );
  }
  if (code === '57014') {
    return new CliError(`${cap(where)} cancelled a statement that ran too long; nothing more was sent.`, EXIT.ERROR, {
      code: 'store_timeout',
      hint: `Check the server's load, then re-run (answers the store kept are not bought again), ${NO_STORE}.`,
      cause: err,
    });
  }
  if (code === '25006') {
    return new CliError(`${cap(where)} refused a write in a read-only transaction (${message}).`, EXIT.ERROR, {
      code: 'store_failed',
      cause: err,
    });
  }
  if (
    UNREACHABLE.test(code) ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
      message,
    )
  ) {
    const reason = code && /^E[A-Z]+$/.test(code) ? code : message.replace(/\.$/, '');
    return new CliError(`Cannot reach ${where} (${reason}).`, EXIT.ERROR, {
      code: 'store_unreachable',
      hint: `Check that the server is up and reachable from here (host, port, firewall), ${NO_STORE}.`,
      cause: err,
    });
  }
  return new CliError(`Cannot use ${where}: ${message}.`, EXIT.ERROR, {
    code: 'store_failed',
    hint: `Check the server's log and the role's rights on database '${t.database}', ${NO_STORE}.`,
    cause: err,
  });
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
