/**
 * The HTTP core's public face: `HttpClient`. Per request it builds the URL, refuses a state-changing
 * request during a dry run, adds the bearer credential (only for the API's own origin) and the JSON or raw
 * body, and reports the wait (pacing, attempts and back-off as one) to the terminal's spinner; then the
 * retry loop (retry.ts) sends it, one attempt at a time (attempt.ts). It also owns what lives as long as
 * the client: the pacer, the load meter behind `load()`, the undici transport (made on first use) and the
 * Ctrl-C notice for requests already sent. Commands and lib/api never do any of this themselves.
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { undiciTransport, type Transport } from './transport.js';
import { DryRunViolation } from '../errors.js';
import { Pacer, type SharedPace } from './pacer.js';
import { redactUrl, type Secrets } from './redact.js';
import { buildUrl } from './url.js';
import { stringifyJson } from '../exact-json.js';
import type { RequestWaits, WaitHandle } from './wait.js';
import { checkStoredAnswer, sendAttempt, type AttemptPorts } from './attempt.js';
import { LoadMeter } from './load.js';
import { backoffMs, sendWithRetries, type RetryPorts } from './retry.js';
import type { HttpResponse, PurchaseMemory, RequestOptions } from './types.js';
import type { ProxyInUse } from './dispatcher.js';

export type { HttpResponse, Method, Purchase, PurchaseMemory, RequestOptions } from './types.js';
export { FROM_STORE, keepStoredMark, storedAt } from './types.js';

export interface HttpClientOptions {
  baseUrl: URL;
  /** Bearer credential; resolved lazily so commands that fail early never read the store. */
  credential?: () => Promise<string | undefined>;
  /** undici's dispatcher, or a function making it on the first request that needs it. */
  dispatcher: Dispatcher | (() => Promise<Dispatcher>);
  /**
   * Carries GET requests whose body is handed back as a stream (downloads) instead of the dispatcher:
   * `nodeTransport`, when no proxy and no test dispatcher is in play (see transport.ts).
   */
  streamTransport?: Transport | undefined;
  /** Carries the other GETs without a body: `keepAliveGetTransport()`, under the same conditions. */
  getTransport?: Transport | undefined;
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
  proxyFor?: ((url: URL) => ProxyInUse | undefined) | undefined;
  /** `--dry-run`: any request that changes state is refused (a bug in the command, never sent). */
  dryRun?: boolean | undefined;
  /**
   * `--dry-run` and a free read that is not an input check (`inputCheck`): prints the read's plan and
   * throws (DryRunComplete), so the read is never sent. Without it such reads are sent.
   */
  dryRead?: ((req: { method: string; url: URL }) => Promise<never>) | undefined;
  /** `--dry-run`: told of each input check sent (the plan printed after them names them). */
  dryRunChecked?: ((req: { method: string; url: URL }) => void) | undefined;
  /**
   * The run's credentials, redacted from every message: the client adds the bearer it sends, the codes,
   * verifiers and tokens in the bodies it sends, and the tokens it receives.
   */
  secrets?: Secrets | undefined;
  /**
   * The purchase memory (lib/store): every POST passes through it, so a billable answer already bought
   * is taken from the store and a new one is kept before it is returned. Absent with `--no-store`.
   */
  memory?: PurchaseMemory | undefined;
  /** A pace shared with the other processes of this store (lib/store), instead of this process's own. */
  sharedPace?: SharedPace | undefined;
}

/** The HTTP core: one per run, shared by every request of the command (see the file's header). */
export class HttpClient {
  private readonly pacer: Pacer;
  private readonly random: () => number;
  private undici: Transport | undefined;
  /** Requests that may change state or spend (not GET/HEAD) sent and not yet answered. */
  private readonly unsafe = { inFlight: 0 };
  private readonly meter = new LoadMeter();
  private readonly retryPorts: RetryPorts;

  constructor(private readonly opts: HttpClientOptions) {
    this.pacer = new Pacer(opts.rateLimitPerMinute, opts.now, opts.sleep, opts.sharedPace);
    this.random = opts.random ?? Math.random;
    const attemptPorts: AttemptPorts = {
      now: opts.now,
      debug: opts.debug,
      signal: opts.signal,
      proxyFor: opts.proxyFor,
      maxResponseBytes: opts.maxResponseBytes,
      secrets: opts.secrets,
      transport: () => (this.undici ??= undiciTransport(opts.dispatcher)),
      streamTransport: opts.streamTransport,
      getTransport: opts.getTransport,
      unsafe: this.unsafe,
    };
    this.retryPorts = {
      retries: opts.retries,
      now: opts.now,
      sleep: opts.sleep,
      random: this.random,
      signal: opts.signal,
      debug: opts.debug,
      notice: opts.notice,
      secrets: opts.secrets,
      onUnauthorized: opts.onUnauthorized,
      pacer: this.pacer,
      load: this.meter,
      attempt: (a) => sendAttempt(attemptPorts, a),
    };
    opts.signal?.addEventListener(
      'abort',
      () => {
        const n = this.unsafe.inFlight;
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
    const { latencyMs, oldestInFlightMs } = this.meter.snapshot(this.opts.now());
    return { perSecond: this.pacer.perSecond(), latencyMs, oldestInFlightMs };
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
    const memory = this.opts.memory;
    if (memory && req.method === 'POST' && !this.opts.dryRun) {
      const res = await memory.request<T>(req, () => this.waitFor<T>(req));
      if (res.storedAt !== undefined) {
        await checkStoredAnswer(req, req.absoluteUrl ? new URL(req.absoluteUrl) : buildUrl(this.opts.baseUrl, req.path, req.query), res.data, res.storedAt);
      }
      return res;
    }
    return this.waitFor<T>(req);
  }

  /** Sends a request with its wait reported to the spinner (pacing slot, attempts and back-off as one). */
  private async waitFor<T>(req: RequestOptions): Promise<HttpResponse<T>> {
    if (this.opts.waits === undefined) return this.send<T>(req, undefined);
    const url = req.absoluteUrl ? new URL(req.absoluteUrl) : buildUrl(this.opts.baseUrl, req.path, req.query);
    const label = req.label ?? `Waiting for ${url.host}…`;
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
    if (this.opts.dryRun && !req.credentialUpkeep) {
      if (!req.inputCheck && this.opts.dryRead) await this.opts.dryRead({ method: req.method, url });
      this.opts.dryRunChecked?.({ method: req.method, url });
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

    return sendWithRetries<T>(
      this.retryPorts,
      {
        req,
        url,
        headers,
        makeBody,
        credential,
        idempotent,
        timeoutMs: req.timeoutMs ?? this.opts.timeoutMs,
        // The rate limit is the API's: a file host (a presigned download URL) is not paced.
        paced: url.origin === this.opts.baseUrl.origin,
      },
      wait,
    );
  }
}
