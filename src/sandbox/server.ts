/**
 * The local sandbox API: an in-memory implementation of the service for tests, scripts and CI.
 * A test double with real behaviour, not a mock. It stands alone: nothing here imports the CLI.
 *
 * Routes (all under `/public/v1/` need `Authorization: Bearer <key>`, and end with `/`):
 *   GET  /public/v1/accounts/credits/                          {credits_available, credits_used}; free
 *   GET  /public/v1/discovery/classifier/languages/            [{abbr, name}]
 *   GET  /public/v1/discovery/classifier/locations/{platform}/ [{id, name, type, country_code, country, state?}]
 *   GET  /public/v1/discovery/classifier/brands/               [{username, name, cleaned_name, category}]
 *   GET  /public/v1/discovery/classifier/yt-topics/            [{id, name, sub_topics: [{id, name}]}]
 *   GET  /public/v1/discovery/classifier/games/                [{id, name, slug, genre, release_year, publisher}]
 *   GET  /public/v1/discovery/classifier/audience-brand-categories/  [{id, name}]
 *   GET  /public/v1/discovery/classifier/audience-brand-names/       [{id, name, username, category}]
 *   GET  /public/v1/discovery/classifier/audience-interests/         [{id, name}]
 *   GET  /public/v1/discovery/classifier/audience-locations/         like locations, every type
 *   GET  /public/v1/discovery/classifier/niche/                [{id, name, slug}]
 *   GET  /public/v1/discovery/classifier/sub-niche/            [{id, name, slug, niche, niche_id}]
 *        (dictionaries: `search`, `offset`, `limit` 1-100; brands also `exact`; all free)
 *   GET  /_sandbox/ledger   GET|POST /_sandbox/config          sandbox-only control surface, no auth; changes
 *                                                               need Content-Type: application/json (dispatch.ts)
 *   GET|POST|DELETE /_sandbox/faults                            fault injection (faults/, routes/faults.ts)
 *   Optional latency per route family (latency.ts, `latency` option / `creators sandbox --latency`).
 *
 * Every request, on both listeners, needs a loopback Host naming the listening port (loopback.ts): 421 otherwise.
 *
 * Sandbox-only choices, where the real service publishes nothing:
 *   - Error bodies: DRF `{"detail": ...}` for 401/403/404/405/429 and JSON parse errors; the
 *     service's `{"error": ...}` wrappers for validation (respond.ts has every shape).
 *   - 429 body `{"detail": "Request was throttled. Expected available in N seconds.", "retry_after": N}`
 *     ("1 second." when N is 1, as DRF words it) plus `Retry-After: N`; the window is a sliding 60 s
 *     per account (all keys of the account share it). Every request that passes authentication
 *     and the trial check counts, whatever its outcome; 429s do not.
 *   - Check order as in DRF: 404 route, 401 auth, 403 trial, 429 throttle, 405 method, then the
 *     body: 400 `JSON parse error - ...`, 415 for a media type other than JSON, form or multipart.
 *   - 402 `{"error": "Insufficient credits.", "error_code": "insufficient_credits"}` when a billable
 *     request cannot be paid (the real status is not published).
 *   - 403 `{"detail": "Trial allowance of 30 requests used up. ...", "error_code": "trial_exhausted"}`
 *     once a trial account has made 30 successful (2xx) requests; errors do not count.
 *   - Dictionary entry shapes (above) and the per-platform location lists (data/dictionaries.ts);
 *     the paged dictionaries (locations, brands, audience-*) default to 50 entries, the short ones
 *     return everything; `exact` defaults to true (brand handle match).
 *   - Credits are kept in integer thousandths (ledger.ts) and rendered as numbers.
 *
 * Adding a feature: write `routes/<feature>.ts` exporting `register(router)`, list it in
 * routes/index.ts, keep its state in a typed field of SandboxState or in `slot(state, name, init)`,
 * and bill with `charge(state, route, milli)` only when data is returned.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dispatch } from './dispatch.js';
import { Router } from './router.js';
import { registerRoutes } from './routes/index.js';
import { createState, generateApiKey, type SandboxState } from './state.js';
import { configureBatch } from './batch/jobs.js';
import { startFileHost } from './batch/files.js';
import { setFaults } from './faults/engine.js';
import { parseFaultSpec, type FaultRule } from './faults/rules.js';
import { allowRedirects } from './oauth/store.js';
import { parseLatencySpec, setLatency, type LatencyModel } from './latency.js';

export interface SandboxOptions {
  /** Default 0: a free port picked by the OS. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Seed of the synthetic data. Default 42. */
  seed?: number;
  /** Requests per minute per account. Default 300. */
  rateLimit?: number;
  /** Starting balance in credits. Default 1000. */
  credits?: number;
  /** The key to accept. Default: `sbx_live_` + 32 random hex characters, new per start. */
  apiKey?: string;
  /** Trial account: 30 successful requests. Default false. */
  trial?: boolean;
  /** Discovery credits per day. Default 500. */
  dailyDiscoveryLimit?: number;
  /** Unique creators per billing period. Default 100000. */
  fairUseCap?: number;
  /** First Discovery page number on the wire (`paging.page`): 0 (default, as the official clients send) or 1. */
  pageBase?: 0 | 1;
  /** Clock in epoch milliseconds. Default Date.now. */
  now?: () => number;
  /** Receives one line per request and any internal error. Default: silent. */
  log?: (line: string) => void;
  /** Extra routes on top of the built-in modules (tests, experiments). */
  routes?: (router: Router) => void;
  /** Batch rows processed per second of sandbox time. Default 20. */
  batchRowsPerSecond?: number;
  /** Lifetime of batch download URLs, in seconds. Default 300. */
  batchDownloadTtlSeconds?: number;
  /**
   * Non-loopback OAuth redirect URIs clients may register (exact strings); loopback ones are always
   * accepted. Auto-approval still sends codes to loopback URIs only.
   */
  allowRedirects?: string[];
  /** Fault injection from the start: a spec string or rules (faults/rules.ts); change later via `/_sandbox/faults`. */
  faults?: string | FaultRule[];
  /**
   * How long replies take, per route family (latency.ts): a spec (`discovery=1.2s±0.5,enrich=2s±1,default=150ms`,
   * or `real`) or a model. Default none: every reply leaves as soon as it is ready.
   */
  latency?: string | LatencyModel;
}

