/** The HTTP core's one retry policy; whether an outcome may be sent again is attempt.ts's call, never this loop's. */
import { Readable } from 'node:stream';
import { InterruptedError, RateLimitError } from '../errors.js';
import type { AttemptOutcome, AttemptRequest } from './attempt.js';
import type { LoadMeter } from './load.js';
import type { Pacer } from './pacer.js';
import { redactUrl, type Secrets } from './redact.js';
import { PROXY_AUTH_FAILED } from './network-error.js';
import type { HttpResponse, RequestOptions } from './types.js';
import type { WaitHandle } from './wait.js';
import { mayRetry, nextWait, pause, POLICIES } from '../retry-policy.js';

export const MAX_SILENT_WAIT_S = POLICIES.http.maxServerWaitMs / 1000;

/** A server trickling an endless body is given up on after twice the timeout, not after every attempt used its own. */
export const ATTEMPTS_DEADLINE_FACTOR = 2;

export interface RetryPorts {
  retries: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  signal?: AbortSignal | undefined;
  debug?: ((line: string) => void) | undefined;
  notice?: ((line: string) => void) | undefined;
  secrets?: Secrets | undefined;
  onUnauthorized?: ((rejected: string) => Promise<string | undefined>) | undefined;
  pacer: Pacer;
  load: LoadMeter;
  attempt: <T>(a: AttemptRequest) => Promise<AttemptOutcome<T>>;
  named?: HttpNames | undefined;
}

/** How the client's messages name its settings: the caller's words (the app's `--timeout`); absent, left unnamed. */
export interface HttpNames {
  timeout: string;
}

export interface PreparedRequest {
  req: RequestOptions;
  url: URL;
  /** Sent with every attempt; a replay after a 401 changes its authorization. */
  headers: Record<string, string>;
  makeBody: () => string | Buffer | Readable | undefined;
  credential: string | undefined;
  idempotent: boolean;
  timeoutMs: number;
  paced: boolean;
}

export async function sendWithRetries<T>(
  ports: RetryPorts,
  prepared: PreparedRequest,
  wait: { handle: WaitHandle; label: string } | undefined,
): Promise<HttpResponse<T>> {
  const { req, url, headers, makeBody, idempotent, paced, timeoutMs } = prepared;
  let { credential } = prepared;
  const attempts = ports.retries + 1;
  const deadlineMs = ATTEMPTS_DEADLINE_FACTOR * timeoutMs;
  // Time counted is the attempts' own, not the waits between them (a Retry-After may be 60 s).
  const policy = { ...POLICIES.http, attempts, deadlineMs };
  let usedMs = 0;
  let reauthorized = false;
  for (let attempt = 1; ; attempt++) {
    checkInterrupted(ports.signal);
    // A download does not wait a pacing slot behind the request that fetched its link.
    if (paced) await ports.pacer.acquire(ports.signal);
    if (paced && attempt === 1 && ports.pacer.paceNote !== undefined) {
      ports.notice?.(ports.pacer.paceNote);
      ports.pacer.paceNote = undefined;
    }
    const body = makeBody();
    const attemptStarted = ports.now();
    const flight = paced ? ports.load.takeOff(attemptStarted) : undefined;
    const outcome = await ports
      .attempt<T>({
        req,
        url,
        headers,
        body,
        credential,
        idempotent,
        timeoutMs: Math.min(timeoutMs, deadlineMs - usedMs),
      })
      .finally(() => {
        if (flight !== undefined) ports.load.land(flight);
      });
    usedMs += Math.max(0, ports.now() - attemptStarted);
    // A download's time is the transfer's, not the service's answer.
    if (paced && req.responseType !== 'stream') ports.load.observe(Math.max(0, ports.now() - attemptStarted));
    if (body instanceof Readable && !body.destroyed) body.destroy();
    if (outcome.kind === 'ok') return outcome.response;
    const { error, retryable } = outcome;
    if (
      error.status === 401 &&
      error.code !== PROXY_AUTH_FAILED &&
      credential &&
      ports.onUnauthorized &&
      !reauthorized
    ) {
      reauthorized = true;
      const fresh = await ports.onUnauthorized(credential);
      if (fresh && fresh !== credential) {
        ports.debug?.(`401 on ${req.method} ${redactUrl(url.href)}: credential refreshed, replaying once`);
        credential = fresh;
        ports.secrets?.add(fresh);
        headers.authorization = `Bearer ${fresh}`;
        attempt--; // the replay does not use up the retry budget
        continue;
      }
    }
    if (retryable && attempt < attempts && !mayRetry(policy, attempt, usedMs)) {
      const twice = ports.named === undefined ? '' : `, twice ${ports.named.timeout}`;
      error.message = `${error.message.replace(/\.$/, '')} (gave up after ${attempt} attempts: all attempts of one request get ${formatSeconds(deadlineMs)} s${twice}).`;
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
    const { waitMs, tooLong } = nextWait(
      policy,
      attempt,
      outcome.retryAfter !== undefined ? outcome.retryAfter * 1000 : undefined,
      ports.random,
    );
    if (tooLong) {
      const secs = Math.ceil(waitMs / 1000);
      throw new RateLimitError(
        `${error.message}; the server asks to wait ${secs} s, longer than ${MAX_SILENT_WAIT_S} s.`,
        {
          status: error.status,
          retryAfter: secs,
          hint: `Try again after ${new Date(Math.ceil((ports.now() + waitMs) / 1000) * 1000).toISOString()}.`,
        },
      );
    }
    // A 429's notice is said once per run: with many workers each would otherwise print its own line.
    const firstBackOff = error.status === 429 ? ports.pacer.backOff(waitMs) : false;
    if (waitMs >= 2000 && (error.status !== 429 || firstBackOff)) {
      ports.notice?.(
        `${error.message.replace(/\.$/, '')}; retrying in ${Math.ceil(waitMs / 1000)} s (attempt ${attempt + 1} of ${attempts}).`,
      );
    }
    if (firstBackOff && waitMs >= 2000) {
      ports.pacer.paceNote = `Another client may be using this account's rate limit: every request waits, then the pace drops to ${Math.floor(ports.pacer.perMinuteNow)} a minute and recovers while no 429 comes.`;
    }
    ports.debug?.(`retry ${req.method} ${redactUrl(url.href)} in ${Math.round(waitMs)} ms after: ${error.message}`);
    const why =
      error.status === 429 ? 'Rate limited' : error.status !== undefined ? `HTTP ${error.status}` : 'No answer';
    wait?.handle.update(`${why}; retrying in ${Math.max(1, Math.ceil(waitMs / 1000))} s`);
    await pause(ports, waitMs);
    checkInterrupted(ports.signal);
    wait?.handle.update(wait.label);
  }
}

export function checkInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InterruptedError();
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
