import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { undiciTransport, type Transport } from './transport.js';
import { DryRunViolation } from '../errors.js';
import { Pacer, type SharedPace } from './pacer.js';
import { redactUrl, type Secrets } from './redact.js';
import { buildUrl } from './url.js';
import { stringifyJson } from '../exact-json.js';
import type { RequestWaits, WaitHandle } from './wait.js';
import { sendAttempt, type AttemptPorts } from './attempt.js';
import { LoadMeter } from './load.js';
import { sendWithRetries, type HttpNames, type RetryPorts } from './retry.js';
import { backoffMs, POLICIES } from '../retry-policy.js';
import type { HttpResponse, PurchaseMemory, RequestOptions } from './types.js';
import type { ProxyInUse } from './dispatcher.js';

export interface HttpClientOptions {
  baseUrl: URL;
  /** Bearer credential; resolved lazily so commands that fail early never read the store. */
  credential?: () => Promise<string | undefined>;
  dispatcher: Dispatcher | (() => Promise<Dispatcher>);
  /**
   * node:http transports for bodyless GETs (streamed: downloads), used when no proxy or test dispatcher is in play
   * (transport.ts).
   */
  streamTransport?: Transport | undefined;
  getTransport?: Transport | undefined;
  timeoutMs: number;
  retries: number;
  /** Default 64 MB (`CREATORS_MAX_RESPONSE_MB`); streamed bodies (downloads) have no cap. */
  maxResponseBytes?: number | undefined;
  rateLimitPerMinute: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  debug?: ((line: string) => void) | undefined;
  notice?: ((line: string) => void) | undefined;
  waits?: RequestWaits | undefined;
  signal?: AbortSignal | undefined;
  userAgent?: string;
  /**
   * A 401 means the server did not process the request, so one replay with a refreshed credential is safe for any
   * method.
   */
  onUnauthorized?: ((rejected: string) => Promise<string | undefined>) | undefined;
  proxyFor?: ((url: URL) => ProxyInUse | undefined) | undefined;
  dryRun?: boolean | undefined;
  /** `--dry-run`: a free read that is not an `inputCheck` prints its plan and throws (DryRunComplete), never sent. */
  dryRead?: ((req: { method: string; url: URL }) => Promise<never>) | undefined;
  dryRunChecked?: ((req: { method: string; url: URL }) => void) | undefined;
  /**
   * Redacted from every message; the client adds the bearer it sends and the tokens in bodies it sends and receives.
   */
  secrets?: Secrets | undefined;
  /**
   * Every POST passes through it: an answer already bought is taken from the store, a new one is kept before it is
   * returned.
   */
  memory?: PurchaseMemory | undefined;
  sharedPace?: SharedPace | undefined;
  named?: HttpNames | undefined;
}

/**
 * The HTTP core, one per run: each request goes through the retry loop (retry.ts), one attempt at a time (attempt.ts).
 */
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
      named: opts.named,
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

  /** For concurrent workflows sizing themselves by Little's law (in flight ~= rate x latency). */
  load(): { perSecond: number; latencyMs: number | undefined; oldestInFlightMs: number } {
    const { latencyMs, oldestInFlightMs } = this.meter.snapshot(this.opts.now());
    return { perSecond: this.pacer.perSecond(), latencyMs, oldestInFlightMs };
  }

  /** The core's back-off, for loops that resume work themselves (a download continuing at a byte offset). */
  retryDelayMs(attempt: number): number {
    return backoffMs(POLICIES.http, attempt, this.random);
  }

  async request<T = unknown>(req: RequestOptions): Promise<HttpResponse<T>> {
    const memory = this.opts.memory;
    if (memory && req.method === 'POST' && !this.opts.dryRun) {
      // A stored answer comes back checked (shape, size) by the memory, which names a damaged one.
      return memory.request<T>(req, () => this.waitFor<T>(req));
    }
    return this.waitFor<T>(req);
  }

  private async waitFor<T>(req: RequestOptions): Promise<HttpResponse<T>> {
    if (this.opts.waits === undefined) return this.send<T>(req, undefined);
    const url = req.absoluteUrl ? new URL(req.absoluteUrl) : buildUrl(this.opts.baseUrl, req.path, req.query);
    const label = req.label ?? `Waiting for ${url.host}…`;
    const wait = this.opts.waits.beginWait(label);
    try {
      return await this.send<T>(req, { handle: wait, label });
    } finally {
      wait.end();
    }
  }

  private async send<T>(
    req: RequestOptions,
    wait: { handle: WaitHandle; label: string } | undefined,
  ): Promise<HttpResponse<T>> {
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
        paced: url.origin === this.opts.baseUrl.origin,
      },
      wait,
    );
  }
}
