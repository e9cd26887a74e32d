/**
 * The parts of undici this CLI uses, not undici's index, which loads everything it has (fetch, WebSocket,
 * EventSource, caches, mocks, HTTP/2, SOCKS...): ~60-95 ms here against ~25-38 ms for the agents and
 * `request`, paid by every command that makes a request. What every request needs comes in one import
 * (undici-core.ts); the proxy agent only when a proxy is configured. Behaves like undici's own
 * `request(url, options)`, except that a dispatcher is always given (there is no global one).
 */
import type { Dispatcher } from 'undici';

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method?: Dispatcher.HttpMethod;
  dispatcher: Dispatcher;
};

let core: Promise<typeof import('./undici-core.js')> | undefined;

/** undici's request API and Agent (undici-core.ts), loaded once, on the first request. */
function loadCore(): Promise<typeof import('./undici-core.js')> {
  core ??= import('./undici-core.js');
  return core;
}

/** undici's `request(url, options)`: the URL split into origin and path, the method GET unless a body says PUT. */
export async function request(url: URL | string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { request: apiRequest, parseURL } = await loadCore();
  const parsed = parseURL(url);
  const { dispatcher, ...rest } = options;
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: options.method ?? (options.body ? 'PUT' : 'GET'),
  });
}

/** undici's `Agent` (keep-alive connection pools per origin). */
export async function loadAgent(): Promise<typeof import('undici').Agent> {
  return (await loadCore()).Agent;
}

/** undici's `EnvHttpProxyAgent` (HTTP(S)_PROXY and NO_PROXY). */
export async function loadEnvHttpProxyAgent(): Promise<typeof import('undici').EnvHttpProxyAgent> {
  await loadCore();
  return (await import('undici/lib/dispatcher/env-http-proxy-agent.js')).default;
}
