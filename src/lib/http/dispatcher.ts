import type { Dispatcher } from 'undici';
import { loadAgent, loadEnvHttpProxyAgent } from './undici.js';

/**
 * The default dispatcher: a keep-alive Agent, or undici's EnvHttpProxyAgent when a proxy is
 * configured (HTTPS_PROXY/HTTP_PROXY, lower or upper case, with NO_PROXY honoured). Reads the
 * injected environment rather than process.env so tests control it.
 */
export async function createDispatcher(env: Record<string, string | undefined>): Promise<Dispatcher> {
  const { httpsProxy, httpProxy } = proxies(env);
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  const keepAlive = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 };
  if (httpsProxy || httpProxy) {
    const EnvHttpProxyAgent = await loadEnvHttpProxyAgent();
    return new EnvHttpProxyAgent({
      ...keepAlive,
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

/** True when requests may go through a proxy (HTTPS_PROXY or HTTP_PROXY is set). */
export function proxyConfigured(env: Record<string, string | undefined>): boolean {
  const { httpsProxy, httpProxy } = proxies(env);
  return Boolean(httpsProxy || httpProxy);
}
