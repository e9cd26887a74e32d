/**
 * The parts of undici this CLI uses, loaded module by module. undici's index loads everything it has
 * (fetch, WebSocket, EventSource, caches, mocks, HTTP/2, SOCKS...): ~60-95 ms here against ~25-38 ms
 * for the agents and `request`, paid by every command that makes a request. Behaves like undici's own
 * `request(url, options)`, except that a dispatcher is always given (there is no global one).
 */
import type { Dispatcher } from 'undici';

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method?: Dispatcher.HttpMethod;
  dispatcher: Dispatcher;
};

type Api = (typeof import('undici/lib/api/index.js'))['default'];
let installed: Promise<Api> | undefined;

/**
 * undici's request API (request, stream, pipeline, connect, upgrade), put on every dispatcher's
 * prototype as undici's index does: the proxy agents open their tunnels with `connect`.
 */
function api(): Promise<Api> {
  installed ??= (async () => {
    const [{ default: methods }, { default: DispatcherClass }] = await Promise.all([import('undici/lib/api/index.js'), import('undici/lib/dispatcher/dispatcher.js')]);
    Object.assign(DispatcherClass.prototype, methods);
    return methods;
  })();
  return installed;
}

/** undici's `request(url, options)`: the URL split into origin and path, the method GET unless a body says PUT. */
export async function request(url: URL | string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const [methods, { default: util }] = await Promise.all([api(), import('undici/lib/core/util.js')]);
  const parsed = util.parseURL(url);
  const { dispatcher, ...rest } = options;
  return methods.request.call(dispatcher, {
    ...rest,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: options.method ?? (options.body ? 'PUT' : 'GET'),
  });
}

/** undici's `Agent` (keep-alive connection pools per origin). */
export async function loadAgent(): Promise<typeof import('undici').Agent> {
  await api();
  return (await import('undici/lib/dispatcher/agent.js')).default;
}

/** undici's `EnvHttpProxyAgent` (HTTP(S)_PROXY and NO_PROXY). */
export async function loadEnvHttpProxyAgent(): Promise<typeof import('undici').EnvHttpProxyAgent> {
  await api();
  return (await import('undici/lib/dispatcher/env-http-proxy-agent.js')).default;
}
