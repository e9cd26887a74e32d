import type { Dispatcher } from 'undici';
import { loadAgent, loadEnvHttpProxyAgent } from './undici.js';

/** Reads the injected environment so tests control it. An http:// target goes to an http:// proxy as an absolute-form
 * request, as curl sends it, not through CONNECT: many proxies tunnel only to port 443. */
export async function createDispatcher(env: Record<string, string | undefined>): Promise<Dispatcher> {
  const { httpsProxy, httpProxy } = proxies(env);
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  const keepAlive = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 };
  if (httpsProxy || httpProxy) {
    const EnvHttpProxyAgent = await loadEnvHttpProxyAgent();
    return new EnvHttpProxyAgent({
      ...keepAlive,
      proxyTunnel: false,
      ...(httpProxy ? { httpProxy } : {}),
      ...(httpsProxy ? { httpsProxy } : {}),
      ...(noProxy !== undefined ? { noProxy } : {}),
    });
  }
  const Agent = await loadAgent();
  return new Agent(keepAlive);
}

function proxies(env: Record<string, string | undefined>): { httpsProxy: string | undefined; httpProxy: string | undefined } {
  return { httpsProxy: withScheme(env.HTTPS_PROXY ?? env.https_proxy), httpProxy: withScheme(env.HTTP_PROXY ?? env.http_proxy) };
}

/** `host:port` as curl takes it: a proxy given without a scheme is an http:// one. */
function withScheme(proxy: string | undefined): string | undefined {
  const value = proxy?.trim();
  if (!value) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

export function proxyConfigured(env: Record<string, string | undefined>): boolean {
  const { httpsProxy, httpProxy } = proxies(env);
  return Boolean(httpsProxy || httpProxy);
}

export interface ProxyInUse {
  host: string;
  variable: string;
  /** Never the credentials themselves. */
  credentials: boolean;
}

/** As undici's EnvHttpProxyAgent (createDispatcher) chooses it. Only for messages: the agent itself decides the route. */
export function proxyFor(env: Record<string, string | undefined>, url: URL): ProxyInUse | undefined {
  const named = (upper: string): ProxyInUse | undefined => {
    const lower = upper.toLowerCase();
    const variable = env[upper] !== undefined ? upper : env[lower] !== undefined ? lower : undefined;
    const value = variable === undefined ? undefined : withScheme(env[variable]);
    if (variable === undefined || value === undefined) return undefined;
    try {
      const parsed = new URL(value);
      return { host: parsed.host, variable, credentials: parsed.username !== '' || parsed.password !== '' };
    } catch {
      return undefined;
    }
  };
  const proxy = url.protocol === 'https:' ? (named('HTTPS_PROXY') ?? named('HTTP_PROXY')) : named('HTTP_PROXY');
  if (proxy === undefined || exempt(env.NO_PROXY ?? env.no_proxy ?? '', url)) return undefined;
  return proxy;
}

/** NO_PROXY as undici reads it. */
function exempt(noProxy: string, url: URL): boolean {
  const entries = noProxy.split(/[,\s]/).filter(Boolean);
  if (entries.length === 0) return false;
  if (noProxy.trim() === '*') return true;
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || (url.protocol === 'https:' ? 443 : 80);
  return entries.some((entry) => {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? (parsed[1] as string) : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number(parsed[2]) !== port) return false;
    return hostname === name || hostname.endsWith(`.${name}`);
  });
}
