import type { Readable } from 'node:stream';
import { ApiError, type CliError } from '../errors.js';
import { errorFromResponse, isDailyLimit, isFairUseCap, retryAfterSeconds } from './decode-error.js';
import { networkFailure, NOT_REPLAYED_HINT, proxyAuthFailure, rawNetworkError } from './network-error.js';
import { redactText, redactUrl, type Secrets } from './redact.js';
import { parseJson } from '../exact-json.js';
import { ResponseTooLarge, type RawResponse, type Transport } from './transport.js';
import { decodeContent, UnsupportedEncoding } from './content-encoding.js';
import type { HttpResponse, RequestOptions } from './types.js';
import type { ProxyInUse } from './dispatcher.js';

export const DEFAULT_MAX_RESPONSE_MB = 64;

const SHAPE_HINT = 'A gateway or proxy may be answering for the API, or the API changed: --debug shows the body.';

let shapes: Promise<typeof import('../../contract/responses.js')> | undefined;
function responseShapes(): Promise<typeof import('../../contract/responses.js')> {
  return (shapes ??= import('../../contract/responses.js'));
}

/** Where a stored answer does not have its route's shape (the memory names it as damaged), or undefined. */
export async function storedShapeMismatch(req: RequestOptions, url: URL, data: unknown): Promise<string | undefined> {
  if (req.responseType !== undefined && req.responseType !== 'json') return undefined;
  return (await responseShapes()).responseMismatch(req.method, url.pathname, data);
}

/**
 * The same check on a stored answer not parsed, its nested values stood in for by `{}` and `[]` (the keys `nested`):
 * undefined when it fits, 'unsure' when only the whole answer can tell.
 */
export async function storedShallowMismatch(
  req: RequestOptions,
  pathname: string,
  data: unknown,
  nested: readonly string[],
): Promise<undefined | 'unsure'> {
  if (req.responseType !== undefined && req.responseType !== 'json') return undefined;
  return (await responseShapes()).shallowMismatch(req.method, pathname, data, nested);
}

export type AttemptOutcome<T> =
  | { kind: 'ok'; response: HttpResponse<T> }
  | { kind: 'error'; error: CliError; retryable: boolean; retryAfter?: number | undefined };

export interface AttemptPorts {
  now: () => number;
  debug?: ((line: string) => void) | undefined;
  /** Ctrl-C aborts a GET or HEAD in flight; a request that may change state is answered first. */
  signal?: AbortSignal | undefined;
  proxyFor?: ((url: URL) => ProxyInUse | undefined) | undefined;
  maxResponseBytes?: number | undefined;
  secrets?: Secrets | undefined;
  transport: () => Transport;
  streamTransport?: Transport | undefined;
  getTransport?: Transport | undefined;
  unsafe: { inFlight: number };
}

export interface AttemptRequest {
  req: RequestOptions;
  url: URL;
  headers: Record<string, string>;
  body: string | Buffer | Readable | undefined;
  credential: string | undefined;
  idempotent: boolean;
  timeoutMs: number;
}

