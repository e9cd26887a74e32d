/**
 * Not undici's index, which loads all of undici (fetch, WebSocket, HTTP/2...) for every command that makes a request
 * (README, Performance).
 */
import type { Dispatcher } from 'undici';

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method?: Dispatcher.HttpMethod;
  dispatcher: Dispatcher;
};

let core: Promise<typeof import('./undici-core.js')> | undefined;

function loadCore(): Promise<typeof import('./undici-core.js')> {
  core ??= import('./undici-core.js');
  return core;
}

/** As undici's own `request(url, options)`. */
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

export async function loadAgent(): Promise<typeof import('undici').Agent> {
  return (await loadCore()).Agent;
}

export async function loadProxyAgent(): Promise<typeof import('undici').ProxyAgent> {
  await loadCore();
  return (await import('undici/lib/dispatcher/proxy-agent.js')).default;
}

export async function loadDispatcherBase(): Promise<typeof import('undici').Dispatcher> {
  return (await loadCore()).Dispatcher;
}
