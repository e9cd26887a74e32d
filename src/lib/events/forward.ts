/**
 * `events tail --forward-to <url>`. When the attempts run out the caller must not move the cursor past the
 * event. The receiver gets no credential (the API key never leaves for another origin). Delivery is at least
 * once, so each POST carries the event id in `X-Creators-Event-Id` for the receiver to drop repeats.
 */
import type { Dispatcher } from 'undici';
import { CliError, EXIT, InterruptedError } from '../errors.js';
import { stringifyJson } from '../exact-json.js';
import { networkProblem } from '../http/network-error.js';
import { POLICIES, withRetries } from '../retry-policy.js';

export interface ForwardDeps {
  dispatcher?: Dispatcher | undefined;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
  onRetry(message: string): void;
}

export const EVENT_ID_HEADER = 'x-creators-event-id';

function headerValue(id: unknown): string {
  const text = String(id);
  return /^[\x21-\x7e]+$/.test(text) ? text : encodeURIComponent(text);
}

/** Attempts in all, the first try included (the README and `--help` say "up to 5 attempts"). */
export const FORWARD_ATTEMPTS = POLICIES.forward.attempts;

export interface ForwardOptions {
  attempts?: number;
  backoffMs?: number;
  timeoutMs?: number;
}

export class ForwardError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.ERROR, { code: 'forward_failed', ...(hint ? { hint } : {}) });
  }
}

export function parseForwardUrl(raw: string): URL | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** One attempt failed; `lastProblem` says how. */
class Failed extends Error {}

let plain: Dispatcher | undefined;
// No proxy: receivers are usually local.
async function plainAgent(): Promise<Dispatcher> {
  if (plain === undefined) {
    const { loadAgent } = await import('../http/undici.js');
    const Agent = await loadAgent();
    plain = new Agent();
  }
  return plain;
}

export async function forwardEvent(
  url: URL,
  event: Record<string, unknown>,
  deps: ForwardDeps,
  opts: ForwardOptions = {},
): Promise<number> {
  const attempts = opts.attempts ?? FORWARD_ATTEMPTS;
  const { request } = await import('../http/undici.js');
  const dispatcher = deps.dispatcher ?? (await plainAgent());
  const payload = stringifyJson(event);
  let lastProblem = '';
  const policy = { ...POLICIES.forward, attempts, baseMs: opts.backoffMs ?? POLICIES.forward.baseMs };
  const hooks = {
    retryable: (err: unknown) => err instanceof Failed,
    onRetry: (_err: unknown, attempt: number, waitMs: number) =>
      deps.onRetry(
        `forward of event ${String(event.id)} to ${url.origin} failed (${lastProblem}); attempt ${attempt + 1} of ${attempts} in ${Math.ceil(waitMs / 1000)} s`,
      ),
  };
  try {
    return await withRetries(policy, deps, hooks, async () => {
      try {
        const signals = [AbortSignal.timeout(opts.timeoutMs ?? 10_000), deps.signal].filter(
          (s): s is AbortSignal => s !== undefined,
        );
        const res = await request(url, {
          method: 'POST',
          body: payload,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'creators-cli (events tail)',
            [EVENT_ID_HEADER]: headerValue(event.id),
          },
          signal: AbortSignal.any(signals),
          dispatcher,
        });
        await res.body.dump();
        if (res.statusCode >= 200 && res.statusCode < 300) return res.statusCode;
        lastProblem = `HTTP ${res.statusCode}`;
      } catch (err) {
        if (deps.signal?.aborted) throw new InterruptedError();
        // In plain words: undici's codes (UND_ERR_SOCKET) mean nothing to the reader of this line.
        const problem = networkProblem(err, url.host);
        lastProblem =
          (err as Error).name === 'TimeoutError' ? 'timed out' : problem.charAt(0).toLowerCase() + problem.slice(1);
      }
      throw new Failed();
    });
  } catch (err) {
    if (!(err instanceof Failed)) throw err;
  }
  throw new ForwardError(
    `Could not forward event ${String(event.id)} to ${url.href}: ${lastProblem} after ${attempts} attempts.`,
    'The cursor stays before this event, so it is forwarded again on the next run.',
  );
}