/** Never throws for the network's sake: a failure is an outcome, with whether the retry loop may send it again. */
export async function sendAttempt<T>(ports: AttemptPorts, a: AttemptRequest): Promise<AttemptOutcome<T>> {
  const { req, url, headers, body, credential, idempotent, timeoutMs } = a;
  // A stream (a download) has only the idle timeout once its headers are in: it may take longer than --timeout.
  const timer = new AbortController();
  const fire = awakeTimeout(timeoutMs, () =>
    timer.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
  );
  // Ctrl-C does not abort a request that may spend: the server goes on with it either way, so it is answered
  // and its result kept instead of being paid for and thrown away.
  const interruptible = idempotent ? ports.signal : undefined;
  const signals = [timer.signal, interruptible, req.signal].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals);
  const started = ports.now();
  const secrets = credential ? [credential] : [];
  if (ports.debug) {
    const shown = typeof body === 'string' ? ` ${truncate(redactText(body, secrets), 2000)}` : body ? ' <stream>' : '';
    ports.debug(`> ${req.method} ${redactUrl(url.href)}${shown}`);
  }
  const failure = (err: unknown) => {
    fire.clear();
    const timedOut = timer.signal.aborted || (err as Error | undefined)?.name === 'TimeoutError';
    const interrupted = Boolean(interruptible?.aborted || req.signal?.aborted);
    const proxy = ports.proxyFor?.(url);
    return failed(
      ports,
      networkFailure(err, { req, url, idempotent, timedOut, timeoutMs, interrupted, proxy }),
      req,
      url,
      started,
    );
  };
  const checked = req.responseType === undefined || req.responseType === 'json';
  if (checked) void responseShapes().catch(() => undefined);
  const bodyLessGet = req.method === 'GET' && body === undefined;
  const transport =
    (bodyLessGet && req.responseType === 'stream' ? ports.streamTransport : undefined) ??
    (bodyLessGet ? ports.getTransport : undefined) ??
    ports.transport();
  let res: RawResponse;
  if (!idempotent) ports.unsafe.inFlight++;
  try {
    res = await transport(url, { method: req.method, headers, body, signal, idleTimeoutMs: timeoutMs });
  } catch (err) {
    if (!idempotent) ports.unsafe.inFlight--;
    return failure(err);
  }
  try {
    if (req.method !== 'HEAD') res = decodeContent(res);
  } catch (err) {
    if (!(err instanceof UnsupportedEncoding)) throw err;
    if (!idempotent) ports.unsafe.inFlight--;
    fire.clear();
    ports.debug?.(
      `< ${res.statusCode} ${req.method} ${redactUrl(url.href)} ${ports.now() - started} ms: Content-Encoding ${err.encoding}, not read`,
    );
    const message = `The server sent its answer (HTTP ${res.statusCode}) with Content-Encoding '${err.encoding}', which this client cannot decode.`;
    const error = idempotent
      ? new ApiError(message, {
          status: res.statusCode,
          code: 'malformed_response',
          hint: 'The server or a proxy in front of it encodes answers unasked; nothing was written.',
        })
      : new ApiError(message, {
          status: res.statusCode,
          code: 'malformed_response',
          maybeCharged: true,
          hint: NOT_REPLAYED_HINT,
        });
    return { kind: 'error', error, retryable: false };
  }

  const status = res.statusCode;
  const flatHeaders = res.headers;
  if (req.responseType === 'stream' && status < 300) {
    if (!idempotent) ports.unsafe.inFlight--;
    fire.clear();
    ports.debug?.(`< ${status} ${req.method} ${redactUrl(url.href)} ${ports.now() - started} ms (streaming)`);
    return { kind: 'ok', response: { status, headers: flatHeaders, data: res.body as unknown as T, url: url.href } };
  }
  let text: string;
  const maxBytes = ports.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * 1024 * 1024;
  try {
    text = await res.text(maxBytes);
  } catch (err) {
    if (err instanceof ResponseTooLarge) {
      fire.clear();
      ports.debug?.(
        `< ${status} ${req.method} ${redactUrl(url.href)} ${ports.now() - started} ms: body over ${maxBytes} B, not read`,
      );
      return { kind: 'error', error: tooLarge(status, maxBytes, idempotent), retryable: false };
    }
    return failure(err);
  } finally {
    if (!idempotent) ports.unsafe.inFlight--;
  }
  fire.clear();
  ports.debug?.(
    `< ${status} ${req.method} ${redactUrl(url.href)} ${ports.now() - started} ms ${Buffer.byteLength(text)} B` +
      (text ? ` ${truncate(redactText(text, secrets), 2000)}` : ''),
  );
  const contentType = String(flatHeaders['content-type'] ?? '');
  let parsed: unknown = undefined;
  let parseFailed = false;
  if (text && (contentType.includes('json') || /^\s*[[{]/.test(text))) {
    try {
      parsed = parseJson(text);
    } catch {
      parseFailed = contentType.includes('json');
    }
  }

  if (status >= 200 && status < 300) {
    ports.secrets?.addFromResponse(parsed);
    if (req.responseType === 'text') {
      return { kind: 'ok', response: { status, headers: flatHeaders, data: text as T, url: url.href } };
    }
    // A 2xx that is not the endpoint's JSON (a captive portal's page, a cut-off body) is no success: a billable POST
    // may have run.
    const notJson = !parseFailed && req.responseType !== 'json-or-text' && text.trim() !== '' && parsed === undefined;
    if (parseFailed || notJson) {
      const what = parseFailed
        ? `a response that is not valid JSON (HTTP ${status}, ${Buffer.byteLength(text)} bytes)`
        : `a ${contentType.split(';')[0] || 'non-JSON'} page instead of JSON (HTTP ${status}, ${Buffer.byteLength(text)} bytes)`;
      const proxyHint = notJson
        ? 'A proxy or captive portal may be answering instead of the API: check the network and --base-url.'
        : undefined;
      return {
        kind: 'error',
        error: new ApiError(
          `The server sent ${what}.`,
          idempotent
            ? { status, code: 'malformed_response', ...(proxyHint ? { hint: proxyHint } : {}) }
            : { status, code: 'malformed_response', maybeCharged: true, hint: NOT_REPLAYED_HINT },
        ),
        retryable: idempotent,
      };
    }
    const data = (parsed === undefined ? (text === '' ? null : text) : parsed) as T;
    // JSON of the wrong shape (a gateway's `{"message": ...}` with 200) would read as an empty page or "not
    // found (not charged)". Checked before the store keeps it.
    if (checked) {
      const mismatch = (await responseShapes()).responseMismatch(req.method, url.pathname, data);
      if (mismatch !== undefined) {
        return {
          kind: 'error',
          error: new ApiError(
            `The server's answer to ${req.method} ${url.pathname} does not have the endpoint's shape (HTTP ${status}): ${mismatch}.`,
            idempotent
              ? { status, code: 'malformed_response', hint: SHAPE_HINT }
              : { status, code: 'malformed_response', maybeCharged: true, hint: NOT_REPLAYED_HINT },
          ),
          retryable: idempotent,
        };
      }
    }
    return { kind: 'ok', response: { status, headers: flatHeaders, data, url: url.href } };
  }

  // A proxy's own 407, or a 401 the API did not write (Proxy-Authenticate, or not the API's JSON error: a proxy's
  // page for a wrong proxy password): not the API key's fault (no login refresh), and not retried.
  const proxysOwn =
    status === 407 || (status === 401 && (flatHeaders['proxy-authenticate'] !== undefined || parsed === undefined));
  const proxy = proxysOwn ? ports.proxyFor?.(url) : undefined;
  if (proxy !== undefined) return { kind: 'error', error: proxyAuthFailure(proxy, status), retryable: false };

  const retryAfter = retryAfterSeconds(parsed, headerValue(flatHeaders['retry-after']), ports.now());
  const error = errorFromResponse({ status, body: parsed, rawText: text, retryAfter, nowMs: ports.now() });
  // 429 (per-minute) and 503 mean the server did not do the work: safe to replay for any method.
  // The daily limit and the fair-use cap do not lift within a retry budget.
  const refusedUnstarted = (status === 429 && !isDailyLimit(parsed) && !isFairUseCap(parsed, text)) || status === 503;
  const transient = status === 500 || status === 502 || status === 504 || status === 408;
  if (transient && !idempotent) {
    return {
      kind: 'error',
      error: new ApiError(`${error.message}`, {
        status,
        code: error.code,
        maybeCharged: true,
        hint: NOT_REPLAYED_HINT,
      }),
      retryable: false,
    };
  }
  return { kind: 'error', error, retryable: refusedUnstarted || (transient && idempotent), retryAfter };
}

/** How often the request's timeout counts, and the most one count adds however late it comes. */
const TICK_MS = 250;

/**
 * Milliseconds on a monotonic clock (not `performance.now()`: on Node 20 that global loads perf_hooks, ~1 ms of every
 * request).
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * `--timeout` counts the time this process was running, as undici's own timers do (they add a tick per
 * tick). A process stopped (Ctrl-Z, SIGSTOP) or an event loop held (a synchronous store waiting out its busy
 * timeout) wakes with answers that arrived meanwhile in its sockets: a timer that fires late then would throw
 * away what was paid for, and no server was slow.
 */
export function awakeTimeout(ms: number, onTimeout: () => void, clock: () => number = monotonicMs): { clear(): void } {
  let counted = 0;
  let last = clock();
  let handle: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    handle = setTimeout(tick, Math.max(0, Math.min(TICK_MS, ms - counted)));
    handle.unref();
  };
  const tick = (): void => {
    const now = clock();
    counted += Math.min(now - last, 2 * TICK_MS);
    last = now;
    if (counted >= ms) {
      handle = undefined;
      onTimeout();
    } else arm();
  };
  arm();
  return {
    clear: () => {
      if (handle !== undefined) clearTimeout(handle);
      handle = undefined;
    },
  };
}

function failed(
  ports: AttemptPorts,
  f: ReturnType<typeof networkFailure>,
  req: RequestOptions,
  url: URL,
  started: number,
): { kind: 'error'; error: CliError; retryable: boolean } {
  const raw = f.error.cause !== undefined ? rawNetworkError(f.error.cause) : '';
  ports.debug?.(
    `! ${req.method} ${redactUrl(url.href)} failed after ${ports.now() - started} ms: ${raw || f.error.message}`,
  );
  return { kind: 'error', error: f.error, retryable: f.retryable };
}

/** The same answer would come again, so it is not retried. */
function tooLarge(status: number, maxBytes: number, idempotent: boolean): ApiError {
  const mb = Math.round((maxBytes / (1024 * 1024)) * 100) / 100;
  const message = `The server's response (HTTP ${status}) is larger than ${mb} MB; it was not read further.`;
  const hint = `Ask for less (a smaller --limit or page size), or raise the cap with CREATORS_MAX_RESPONSE_MB (now ${mb}).`;
  return new ApiError(
    message,
    idempotent
      ? { status, code: 'response_too_large', hint }
      : { status, code: 'response_too_large', maybeCharged: true, hint: `${hint} ${NOT_REPLAYED_HINT}` },
  );
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
