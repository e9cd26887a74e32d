import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ResponseTooLarge, undiciTransport, type RawResponse, type Transport } from './transport.js';
import { ApiError, CliError, DryRunViolation, InterruptedError, RateLimitError } from '../errors.js';
import { errorFromResponse, isDailyLimit, isFairUseCap, retryAfterSeconds } from './decode-error.js';
import { Pacer } from './pacer.js';
import { redactText, redactUrl, type Secrets } from './redact.js';
import { buildUrl, type Query } from './url.js';
import { networkFailure, NOT_REPLAYED_HINT, rawNetworkError } from './network-error.js';
import { parseJson, stringifyJson } from '../exact-json.js';
import { waitLabel, type RequestWaits, type WaitHandle } from './wait.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method: Method;
  /** API path; `/public/v1/` and the trailing slash are added when missing. */
  path: string;
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /**
   * A body that is not JSON (multipart, form), with its content type. A streamed body is given as a
   * function returning a fresh stream, called once per attempt, so the request can be sent again
   * under the usual retry rules (a POST only when the server refused it unstarted).
   */
  rawBody?: { data: string | Buffer | (() => Readable | AsyncIterable<Uint8Array>); contentType: string; length?: number };
  /** Sends no Authorization header (OAuth register, presigned downloads). */
  noAuth?: boolean;
  /** Per-request timeout in ms (default from `--timeout`). */
  timeoutMs?: number;
  /**
   * `json` (default) parses the body and refuses a 2xx that is not JSON (`malformed_response`);
   * `json-or-text` hands back a non-JSON body as a string (`creators api`); `text` returns the body as a
   * string; `stream` hands back the open body.
   */
  responseType?: 'json' | 'json-or-text' | 'text' | 'stream';
  /** Absolute URL (a `next` link, a download URL); skips base URL and path rules. Auth only on the API origin. */
  absoluteUrl?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** A GET that creates something on the server (the default exclusion list on first read). */
  createsState?: boolean;
  /**
   * A POST a dry run may send because it only keeps the credential alive (the OAuth token refresh):
   * without it a dry run's free reads would fail once the access token expires.
   */
  credentialUpkeep?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  url: string;
}

export interface HttpClientOptions {
  baseUrl: URL;
  /** Bearer credential; resolved lazily so commands that fail early never read the store. */
  credential?: () => Promise<string | undefined>;
  dispatcher: Dispatcher;
  /**
   * Carries GET requests whose body is handed back as a stream (downloads) instead of the dispatcher:
   * `nodeTransport`, when no proxy and no test dispatcher is in play (see transport.ts).
   */
  streamTransport?: Transport | undefined;
  timeoutMs: number;
  retries: number;
  /**
   * Largest JSON (or text, or error) body read, in bytes (default 64 MB, `CREATORS_MAX_RESPONSE_MB`).
   * Streamed bodies (downloads) have no cap.
   */
  maxResponseBytes?: number | undefined;
  rateLimitPerMinute: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Traffic log line writer for `--debug`; undefined when debug is off. */
  debug?: ((line: string) => void) | undefined;
  /** User-visible notices (waits); silenced by `--quiet`. */
  notice?: ((line: string) => void) | undefined;
  /** Told when each request starts and stops waiting for its answer (the terminal's spinner). */
  waits?: RequestWaits | undefined;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal | undefined;
  userAgent?: string;
  /**
   * Called once when a request sent with `credential` gets a 401: returns a fresh credential to
   * replay the request with (an OAuth refresh), or undefined to report the 401 as is. A 401 means
   * the server did not process the request, so the one replay is safe for any method.
   */
  onUnauthorized?: ((rejected: string) => Promise<string | undefined>) | undefined;
  /** The proxy a request to this URL goes through (to name it when it cannot be reached). */
  proxyFor?: ((url: URL) => { host: string; variable: string } | undefined) | undefined;
  /** `--dry-run`: any request that changes state is refused (a bug in the command, never sent). */
  dryRun?: boolean | undefined;
  /**
   * The run's credentials, redacted from every message: the client adds the bearer it sends, the codes,
   * verifiers and tokens in the bodies it sends, and the tokens it receives.
   */
  secrets?: Secrets | undefined;
}