export interface Sandbox {
  /** Origin without a trailing slash, e.g. `http://127.0.0.1:53121`. */
  url: string;
  apiKey: string;
  state: SandboxState;
  close(): Promise<void>;
}

/** Builds the router with every route module registered. */
export function buildRouter(extra?: (router: Router) => void): Router {
  const router = new Router();
  registerRoutes(router);
  extra?.(router);
  return router;
}

/** Starts a sandbox and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? generateApiKey();
  const state = createState({
    seed: options.seed ?? 42,
    now: options.now ?? Date.now,
    log: options.log ?? (() => {}),
    apiKey,
    credits: options.credits ?? 1000,
    rateLimit: options.rateLimit ?? 300,
    trial: options.trial ?? false,
    dailyDiscoveryLimit: options.dailyDiscoveryLimit ?? 500,
    fairUseCap: options.fairUseCap ?? 100_000,
    pageBase: options.pageBase ?? 0,
  });
  if (options.faults !== undefined) setFaults(state, parseFaultSpec(options.faults));
  if (options.allowRedirects) allowRedirects(state, options.allowRedirects);
  if (options.latency !== undefined)
    setLatency(state, typeof options.latency === 'string' ? parseLatencySpec(options.latency) : options.latency);
  configureBatch(state, {
    rowsPerSecond: options.batchRowsPerSecond,
    downloadTtlSeconds: options.batchDownloadTtlSeconds,
  });
  const router = buildRouter(options.routes);
  let url = '';
  const closed = new AbortController();
  const server: Server = createServer((req, res) => {
    void dispatch({ state, router, baseUrl: () => url, boundHost: host, signal: closed.signal }, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Batch download URLs point at a second listener: another origin, like cloud storage.
  const fileHost = await startFileHost(state, host);

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey,
    state,
    close() {
      closed.abort();
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive sockets would otherwise hold close() open for seconds.
        server.closeAllConnections();
      }).finally(() => fileHost.close());
      return closing;
    },
  };
}
