import { AuthError, CliError, InterruptedError, NetworkError } from '../errors.js';
import type { ProxyInUse } from './dispatcher.js';
interface FailedRequest {
  method: string;
}

export const NOT_REPLAYED_HINT =
  'The request may have been processed (and charged); it was not retried automatically. Check `creators credits` before trying again.';

/** Errors raised before a byte left: the server never saw the request, so replaying it is safe. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export interface FailureContext {
  req: FailedRequest;
  url: URL;
  idempotent: boolean;
  timedOut: boolean;
  timeoutMs: number;
  interrupted: boolean;
  proxy?: ProxyInUse | undefined;
}

/** A proxy's refusal of its credentials (407, or 401 from the proxy): never a reason to refresh the API login. */
export const PROXY_AUTH_FAILED = 'proxy_auth_failed';

/** Exit 4, not retried (the same credentials get the same answer); names the proxy, never the credentials. */
export function proxyAuthFailure(proxy: ProxyInUse, status: number): AuthError {
  const where = `The proxy ${proxy.host} (from ${proxy.variable})`;
  const options = { code: PROXY_AUTH_FAILED, status };
  return proxy.credentials
    ? new AuthError(`${where} refused the credentials given for it (HTTP ${status}).`, {
        ...options,
        hint: `Check the user name and password in ${proxy.variable} (http://user:password@host:port).`,
      })
    : new AuthError(`${where} asks for credentials (HTTP ${status}).`, {
        ...options,
        hint: `Put them in ${proxy.variable}: http://user:password@${proxy.host}.`,
      });
}

/** undici's words for a proxy's non-200 to CONNECT, or a 407 to an absolute-form request. */
function proxyRefusalStatus(err: unknown): number | undefined {
  const text = innermostMessage(err);
  const match =
    /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(text) ??
    /^Proxy Authentication Required \((407)\)$/.exec(text);
  return match ? Number(match[1]) : undefined;
}

const CONNECT_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'no route to it',
  ENETUNREACH: 'no route to it',
  UND_ERR_CONNECT_TIMEOUT: 'timed out',
};

/** Whether it is retryable decides money: only a request that never left, or a safe (GET) one, may be sent again. */
export function networkFailure(
  err: unknown,
  f: FailureContext,
): { error: CliError; retryable: boolean; code: string | undefined } {
  const code = errorCodeOf(err);
  if (f.interrupted) return { error: new InterruptedError(), retryable: false, code };
  const notSent = code !== undefined && NOT_SENT_CODES.has(code);
  const target = `${f.url.protocol}//${f.url.host}`;
  const refused = f.proxy ? proxyRefusalStatus(err) : undefined;
  if (f.proxy && refused !== undefined) {
    // The proxy answered in the API's place: nothing reached the API, so nothing was charged.
    if (refused === 407 || refused === 401)
      return { error: proxyAuthFailure(f.proxy, refused), retryable: false, code };
    const message = `The proxy ${f.proxy.host} (from ${f.proxy.variable}) refused to connect to ${f.url.host} (HTTP ${refused}).`;
    const hint = `Ask the proxy's administrator to allow ${f.url.host}, or put it in NO_PROXY if it can be reached directly.`;
    // A proxy's own 5xx may pass; a 4xx is its rule and will not change.
    return {
      error: new NetworkError(message, { code: 'proxy_refused', status: refused, hint, cause: err }),
      retryable: refused >= 500,
      code,
    };
  }
  if (f.proxy && code !== undefined && Object.hasOwn(CONNECT_FAILURES, code)) {
    // Naming the base URL here would send the user to the wrong setting.
    const message = `Cannot connect to the proxy ${f.proxy.host} (from ${f.proxy.variable}): ${CONNECT_FAILURES[code]}.`;
    const hint = `Is ${f.proxy.variable} right? A host the proxy must not be used for goes in NO_PROXY.`;
    return { error: new NetworkError(message, { code: 'proxy_unreachable', hint, cause: err }), retryable: true, code };
  }
  let message: string;
  if (f.timedOut)
    message = `Request timed out after ${Number((f.timeoutMs / 1000).toFixed(1))} s (${f.req.method} ${f.url.pathname}).`;
  else if (code === 'ECONNREFUSED') message = `Cannot connect to ${target}: connection refused.`;
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') message = `Cannot resolve host '${f.url.hostname}'.`;
  else message = `${networkProblem(err, f.url.host)}.`;
  const retryable = notSent || f.idempotent;
  const hint = !retryable
    ? NOT_REPLAYED_HINT
    : code === 'ECONNREFUSED'
      ? 'Is the base URL right? (--base-url or CREATORS_BASE_URL)'
      : undefined;
  const options = {
    code: closedByServer(err) ? 'connection_closed' : plainCode(code),
    hint,
    cause: err,
    ...(retryable ? {} : { maybeCharged: true }),
  };
  return { error: new NetworkError(message, options), retryable, code };
}

