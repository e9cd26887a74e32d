/**
 * Typed errors. Each carries the exit code of the contract (see `creators help exit-codes`);
 * `src/main.ts` is the only place that turns them into an exit status and a printed message.
 */

export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  PARTIAL: 3,
  AUTH: 4,
  CREDITS: 5,
  RATE_LIMIT: 6,
  JOB_FAILED: 7,
  PENDING: 8,
  BUSY: 9,
  INTERRUPTED: 130,
} as const;

export interface CliErrorOptions {
  /** Machine-readable code printed in JSON error mode, e.g. `usage`, `http_500`, `daily_limit_exceeded`. */
  code?: string;
  /** HTTP status when the error came from the API. */
  status?: number;
  /** Seconds the server asked us to wait, when it said so. */
  retryAfter?: number;
  /** A second line telling the user what to do next. */
  hint?: string;
  /** A request that may have been processed (and charged) failed and was not retried: JSON errors say so. */
  maybeCharged?: boolean;
  /** What a stopped billable command spent and kept (see `StopReport`). */
  spent?: StopReport;
  cause?: unknown;
}

/**
 * What a billable command that stopped (Ctrl-C, 402, a limit, a failed write) spent in this run and
 * where what it paid for is: printed as one line after the error (`Spent 5.5 credits in this run;
 * 550 creators kept in p.json, marked partial.`) and as `spent` in JSON errors.
 */
export interface StopReport {
  /** Credits spent by this run, in thousandths (as far as the client can know). */
  spentMilli: number;
  /** Where the paid results are, e.g. `550 creators kept in p.json, marked partial` or `nothing kept`. */
  kept: string;
}

export class CliError extends Error {
  readonly exitCode: number;
  readonly code: string;
  readonly status: number | undefined;
  readonly retryAfter: number | undefined;
  readonly hint: string | undefined;
  readonly maybeCharged: boolean | undefined;
  /** Set by the command that stopped, once it knows what was spent and kept (`withStopReport`). */
  spent: StopReport | undefined;

  constructor(message: string, exitCode: number, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.code = options.code ?? 'error';
    this.status = options.status;
    this.retryAfter = options.retryAfter;
    this.hint = options.hint;
    this.maybeCharged = options.maybeCharged;
    this.spent = options.spent;
  }
}

/** Bad flags, bad input file, a prompt needed without a terminal. Exit 2. */
export class UsageError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.USAGE, { code: 'usage', ...options });
  }
}

/** Some rows or items failed; the rest were written. Exit 3. */
export class PartialFailure extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.PARTIAL, { code: 'partial_failure', ...options });
  }
}

/** No credential, a rejected credential (401) or a failed login. Exit 4. */
export class AuthError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.AUTH, { code: 'unauthenticated', ...options });
  }
}

/** No API key or login for the profile: exit 4, with what to do about it. */
export function notAuthenticated(): AuthError {
  return new AuthError('Not authenticated: no API key or login for this profile.', {
    hint: 'Pass --api-key, set CREATORS_API_KEY, `creators config set api-key <key>`, or run `creators login`.',
  });
}

/** Balance exhausted, daily Discovery limit, batch paused for credits, `--max-credits` guard. Exit 5. */
export class CreditsError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.CREDITS, { code: 'credits', ...options });
  }
}

/** Rate-limited or fair-use cap reached, and waiting was not possible or not allowed. Exit 6. */
export class RateLimitError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.RATE_LIMIT, { code: 'rate_limited', ...options });
  }
}

/** A remote job (batch) ended in failure. Exit 7. */
export class RemoteJobFailed extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.JOB_FAILED, { code: 'job_failed', ...options });
  }
}

/** Still pending when `--timeout` ran out. Exit 8. */
export class PendingError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.PENDING, { code: 'pending', ...options });
  }
}

/** Another run holds the same cursor file or batch journal entry; nothing was done. Exit 9. */
export class BusyError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.BUSY, { code: 'busy', ...options });
  }
}

/**
 * The pager was quit (or died) before the output ended: the user has seen what they wanted. Not an
 * error: `main` exits 0 and prints nothing. A paging command stops here, so no further page is bought.
 */
export class PagerClosedError extends CliError {
  constructor() {
    super('The pager was closed before the output ended.', EXIT.OK, { code: 'pager_closed' });
  }
}

/**
 * Standard output's reader went away (`creators search --all | head -1`: EPIPE): like a pager closed
 * early, the run stops there, buys no further page, and ends quietly with exit 0.
 */
export class StdoutClosedError extends PagerClosedError {
  constructor() {
    super();
    this.message = 'Standard output was closed before the output ended.';
  }
}

/** Ctrl-C. Exit 130. */
export class InterruptedError extends CliError {
  constructor(message = 'Interrupted.', options: CliErrorOptions = {}) {
    super(message, EXIT.INTERRUPTED, { code: 'interrupted', ...options });
  }
}

/**
 * Ctrl-C ended a command that runs until it is stopped (`events tail`): the way it is meant to end, not a
 * failure. Exit 130 for scripts, and nothing printed (main.ts).
 */
export class StoppedError extends InterruptedError {
  constructor() {
    super('Stopped.', { code: 'stopped' });
  }
}

/** The API answered with an error status that has no more specific class. Exit 1. */
export class ApiError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.ERROR, { code: options.status ? `http_${options.status}` : 'api_error', ...options });
  }
}

/** The request never got an answer: refused, reset, timed out, DNS. Exit 1. */
export class NetworkError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.ERROR, { code: 'network_error', ...options });
  }
}

/**
 * A failed write of the command's output (stdout or the `-o` file: no space left, I/O error, a
 * read-only file system...). Exit 1; the message names the destination and the system's words.
 */
export class OutputWriteError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.ERROR, { code: 'write_failed', ...options });
  }
}

/**
 * Attaches what a stopped billable command spent and kept to the error that stopped it, and returns
 * the error to rethrow. A non-CliError (an unexpected failure) is wrapped so the report is not lost;
 * a report already attached by an inner layer is kept.
 */
export function withStopReport(err: unknown, report: StopReport): CliError {
  const cli =
    err instanceof CliError ? err : new CliError(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`, EXIT.ERROR, { code: 'internal', cause: err });
  cli.spent ??= report;
  return cli;
}

/**
 * A dry run reached a free read the command would make (`dict`, `keys list`, `events list`...): the
 * plan of that read was printed in its place and the run ends there, successfully (exit 0), having sent
 * nothing. Not a CliError: nothing went wrong, and no error path may print it.
 */
export class DryRunComplete extends Error {
  constructor(readonly request: string) {
    super(`Dry run: stopped before ${request}.`);
    this.name = 'DryRunComplete';
  }
}

/**
 * A dry run reached the HTTP client with a request that changes state. Commands answer `--dry-run`
 * with a plan before sending anything, so this is a bug in the command, not a user error; the request
 * was not sent.
 */
export class DryRunViolation extends CliError {
  constructor(request: string) {
    super(`Internal error: a dry run tried to send ${request}; it was not sent. This is a bug in creators; please report it.`, EXIT.ERROR, {
      code: 'dry_run_violation',
    });
  }
}
