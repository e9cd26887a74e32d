/**
 * A tiny method + path router. Patterns are literal paths with `:name` segments, e.g.
 * `/public/v1/discovery/classifier/locations/:platform/`. Like the real API (Django URL conf), a
 * path resolves to the most specific pattern first and only then is the method checked, so a
 * known path with the wrong verb is a 405, not a 404. Trailing slashes are significant.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './respond.js';
import type { ApiKeyRecord, SandboxState } from './state.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Everything a handler may need about one request. */
export interface RouteContext {
  state: SandboxState;
  method: string;
  /** The path without the query string, e.g. `/public/v1/accounts/credits/`. */
  path: string;
  url: URL;
  /** Decoded `:name` segments. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON or form body; undefined when the request had none, was multipart, or the route reads it raw. */
  body: unknown;
  /** The body bytes as received (multipart uploads parse this themselves). */
  rawBody: Buffer;
  /** Lower-cased media type of the request body without parameters, '' when absent. */
  contentType: string;
  /** The credential that authenticated the request, on authenticated routes. */
  credential: ApiKeyRecord | undefined;
  /** Origin of the sandbox, e.g. `http://127.0.0.1:4010`, for building absolute URLs. */
  baseUrl: string;
  /** Aborted when the sandbox closes: long handlers stop at their next step instead of holding the process. */
  signal: AbortSignal;
}

export type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;

export interface RouteOptions {
  /** Require `Authorization: Bearer`. Default: true under `/public/v1/`, false elsewhere. */
  auth?: boolean;
  /**
   * 'parsed' (default): JSON or url-encoded bodies arrive parsed in `ctx.body`, a bad body is a
   * 400/415 before the handler runs. 'raw': the handler reads `ctx.rawBody` itself (uploads).
   */
  body?: 'parsed' | 'raw';
}

export interface Route {
  method: Method;
  pattern: string;
  handler: Handler;
  auth: boolean;
  body: 'parsed' | 'raw';
}

export type Resolution =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: Method[]; auth: boolean }
  | { kind: 'not_found' };

interface PatternEntry {
  pattern: string;
  segments: string[];
  routes: Map<Method, Route>;
}

export class Router {
  private readonly patterns: PatternEntry[] = [];

  add(method: Method, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    if (!pattern.startsWith('/')) throw new Error(`route pattern must start with '/': ${pattern}`);
    if (pattern.startsWith('/public/v1/') && !pattern.endsWith('/')) {
      throw new Error(`API routes end with '/' like the real service: ${pattern}`);
    }
    let entry = this.patterns.find((p) => p.pattern === pattern);
    if (!entry) {
      entry = { pattern, segments: pattern.split('/'), routes: new Map() };
      this.patterns.push(entry);
    }
    if (entry.routes.has(method)) throw new Error(`route registered twice: ${method} ${pattern}`);
    const auth = options.auth ?? pattern.startsWith('/public/v1/');
    entry.routes.set(method, { method, pattern, handler, auth, body: options.body ?? 'parsed' });
    return this;
  }

  get(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('GET', pattern, handler, options);
  }
  post(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('POST', pattern, handler, options);
  }
  put(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('PUT', pattern, handler, options);
  }
  patch(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('PATCH', pattern, handler, options);
  }
  delete(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('DELETE', pattern, handler, options);
  }

  /** Every registered route, for listings and tests. */
  routes(): Route[] {
    return this.patterns.flatMap((p) => [...p.routes.values()]);
  }

  resolve(method: string, path: string): Resolution {
    const parts = path.split('/');
    let best: { entry: PatternEntry; params: Record<string, string> } | undefined;
    for (const entry of this.patterns) {
      const params = matchSegments(entry.segments, parts);
      if (params && (!best || moreSpecific(entry.segments, best.entry.segments))) best = { entry, params };
    }
    if (!best) return { kind: 'not_found' };
    // HEAD is served by the GET route, as Django does; Node drops the body itself.
    const verb = (method === 'HEAD' ? 'GET' : method) as Method;
    const route = best.entry.routes.get(verb);
    if (route) return { kind: 'found', route, params: best.params };
    const routes = [...best.entry.routes.values()];
    return {
      kind: 'method_not_allowed',
      allowed: routes.map((r) => r.method),
      auth: routes.some((r) => r.auth),
    };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const seg = pattern[i] as string;
    const part = parts[i] as string;
    if (seg.startsWith(':')) {
      if (part === '') return undefined;
      try {
        params[seg.slice(1)] = decodeURIComponent(part);
      } catch {
        return undefined; // malformed %-escape: no route can match it
      }
    } else if (seg !== part) {
      return undefined;
    }
  }
  return params;
}

/** True when `a` beats `b`: at the first position where they differ in kind, `a` is literal. */
function moreSpecific(a: string[], b: string[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const aParam = (a[i] as string).startsWith(':');
    const bParam = (b[i] ?? '').startsWith(':');
    if (aParam !== bParam) return !aParam;
  }
  return false;
}
