/** Each carries its exit code (`creators help exit-codes`); only src/main.ts turns them into an exit status. */

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
  status?: number;
  retryAfter?: number;
  hint?: string;
  /** A request that may have been processed (and charged) failed and was not retried: JSON errors say so. */
  maybeCharged?: boolean;
  spent?: StopReport;
  cause?: unknown;
}

/** What a stopped billable command spent and where what it paid for is: a line after the error, `spent` in JSON. */
export interface StopReport {
  /** Credits spent by this run, in thousandths (as far as the client can know). */
  spentMilli: number;
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

/** Still pending when the wait (`--max-wait`) ran out. Exit 8. */
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

/** Not an error (exit 0, nothing printed): the user has seen what they wanted, and no further page is bought. */
export class PagerClosedError extends CliError {
  constructor() {
    super('The pager was closed before the output ended.', EXIT.OK, { code: 'pager_closed' });
  }
}

/** EPIPE (`creators search --all | head -1`): like a pager closed early. */
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

/** How a command that runs until stopped (`events tail`) is meant to end: exit 130 for scripts, nothing printed. */
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

/** Writing stdout or the `-o` file failed (no space left, I/O error...). Exit 1. */
export class OutputWriteError extends CliError {
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, EXIT.ERROR, { code: 'write_failed', ...options });
  }
}

/** A non-CliError is wrapped so the report is not lost; a report attached by an inner layer is kept. */
export function withStopReport(err: unknown, report: StopReport): CliError {
  const cli =
    err instanceof CliError
      ? err
      : new CliError(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`, EXIT.ERROR, {
          code: 'internal',
          cause: err,
        });
  cli.spent ??= report;
  return cli;
}

/** A dry run ended at a free read whose plan was printed (exit 0). Not a CliError: no error path may print it. */
export class DryRunComplete extends Error {
  constructor(readonly request: string) {
    super(`Dry run: stopped before ${request}.`);
    this.name = 'DryRunComplete';
  }
}

/** Commands answer `--dry-run` before sending, so a state-changing request here is a bug; it was not sent. */
export class DryRunViolation extends CliError {
  constructor(request: string) {
    super(
      `Internal error: a dry run tried to send ${request}; it was not sent. This is a bug in creators; please report it.`,
      EXIT.ERROR,
      {
        code: 'dry_run_violation',
      },
    );
  }
}