/** In plain words, without a full stop: undici's codes mean nothing to a user (the raw error stays for `--debug`). */
export function networkProblem(err: unknown, host: string): string {
  const code = errorCodeOf(err);
  const text = innermostMessage(err);
  const closed =
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_CLOSED' ||
    code === 'EPIPE' ||
    /other side closed|terminated/i.test(text) ||
    closedByServer(err);
  if (code === 'ECONNRESET' && !closed) return `The connection to ${host} was reset before the response was complete`;
  if (closed) {
    return `The connection to ${host} closed before the response was complete`;
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return `Timed out connecting to ${host}`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return `${host} stopped answering (timed out)`;
  if (code === 'ECONNREFUSED') return `Cannot connect to ${host}: connection refused`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Cannot resolve host '${host.replace(/:\d+$/, '')}'`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `Cannot reach ${host}: no route to it (is the network up?)`;
  // Anything else from undici is as cryptic; Node's own messages (TLS: "certificate has expired") read well.
  const readable = code?.startsWith('UND_ERR') || /UND_ERR/.test(text) ? '' : text.replace(/\.$/, '');
  return readable ? `Network error talking to ${host}: ${readable}` : `Network error talking to ${host}`;
}

/** In words for the middle of a sentence; an error that is not a dropped connection by its own message. */
export function transferProblem(err: unknown, host: string): string {
  const text = innermostMessage(err);
  const dropped =
    errorCodeOf(err) !== undefined || /^(aborted|terminated|other side closed|socket hang up)$/i.test(text);
  if (!dropped) return text || String(err);
  const words =
    /^(aborted|terminated)$/i.test(text) && errorCodeOf(err) === undefined
      ? `The connection to ${host} closed before the response was complete`
      : networkProblem(err, host);
  return words.charAt(0).toLowerCase() + words.slice(1);
}

export function rawNetworkError(err: unknown): string {
  const code = errorCodeOf(err);
  const text = innermostMessage(err);
  return code && text && !text.includes(code) ? `${code} (${text})` : (code ?? text);
}

// node:http reports a FIN from the server as ECONNRESET without a system call ("socket hang up", "aborted"):
// undici's "other side closed". A reset read from the socket names its call.
function closedByServer(err: unknown): boolean {
  if (errorCodeOf(err) !== 'ECONNRESET' || !/^(socket hang up|aborted)$/.test(innermostMessage(err))) return false;
  for (
    let e = err as { syscall?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.syscall !== undefined) return false;
  }
  return true;
}

function plainCode(code: string | undefined): string {
  if (code === undefined) return 'network_error';
  if (code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED' || code === 'EPIPE') return 'connection_closed';
  if (code === 'ECONNRESET') return 'connection_reset';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect_timeout';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  if (code.startsWith('UND_ERR')) return 'network_error';
  return code.toLowerCase();
}

function innermostMessage(err: unknown): string {
  let found = '';
  let e = err as { message?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.message === 'string' && e.message) found = e.message;
    e = (Array.isArray(e.errors) && e.errors.length > 0 ? e.errors[0] : e.cause) as typeof e;
  }
  return found;
}

function errorCodeOf(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_ABORTED') return e.code;
    if (Array.isArray(e.errors) && e.errors.length > 0) e = e.errors[0] as typeof e;
    else e = e.cause as typeof e;
  }
  return undefined;
}