/** The longest wait done without asking: beyond it the command stops with the wait in the message. */
export const MAX_SILENT_WAIT_S = 60;

/** The default cap on a response body that is read whole (JSON, text, an error body). */
export const DEFAULT_MAX_RESPONSE_MB = 64;

/**
 * All attempts of one request together get this many times its timeout of the server's time (waits
 * between attempts aside): a server that trickles an endless body is given up on after 2 x --timeout,
 * not after each of the retry budget's attempts has used its own --timeout.
 */
export const ATTEMPTS_DEADLINE_FACTOR = 2;

/**
 * The wait before attempt `attempt + 1` when the server named none: exponential from 0.5 s, capped at
 * 8 s, with jitter (50-100 %) so concurrent clients do not retry in step.
 */
function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(8_000, 500 * 2 ** (attempt - 1)) * (0.5 + random() * 0.5);
}


/**
 * The HTTP core: base URL and paths, bearer auth, JSON in and out, pacing, retries of safe
 * requests with backoff and jitter, error decoding and the redacted debug log. Commands and
 * lib/api never do any of this themselves.
 */
export class HttpClient {
  private readonly pacer: Pacer;
  private readonly random: () => number;
  private undici: Transport | undefined;
  /** Requests that may change state or spend (not GET/HEAD) sent and not yet answered. */
  private unsafeInFlight = 0;
  /** Start times of the API attempts in flight, by attempt number (for `load()`). */
  private readonly flights = new Map<number, number>();
  private flightSeq = 0;
  /** Moving average of how long the API takes to answer an attempt, in ms (undefined before the first answer). */
  private latencyAvgMs: number | undefined;

  constructor(private readonly opts: HttpClientOptions) {
    this.pacer = new Pacer(opts.rateLimitPerMinute, opts.now, opts.sleep);
    this.random = opts.random ?? Math.random;
    opts.signal?.addEventListener(
      'abort',
      () => {
        const n = this.unsafeInFlight;
        if (n > 0) {
          opts.notice?.(
            `Waiting for ${n === 1 ? 'the request' : `${n} requests`} already sent to finish, so what ${n === 1 ? 'it is' : 'they are'} charged for is kept; press Ctrl-C again to stop at once.`,
          );
        }
      },
      { once: true },
    );
  }

  get baseUrl(): URL {
    return this.opts.baseUrl;
  }

  /**
   * What a concurrent workflow sizes itself from (Little's law: in flight ~= rate x latency): the pace in
   * force (requests a second, lowered after a 429), the service's observed latency (a moving average of
   * answered attempts; the wait for a pacing slot is not part of it), and how long the oldest attempt in
   * flight has been waiting (a floor on the latency before the first answers come in).
   */
  load(): { perSecond: number; latencyMs: number | undefined; oldestInFlightMs: number } {
    const now = this.opts.now();
    let oldest = 0;
    for (const started of this.flights.values()) oldest = Math.max(oldest, now - started);
    return { perSecond: this.pacer.perSecond(), latencyMs: this.latencyAvgMs, oldestInFlightMs: oldest };
  }

  /**
   * The core's wait before attempt `attempt + 1` (see `backoffMs`), with this client's random source: for
   * loops that must resume work themselves (a download continuing at a byte offset) but wait like the core.
   */
  retryDelayMs(attempt: number): number {
    return backoffMs(attempt, this.random);
  }

  /** Sends a request, retrying only what is safe to retry, and returns the decoded response. */
  async request<T = unknown>(req: RequestOptions): Promise<HttpResponse<T>> {
    if (this.opts.waits === undefined) return this.send<T>(req, undefined);
    const url = req.absoluteUrl ? new URL(req.absoluteUrl) : buildUrl(this.opts.baseUrl, req.path, req.query);
    const label = waitLabel(req.method, url, this.opts.baseUrl.origin);
    // The whole wait is one: pacing slot, attempts and the back-off between them.
    const wait = this.opts.waits.beginWait(label);
    try {
      return await this.send<T>(req, { handle: wait, label });
    } finally {
      wait.end();
    }
  }

