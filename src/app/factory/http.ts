import { UsageError } from '../../lib/errors.js';
import type { HttpClient } from '../../lib/http/client.js';
import type { Terminal } from '../../lib/io/terminal.js';
import { parseRetries, parseTimeoutSeconds } from '../../lib/options.js';
import type { Deps } from '../deps.js';
import type { GlobalOptions } from '../global-options.js';
import type { ProfileConfig } from './config.js';
import type { Credentials } from './credentials.js';
import type { DryRunPlan } from './dry-run.js';
import type { StorePort } from './store.js';

/** What the run's HTTP client is built from: each part a member of the Context, built by its own file. */
export interface HttpParts {
  deps: Deps;
  globals: Pick<GlobalOptions, 'timeout' | 'retries'>;
  profileName: string;
  dryRun: boolean;
  term: Terminal;
  config: ProfileConfig;
  credentials: Credentials;
  store: StorePort;
  plan: DryRunPlan;
}

/**
 * The run's HTTP client (`ctx.http()`, built once): the base URL, credential, timeouts, retries and
 * pace of the run, the purchase memory in front of every purchase, and the dry run's plan in place of
 * what would be sent.
 */
export async function buildHttpClient(p: HttpParts): Promise<HttpClient> {
  const { deps, globals, config, term, store } = p;
  const baseUrl = await config.baseUrl();
  // The profile's settings are read as the flags are, and named as them.
  const timeoutSetting = globals.timeout === undefined ? await config.setting('timeout') : undefined;
  const timeoutS =
    globals.timeout ?? (timeoutSetting === undefined ? 30 : parseTimeoutSeconds(timeoutSetting, '--timeout'));
  const retriesSetting = globals.retries === undefined ? await config.setting('retries') : undefined;
  const retries = globals.retries ?? (retriesSetting === undefined ? 3 : parseRetries(retriesSetting, '--retries'));
  // Pacing can be tuned (an account with a higher limit, benchmarks) but never switched off.
  const rate = await config.number(deps.env.CREATORS_RATE_LIMIT, 'rate-limit', 300, 'rate limit (CREATORS_RATE_LIMIT)');
  if (rate <= 0) throw new UsageError(`Invalid rate limit '${rate}': expected requests per minute above 0.`);
  const maxResponseBytes = config.maxResponseBytes();
  const [{ HttpClient }, { createDispatcher, proxyConfigured, proxyFor }, { keepAliveGetTransport, nodeTransport }] =
    await Promise.all([
      import('../../lib/http/client.js'),
      import('../../lib/http/dispatcher.js'),
      import('../../lib/http/transport.js'),
    ]);
  // GETs through node:http (downloads: faster at that size; the other reads: undici is not even loaded),
  // unless a proxy or a test dispatcher must see them. undici is made by the first request that needs it.
  const plain = deps.dispatcher === undefined && !proxyConfigured(deps.env);
  // The account whose pace processes share: the API and the profile's credential.
  const paceAccount = `${baseUrl.href} ${p.profileName}`;
  return new HttpClient({
    baseUrl,
    credential: async () => (await p.credentials.current())?.value,
    dispatcher: deps.dispatcher ?? (() => createDispatcher(deps.env)),
    streamTransport: plain ? nodeTransport : undefined,
    getTransport: plain ? keepAliveGetTransport() : undefined,
    proxyFor: deps.dispatcher === undefined ? (url) => proxyFor(deps.env, url) : undefined,
    timeoutMs: timeoutS * 1000,
    retries,
    maxResponseBytes,
    rateLimitPerMinute: rate,
    now: deps.now,
    sleep: deps.sleep,
    debug: term.debug ? (line) => term.debugLine(line) : undefined,
    notice: (line) => term.notice(line),
    waits: term,
    dryRun: p.dryRun,
    dryRead: (req) => p.plan.freeRead(req),
    dryRunChecked: (req) => p.plan.inputChecked(req),
    signal: deps.signal,
    userAgent: 'creators-cli',
    named: { timeout: '--timeout' },
    onUnauthorized: (rejected) => p.credentials.afterUnauthorized(rejected),
    secrets: term.secrets,
    // The store is opened by the first purchase (or the money gate), not by free reads.
    memory: {
      request: async (req, send) => {
        const memory = req.purchase || store.opened ? await store.memory() : undefined;
        if (memory) return memory.request(req, send);
        // Charged outside the memory (a raw call, --no-store): still in the spend log.
        const res = await send();
        await store.logCharge(req, res.data);
        return res;
      },
    },
    // Once the store is open, every process sharing it shares the account's pace.
    sharedPace: {
      take: async (intervalMs, toleranceMs, now) => {
        const slot = await store.opened?.pace(paceAccount).take(intervalMs, toleranceMs, now);
        if (slot !== undefined) store.sayPaceWait(slot - now, intervalMs);
        return slot;
      },
      delay: (waitMs) => store.opened?.pace(paceAccount).delay(waitMs),
    },
  });
}
