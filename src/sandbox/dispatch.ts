/**
 * One request through the sandbox, in the order Django REST framework runs its checks:
 * route (404) -> authentication (401) -> trial permission (403) -> throttle (429) -> method (405)
 * -> body parsing (400) -> handler. Successful authenticated replies count toward the trial.
 * Before all of that, a Host header that is not this loopback listener is a 421 (loopback.ts), and
 * a change to the control surface (`/_sandbox/`, any method but GET/HEAD) must be
 * `Content-Type: application/json` (415 otherwise): a web page can send a cross-site `text/plain`
 * POST without asking first, but not a JSON one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mediaType, parseBody, readBody, tooLarge } from './body.js';
import { applyFaults } from './faults/inject.js';
import { drawLatency } from './latency.js';
import { authenticate, checkTrial, recordTrialUse, throttle } from './guards.js';
import { hostAllowed, hostRefusal } from './loopback.js';
import { ApiError, detail, methodNotAllowed, notFound, send, type Reply } from './respond.js';
import type { Router } from './router.js';
import { isoNow, type ApiKeyRecord, type SandboxState } from './state.js';

export interface DispatchContext {
  state: SandboxState;
  router: Router;
  baseUrl: () => string;
  /** The address the listener is bound to (the Host check also accepts it when it is a specific one). */
  boundHost: string;
  /** Aborted when the sandbox closes. */
  signal: AbortSignal;
}

/** The listening port, from the origin (`http://127.0.0.1:80` has no port in its URL). */
function listeningPort(baseUrl: string): number {
  return Number(new URL(baseUrl).port || 80);
}

export async function dispatch(ctx: DispatchContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = Date.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const port = listeningPort(ctx.baseUrl());
  if (!hostAllowed(req.headers.host, port, ctx.boundHost)) {
    send(res, detail(421, hostRefusal(req.headers.host, port)));
    ctx.state.log(`${method} ${req.url ?? ''} 421 (Host ${req.headers.host ?? 'missing'}) ${Date.now() - started}ms`);
    return;
  }
  // Injected faults (faults/): a before-fault answers or drops the request here, unprocessed.
  if (await applyFaults(ctx.state, 'api', req, res)) {
    ctx.state.log(`${method} ${req.url ?? ''} fault ${Date.now() - started}ms`);
    return;
  }
  let reply: Reply;
  try {
    reply = await handle(ctx, req, method);
  } catch (err) {
    if (err instanceof ApiError) {
      reply = err.reply;
    } else {
      const why = err instanceof Error ? (err.stack ?? err.message) : String(err);
      ctx.state.log(`sandbox: unhandled error on ${method} ${req.url ?? ''}: ${why}`);
      reply = detail(500, 'A server error occurred.');
    }
  }
  // The latency model (latency.ts): the work is done and charged, the reply is held on a timer (other
  // requests go on meanwhile). A throttled request is refused at once, as the service does.
  const holdMs = reply.status === 429 ? 0 : drawLatency(ctx.state, pathOf(req.url));
  if (holdMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, holdMs));
  try {
    send(res, reply);
  } catch (err) {
    // The client went away mid-reply; nothing left to tell it.
    ctx.state.log(`sandbox: could not send reply: ${err instanceof Error ? err.message : String(err)}`);
  }
  ctx.state.log(`${method} ${req.url ?? ''} ${reply.status} ${Date.now() - started}ms`);
}

function pathOf(target: string | undefined): string {
  const raw = target ?? '/';
  const q = raw.indexOf('?');
  return q < 0 ? raw : raw.slice(0, q);
}

async function handle(ctx: DispatchContext, req: IncomingMessage, method: string): Promise<Reply> {
  const { state, router } = ctx;
  const baseUrl = ctx.baseUrl();
  const raw = await readBody(req);
  if (raw === undefined) return tooLarge();
  // Concatenated, not resolved: a target like `//host/x` must stay a path on this server.
  const url = URL.canParse(baseUrl + (req.url ?? '/')) ? new URL(baseUrl + (req.url ?? '/')) : undefined;
  if (!url) return notFound();

  const resolution = router.resolve(method, url.pathname);
  if (resolution.kind === 'not_found') return notFound();
  const needsAuth = resolution.kind === 'found' ? resolution.route.auth : resolution.auth;

  let credential: ApiKeyRecord | undefined;
  if (needsAuth) {
    const auth = authenticate(state, req.headers.authorization);
    if (!auth.ok) return auth.reply;
    credential = auth.credential;
    const refused = checkTrial(state) ?? throttle(state, credential.account);
    if (refused) return refused;
    credential.last_used_at = isoNow(state);
  }
  if (resolution.kind === 'method_not_allowed') return methodNotAllowed(method, resolution.allowed);

  const contentType = mediaType(req.headers['content-type']);
  if (isControlChange(resolution.route.pattern, method) && contentType !== 'application/json') {
    return detail(
      415,
      `Unsupported media type "${contentType}" in request: the sandbox control routes take Content-Type: application/json.`,
    );
  }
  const parsed = resolution.route.body === 'raw' ? { ok: true as const, body: undefined } : parseBody(raw, contentType);
  if (!parsed.ok) return parsed.reply;

  let reply: Reply;
  try {
    reply = await resolution.route.handler({
      state,
      method,
      path: url.pathname,
      url,
      params: resolution.params,
      query: url.searchParams,
      headers: req.headers,
      body: parsed.body,
      rawBody: raw,
      contentType,
      credential,
      baseUrl,
      signal: ctx.signal,
    });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    reply = err.reply;
  }
  if (credential) recordTrialUse(state, reply.status);
  return reply;
}

/** A request that changes the sandbox's control surface: it must be JSON (see the top of this file). */
function isControlChange(pattern: string, method: string): boolean {
  return pattern.startsWith('/_sandbox/') && method !== 'GET' && method !== 'HEAD';
}
