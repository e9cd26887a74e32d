/** Shared helpers for the sandbox tests: start on port 0, call with the key, read JSON. */
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export interface Call {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Starts a sandbox for one test; remember to close it (see `useSandbox`). */
export function start(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, ...options });
}

/** A request with the sandbox key unless `auth` is given (`null` sends no Authorization). */
export async function call(
  sb: Sandbox,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; auth?: string | null } = {},
): Promise<Call> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  Object.assign(headers, init.headers);
  const auth = init.auth === undefined ? `Bearer ${sb.apiKey}` : init.auth;
  if (auth !== null) headers.Authorization = auth;
  const res = await fetch(`${sb.url}${path}`, { method: init.method ?? 'GET', headers, body: init.body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** GET that must succeed with a JSON array. */
export async function list(sb: Sandbox, path: string): Promise<Record<string, unknown>[]> {
  const res = await call(sb, path);
  if (res.status !== 200 || !Array.isArray(res.body)) {
    throw new Error(`GET ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as Record<string, unknown>[];
}