  private async send<T>(req: RequestOptions, wait: { handle: WaitHandle; label: string } | undefined): Promise<HttpResponse<T>> {
    const url = req.absoluteUrl ? new URL(req.absoluteUrl) : buildUrl(this.opts.baseUrl, req.path, req.query);
    const idempotent = req.method === 'GET' || req.method === 'HEAD';
    if (this.opts.dryRun && !req.credentialUpkeep && (!idempotent || req.createsState)) {
      // The last line of defence: commands answer --dry-run with a plan before they get here.
      throw new DryRunViolation(`${req.method} ${redactUrl(url.href)}`);
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'creators-cli',
      ...req.headers,
    };
    let credential: string | undefined;
    // Credentials go only to the API's own origin: never to a presigned download host.
    if (!req.noAuth && url.origin === this.opts.baseUrl.origin) {
      credential = await this.opts.credential?.();
      if (credential) headers.authorization = `Bearer ${credential}`;
      this.opts.secrets?.add(credential);
    }
    // Every body can be sent again: a streamed one is made afresh for each attempt by its factory.
    let makeBody: () => string | Buffer | Readable | undefined = () => undefined;
    if (req.rawBody) {
      const { data } = req.rawBody;
      makeBody =
        typeof data === 'function'
          ? () => {
              const made = data();
              return made instanceof Readable ? made : Readable.from(made);
            }
          : () => data;
      if (typeof data === 'string') this.opts.secrets?.addFromRequest(data);
      headers['content-type'] = req.rawBody.contentType;
      if (req.rawBody.length !== undefined) headers['content-length'] = String(req.rawBody.length);
    } else if (req.body !== undefined) {
      const json = stringifyJson(req.body);
      this.opts.secrets?.addFromRequest(req.body);
      makeBody = () => json;
      headers['content-type'] = 'application/json';
    }

    const attempts = this.opts.retries + 1;
    const timeoutMs = req.timeoutMs ?? this.opts.timeoutMs;
    const deadlineMs = ATTEMPTS_DEADLINE_FACTOR * timeoutMs;
    let usedMs = 0;
    let reauthorized = false;
    for (let attempt = 1; ; attempt++) {
      this.checkInterrupted();
      // The rate limit is the API's: a file host (a presigned download URL) is not paced, so a download
      // does not wait a slot behind the request that fetched its link.
      const paced = url.origin === this.opts.baseUrl.origin;
      if (paced) await this.pacer.acquire(this.opts.signal);
      const body = makeBody();
      const attemptStarted = this.opts.now();
      const flight = ++this.flightSeq;
      if (paced) this.flights.set(flight, attemptStarted);
      const outcome = await this.attempt<T>(req, url, headers, body, credential, idempotent, Math.min(timeoutMs, deadlineMs - usedMs)).finally(() =>
        this.flights.delete(flight),
      );
      usedMs += Math.max(0, this.opts.now() - attemptStarted);
      // A streamed download's time is the transfer's, not the service's answer: only JSON and text count.
      if (paced && req.responseType !== 'stream') {
        const took = Math.max(0, this.opts.now() - attemptStarted);
        this.latencyAvgMs = this.latencyAvgMs === undefined ? took : this.latencyAvgMs * 0.8 + took * 0.2;
      }
      // A stream the failed attempt did not finish must not hold its file open.
      if (body instanceof Readable && !body.destroyed) body.destroy();
      if (outcome.kind === 'ok') return outcome.response;
      const { error, retryable } = outcome;
      if (error.status === 401 && credential && this.opts.onUnauthorized && !reauthorized) {
        reauthorized = true;
        const fresh = await this.opts.onUnauthorized(credential);
        if (fresh && fresh !== credential) {
          this.opts.debug?.(`401 on ${req.method} ${redactUrl(url.href)}: credential refreshed, replaying once`);
          credential = fresh;
          this.opts.secrets?.add(fresh);
          headers.authorization = `Bearer ${fresh}`;
          attempt--; // the replay does not use up the retry budget
          continue;
        }
      }
      if (retryable && attempt < attempts && usedMs >= deadlineMs) {
        error.message = `${error.message.replace(/\.$/, '')} (gave up after ${attempt} attempts: all attempts of one request get ${formatSeconds(deadlineMs)} s, twice --timeout).`;
        throw error;
      }
      if (!retryable || attempt >= attempts) {
        if (error instanceof RateLimitError && error.code === 'rate_limited' && attempt >= attempts && attempts > 1) {
          throw new RateLimitError(`${error.message} (gave up after ${attempt} attempts)`, {
            status: error.status,
            retryAfter: error.retryAfter,
            hint: error.hint,
          });
        }
        throw error;
      }
      const waitMs =
        outcome.retryAfter !== undefined
          ? outcome.retryAfter * 1000
          : this.retryDelayMs(attempt);
      if (waitMs > MAX_SILENT_WAIT_S * 1000) {
        const secs = Math.ceil(waitMs / 1000);
        throw new RateLimitError(`${error.message}; the server asks to wait ${secs} s, longer than ${MAX_SILENT_WAIT_S} s.`, {
          status: error.status,
          retryAfter: secs,
          hint: `Try again after ${new Date(Math.ceil((this.opts.now() + waitMs) / 1000) * 1000).toISOString()}.`,
        });
      }
      // A 429: every request waits it out and the pace is lowered (pacer.ts), said once per run: with
      // many workers each would otherwise print its own line.
      const firstBackOff = error.status === 429 ? this.pacer.backOff(waitMs) : false;
      if (waitMs >= 2000 && (error.status !== 429 || firstBackOff)) {
        this.opts.notice?.(`${error.message.replace(/\.$/, '')}; retrying in ${Math.ceil(waitMs / 1000)} s (attempt ${attempt + 1} of ${attempts}).`);
      }
      if (firstBackOff && waitMs >= 2000) {
        this.opts.notice?.(
          `Another client may be using this account's rate limit: every request waits, then the pace drops to ${Math.floor(this.pacer.perMinuteNow)} a minute and recovers while no 429 comes.`,
        );
      }
      this.opts.debug?.(`retry ${req.method} ${redactUrl(url.href)} in ${Math.round(waitMs)} ms after: ${error.message}`);
      const why = error.status === 429 ? 'Rate limited' : error.status !== undefined ? `HTTP ${error.status}` : 'No answer';
      wait?.handle.update(`${why}; retrying in ${Math.max(1, Math.ceil(waitMs / 1000))} s`);
      try {
        await this.opts.sleep(waitMs, this.opts.signal);
      } catch {
        this.checkInterrupted();
      }
      wait?.handle.update(wait.label);
    }
  }

