import { CliError, InterruptedError, NetworkError } from '../errors.js';
/** What the failure message needs of the request. */
interface FailedRequest {
  method: string;
}

/** The hint of every failure after which a billable request is not replayed. */
export const NOT_REPLAYED_HINT =
  'The request may have been processed (and charged); it was not retried automatically. Check `creators credits` before trying again.';

/** Errors raised before a byte left: the server never saw the request, so replaying it is safe. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export interface FailureContext {
  req: FailedRequest;
  url: URL;
  idempotent: boolean;
  timedOut: boolean;
  timeoutMs: number;
  /** Ctrl-C or the caller's own signal ended the request. */
  interrupted: boolean;
}

/**
 * A request that got no (complete) answer: connection refused, reset, timed out, DNS. Whether it is
 * retryable decides money: only a request that never left, or a safe (GET) one, may be sent again.
 */
export function networkFailure(err: unknown, f: FailureContext): { error: CliError; retryable: boolean; code: string | undefined } {
  const code = errorCodeOf(err);
  if (f.interrupted) return { error: new InterruptedError(), retryable: false, code };
  const notSent = code !== undefined && NOT_SENT_CODES.has(code);
  const target = `${f.url.protocol}//${f.url.host}`;
  let message: string;
  if (f.timedOut) message = `Request timed out after ${Number((f.timeoutMs / 1000).toFixed(1))} s (${f.req.method} ${f.url.pathname}).`;
  else if (code === 'ECONNREFUSED') message = `Cannot connect to ${target}: connection refused.`;
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') message = `Cannot resolve host '${f.url.hostname}'.`;
  else message = `Network error talking to ${target}: ${code ?? (err as Error).message}.`;
  const retryable = notSent || f.idempotent;
  const hint = !retryable ? NOT_REPLAYED_HINT : code === 'ECONNREFUSED' ? 'Is the base URL right? (--base-url or CREATORS_BASE_URL)' : undefined;
  const options = { code: code ? code.toLowerCase() : 'network_error', hint, cause: err, ...(retryable ? {} : { maybeCharged: true }) };
  return { error: new NetworkError(message, options), retryable, code };
}

/** The system or undici error code, looking through `cause` and AggregateError `errors`. */
function errorCodeOf(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_ABORTED') return e.code;
    if (Array.isArray(e.errors) && e.errors.length > 0) e = e.errors[0] as typeof e;
    else e = e.cause as typeof e;
  }
  return undefined;
}
