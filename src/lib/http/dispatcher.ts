import { BlockList, isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { loadAgent, loadDispatcherBase, loadProxyAgent } from './undici.js';

/**
 * Proxies as curl reads them: the lower-case variable before the upper-case one, NO_PROXY with host names,
 * domains, IP addresses and CIDR ranges (`10.0.0.0/8`), and an http:// target sent to an http:// proxy as an
 * absolute-form request, not through CONNECT (many proxies tunnel only to port 443). One rule (`routeOf`)
 * both routes a request and names the proxy in its errors. Reads the injected environment so tests control it.
 */
export async function createDispatcher(env: Record<string, string | undefined>): Promise<Dispatcher> {
  const keepAlive = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 };
  const Agent = await loadAgent();
  const direct = new Agent(keepAlive);
  const { http, https } = proxies(env);
  if (!http && !https) return direct;
  const [ProxyAgent, DispatcherBase] = await Promise.all([loadProxyAgent(), loadDispatcherBase()]);
  const via = new Map<string, Dispatcher>();
  const agentFor = (proxy: string): Dispatcher => {
    let agent = via.get(proxy);
    if (!agent) via.set(proxy, (agent = new ProxyAgent({ ...keepAlive, uri: proxy, proxyTunnel: false })));
    return agent;
  };
  const all = (): Dispatcher[] => [direct, ...via.values()];

  class ProxyRoutes extends DispatcherBase {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const proxy = routeOf(env, new URL(String(options.origin)))?.proxy;
      return quietSocks(() => (proxy === undefined ? direct : agentFor(proxy)).dispatch(options, handler));
    }

    override close(callback?: () => void): Promise<void> {
      const done = Promise.all(all().map((d) => d.close())).then(() => undefined);
      if (callback) void done.then(callback, callback);
      return done;
    }

    override destroy(err?: Error | null | (() => void), callback?: () => void): Promise<void> {
      const cb = typeof err === 'function' ? err : callback;
      const cause = typeof err === 'function' ? null : (err ?? null);
      const done = Promise.all(all().map((d) => d.destroy(cause))).then(() => undefined);
      if (cb) void done.then(cb, cb);
      return done;
    }
  }
  return new ProxyRoutes() as unknown as Dispatcher;
}

/** The two proxies, lower case first as curl reads them; an https target falls back to the http one. */
function proxies(env: Record<string, string | undefined>): { http?: Named | undefined; https?: Named | undefined } {
  return { http: named(env, 'http_proxy'), https: named(env, 'https_proxy') };
}

interface Named {
  value: string;
  variable: string;
}

function named(env: Record<string, string | undefined>, lower: string): Named | undefined {
  for (const variable of [lower, lower.toUpperCase()]) {
    const value = withScheme(env[variable]);
    if (value !== undefined) return { value, variable };
  }
  return undefined;
}

/** `host:port` as curl takes it: a proxy given without a scheme is an http:// one. */
function withScheme(proxy: string | undefined): string | undefined {
  const value = proxy?.trim();
  if (!value) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

export function proxyConfigured(env: Record<string, string | undefined>): boolean {
  const { http, https } = proxies(env);
  return Boolean(http || https);
}

export interface ProxyInUse {
  host: string;
  variable: string;
  /** Never the credentials themselves. */
  credentials: boolean;
}

/** The proxy a request to `url` goes through (its URL and the variable it came from), or undefined when direct. */
function routeOf(env: Record<string, string | undefined>, url: URL): { proxy: string; variable: string } | undefined {
  const { http, https } = proxies(env);
  const chosen = url.protocol === 'https:' ? (https ?? http) : http;
  if (chosen === undefined || exempt(env.no_proxy ?? env.NO_PROXY ?? '', url)) return undefined;
  return { proxy: chosen.value, variable: chosen.variable };
}

/** The proxy a request to `url` goes through, for messages: where it is and which variable named it. */
export function proxyFor(env: Record<string, string | undefined>, url: URL): ProxyInUse | undefined {
  const route = routeOf(env, url);
  if (route === undefined) return undefined;
  try {
    const parsed = new URL(route.proxy);
    return {
      host: parsed.host,
      variable: route.variable,
      credentials: parsed.username !== '' || parsed.password !== '',
    };
  } catch {
    return undefined;
  }
}

/**
 * NO_PROXY as curl reads it: `*` for every host; a name matches itself and its subdomains (a leading `.` or `*.`
 * ignored); an IP address matches itself and a CIDR range (`10.0.0.0/8`, `fd00::/8`) every address in it; an
 * entry may name a port (`host:8080`, as undici reads it).
 */
export function exempt(noProxy: string, url: URL): boolean {
  const entries = noProxy.split(/[,\s]/).filter(Boolean);
  if (entries.length === 0) return false;
  if (noProxy.trim() === '*') return true;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = Number.parseInt(url.port, 10) || (url.protocol === 'https:' ? 443 : 80);
  const family = isIP(hostname);
  return entries.some((entry) => {
    const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
    if (cidr) {
      const [, base, bits] = cidr as unknown as [string, string, string];
      const type = isIP(base);
      if (type === 0 || type !== family) return false;
      const list = new BlockList();
      try {
        list.addSubnet(base, Number(bits), type === 6 ? 'ipv6' : 'ipv4');
      } catch {
        return false;
      }
      return list.check(hostname, family === 6 ? 'ipv6' : 'ipv4');
    }
    const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(entry);
    const parsed = bracketed
      ? [entry, bracketed[1], bracketed[2]]
      : isIP(entry) === 6
        ? [entry, entry, undefined]
        : /^(.+?)(?::(\d+))?$/.exec(entry);
    if (!parsed) return false;
    const name = (parsed[1] as string).replace(/^\*?\./, '').toLowerCase();
    if (parsed[2] !== undefined && Number(parsed[2]) !== port) return false;
    if (family !== 0) return isIP(name) !== 0 && sameAddress(name, hostname);
    return hostname === name || hostname.endsWith(`.${name}`);
  });
}

function sameAddress(a: string, b: string): boolean {
  const list = new BlockList();
  list.addAddress(a, isIP(a) === 6 ? 'ipv6' : 'ipv4');
  return list.check(b, isIP(b) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * undici announces its SOCKS5 agent as experimental on the first request through one; a user who set a socks5://
 * proxy asked for it, and the notice would be the only stray line on stderr.
 */
function quietSocks<T>(run: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('SOCKS5 proxy support is experimental')) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return run();
  } finally {
    process.emitWarning = emit;
  }
}