  /** Logs a network failure under --debug and hands it to the retry loop. */
  private failed(
    f: ReturnType<typeof networkFailure>,
    req: RequestOptions,
    url: URL,
    started: number,
  ): { kind: 'error'; error: CliError; retryable: boolean } {
    // The user's message is in plain words; the log keeps undici's own code and text.
    const raw = f.error.cause !== undefined ? rawNetworkError(f.error.cause) : '';
    this.opts.debug?.(`! ${req.method} ${redactUrl(url.href)} failed after ${this.opts.now() - started} ms: ${raw || f.error.message}`);
    return { kind: 'error', error: f.error, retryable: f.retryable };
  }

  private checkInterrupted(): void {
    if (this.opts.signal?.aborted) throw new InterruptedError();
  }

  private async attempt<T>(
    req: RequestOptions,
    url: URL,
    headers: Record<string, string>,
    body: string | Buffer | Readable | undefined,
    credential: string | undefined,
    idempotent: boolean,
    timeoutMs: number,
  ): Promise<
    | { kind: 'ok'; response: HttpResponse<T> }
    | { kind: 'error'; error: CliError; retryable: boolean; retryAfter?: number | undefined }
  > {
    // The timeout covers the wait for the response and, for json and text, reading all of it. A stream
    // (a download) only has the idle timeout between pieces once its headers are in: a large file may
    // take longer than --timeout to arrive, as long as it keeps arriving.
    const timer = new AbortController();
    const fire = setTimeout(() => timer.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
    fire.unref();
    // Ctrl-C stops a GET at once, but not a request already sent that may spend or change state: the
    // server goes on with it either way, so it is answered and its result kept (a Discovery page, an
    // enriched row, a created job), instead of being paid for and thrown away. No new request starts.
    const interruptible = idempotent ? this.opts.signal : undefined;
    const signals = [timer.signal, interruptible, req.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals);
    const started = this.opts.now();
    const secrets = credential ? [credential] : [];
    if (this.opts.debug) {
      const shown = typeof body === 'string' ? ` ${truncate(redactText(body, secrets), 2000)}` : body ? ' <stream>' : '';
      this.opts.debug(`> ${req.method} ${redactUrl(url.href)}${shown}`);
    }
    const failure = (err: unknown) => {
      clearTimeout(fire);
      const timedOut = timer.signal.aborted || (err as Error | undefined)?.name === 'TimeoutError';
      const interrupted = Boolean(interruptible?.aborted || req.signal?.aborted);
      const proxy = this.opts.proxyFor?.(url);
      return this.failed(networkFailure(err, { req, url, idempotent, timedOut, timeoutMs, interrupted, proxy }), req, url, started);
    };
    const streamed = req.responseType === 'stream' && req.method === 'GET' && body === undefined && this.opts.streamTransport !== undefined;
    const transport = streamed ? (this.opts.streamTransport as Transport) : (this.undici ??= undiciTransport(this.opts.dispatcher));
    let res: RawResponse;
    if (!idempotent) this.unsafeInFlight++;
    try {
      res = await transport(url, { method: req.method, headers, body, signal, idleTimeoutMs: timeoutMs });
    } catch (err) {
      if (!idempotent) this.unsafeInFlight--;
      return failure(err);
    }

    const status = res.statusCode;
    const flatHeaders = res.headers;
    if (req.responseType === 'stream' && status < 300) {
      if (!idempotent) this.unsafeInFlight--;
      clearTimeout(fire);
      this.opts.debug?.(`< ${status} ${req.method} ${redactUrl(url.href)} ${this.opts.now() - started} ms (streaming)`);
      return { kind: 'ok', response: { status, headers: flatHeaders, data: res.body as unknown as T, url: url.href } };
    }
    let text: string;
    const maxBytes = this.opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * 1024 * 1024;
    try {
      text = await res.text(maxBytes);
    } catch (err) {
      if (err instanceof ResponseTooLarge) {
        clearTimeout(fire);
        this.opts.debug?.(`< ${status} ${req.method} ${redactUrl(url.href)} ${this.opts.now() - started} ms: body over ${maxBytes} B, not read`);
        return { kind: 'error', error: tooLarge(status, maxBytes, idempotent), retryable: false };
      }
      return failure(err);
    } finally {
      if (!idempotent) this.unsafeInFlight--;
    }
    clearTimeout(fire);
    this.opts.debug?.(
      `< ${status} ${req.method} ${redactUrl(url.href)} ${this.opts.now() - started} ms ${Buffer.byteLength(text)} B` +
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
      this.opts.secrets?.addFromResponse(parsed);
      if (req.responseType === 'text') {
        return { kind: 'ok', response: { status, headers: flatHeaders, data: text as T, url: url.href } };
      }
      // A 2xx whose body is not the JSON the endpoint returns (a captive portal's or a proxy's HTML page, a
      // cut-off body) is not a success: data taken from it would be wrong, and a billable POST may have run.
      const notJson = !parseFailed && req.responseType !== 'json-or-text' && text.trim() !== '' && parsed === undefined;
      if (parseFailed || notJson) {
        const what = parseFailed
          ? `a response that is not valid JSON (HTTP ${status}, ${Buffer.byteLength(text)} bytes)`
          : `a ${contentType.split(';')[0] || 'non-JSON'} page instead of JSON (HTTP ${status}, ${Buffer.byteLength(text)} bytes)`;
        const proxyHint = notJson ? 'A proxy or captive portal may be answering instead of the API: check the network and --base-url.' : undefined;
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
      return { kind: 'ok', response: { status, headers: flatHeaders, data, url: url.href } };
    }

    const retryAfter = retryAfterSeconds(parsed, headerValue(flatHeaders['retry-after']), this.opts.now());
    const error = errorFromResponse({ status, body: parsed, rawText: text, retryAfter, nowMs: this.opts.now() });
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
}

/** A body over the cap: the same answer would come again, so it is not retried. */
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

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
