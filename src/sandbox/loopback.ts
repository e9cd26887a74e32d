/**
 * The sandbox only talks to its own machine. Two checks keep a web page or another host from using it:
 *   - the Host header must name a loopback address with the listening port (127.0.0.1:<port>,
 *     localhost:<port>, [::1]:<port>), so a DNS-rebinding page (evil.example resolving to 127.0.0.1)
 *     is refused on every route, both listeners;
 *   - OAuth redirect URIs must be loopback (RFC 8252 §7.3) unless the operator listed them
 *     (`--allow-redirect`); matching at authorize time stays exact, as the service spec says.
 */

/** Host names that always mean this machine. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True for `127.0.0.1`, `localhost`, `[::1]` (as `URL.hostname` spells them), any case. */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

/**
 * Whether a request's Host header names this listener: a loopback name (or the address it is bound to,
 * when that is a specific one) with its port. A Host without a port is accepted only on port 80.
 */
export function hostAllowed(header: string | undefined, port: number, boundHost: string): boolean {
  if (!header) return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(header.trim());
  if (!m) return false;
  const name = (m[1] as string).toLowerCase();
  const given = m[2] === undefined ? 80 : Number(m[2]);
  if (given !== port) return false;
  if (LOOPBACK_NAMES.has(name)) return true;
  const bound = boundHost.includes(':') ? `[${boundHost.toLowerCase()}]` : boundHost.toLowerCase();
  // A wildcard bind names no host of its own: only the loopback names are this machine for sure.
  return bound !== '0.0.0.0' && bound !== '[::]' && name === bound;
}

/** The one-line refusal for a foreign Host header. */
export function hostRefusal(header: string | undefined, port: number): string {
  const shown = header === undefined ? 'no Host header' : `Host '${header.replace(/[^\w.:[\]-]/g, '?').slice(0, 100)}'`;
  return `The sandbox answers only to 127.0.0.1:${port}, localhost:${port} or [::1]:${port}; ${shown} was refused (DNS rebinding protection).`;
}

/** An `http:` URL on 127.0.0.1, localhost or [::1], any port: a native app's loopback redirect (RFC 8252 §7.3). */
export function isLoopbackRedirect(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  return url.protocol === 'http:' && isLoopbackHostname(url.hostname) && url.username === '' && url.password === '';
}
