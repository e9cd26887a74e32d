/** The debug log replaces credentials and masks emails; every other message goes through `Secrets`. */

const CREDENTIAL_FIELDS = [
  'api_key',
  'apikey',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'password',
  'subject_token',
];

const SECRET_KEYS = new Set([
  ...CREDENTIAL_FIELDS,
  'authorization',
  'api-key',
  // Presigned storage links work as bearer credentials for as long as they live.
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'signature',
  'sig',
]);

/** Presigned download links: their query string is a credential. */
const SECRET_URL_KEYS = new Set(['download_url', 'url_signed', 'presigned_url']);

const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

export function maskEmails(text: string): string {
  return text.replace(EMAIL, (_m, first: string, domain: string) => `${first}***@${domain}`);
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const key of [...u.searchParams.keys()]) {
      if (SECRET_KEYS.has(key.toLowerCase())) u.searchParams.set(key, 'REDACTED');
    }
    return maskEmails(u.href.replace(/%40/g, '@'));
  } catch {
    return maskEmails(url);
  }
}

/** The debug log masks emails; a dry run shows the body as it would be sent (`emails` false), secrets aside. */
export function redactValue(value: unknown, depth = 0, emails = true): unknown {
  if (depth > 20) return '…';
  if (typeof value === 'string') return emails ? maskEmails(value) : value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1, emails));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const key = k.toLowerCase();
      if (SECRET_KEYS.has(key) && v !== null && v !== '') out[k] = 'REDACTED';
      else if (SECRET_URL_KEYS.has(key) && typeof v === 'string') out[k] = redactUrl(v);
      else out[k] = redactValue(v, depth + 1, emails);
    }
    return out;
  }
  return value;
}

export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  try {
    out = JSON.stringify(redactValue(JSON.parse(text)));
  } catch {
    if (/^[\w.%-]+=/.test(text) && !text.includes('\n')) {
      const params = new URLSearchParams(text);
      for (const key of [...params.keys()]) if (SECRET_KEYS.has(key.toLowerCase())) params.set(key, 'REDACTED');
      out = params.toString();
    }
    out = maskEmails(out);
  }
  for (const secret of secrets) if (secret && secret.length >= 6) out = out.split(secret).join('REDACTED');
  return out;
}

/** Shortest literal value treated as a credential: shorter ones would blank ordinary words. */
const MIN_SECRET = 8;

const SENT_SECRET_KEYS = new Set(CREDENTIAL_FIELDS);

const RECEIVED_SECRET_KEYS = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret']);

/**
 * A server quoting our Authorization header. A token has a digit, so prose ("a bearer token is required") is left
 * alone.
 */
const BEARER = /\b(Bearer)(\s+)(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi;

const KEYED =
  /\b(api[_-]?key|access_token|refresh_token|id_token|client_secret|code_verifier|subject_token|password)("?\s*[=:]\s*"?)(?=[^\s"'&,;}]*\d)([^\s"'&,;}]{8,})/gi;

/** No message the CLI prints shows a credential this run holds, whatever a server echoes back. Data output is not
 * touched: `auth token` and `keys create` print a credential on purpose. */
export class Secrets {
  private readonly values = new Set<string>();

  add(value: string | undefined | null): void {
    if (typeof value !== 'string') return;
    const text = value.trim();
    if (text.length >= MIN_SECRET) this.values.add(text);
  }

  addFromRequest(body: unknown): void {
    this.addKeyed(body, SENT_SECRET_KEYS);
  }

  addFromResponse(body: unknown): void {
    this.addKeyed(body, RECEIVED_SECRET_KEYS);
  }

  private addKeyed(body: unknown, keys: ReadonlySet<string>): void {
    if (typeof body === 'string') {
      if (/^[\w.%-]+=/.test(body) && !body.includes('\n')) {
        for (const [k, v] of new URLSearchParams(body)) if (keys.has(k.toLowerCase())) this.add(v);
        return;
      }
      try {
        this.addKeyed(JSON.parse(body), keys);
      } catch {
        // Neither form nor JSON: nothing keyed to learn.
      }
      return;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (keys.has(k.toLowerCase()) && typeof v === 'string') this.add(v);
    }
  }

  redact(text: string): string {
    let out = text;
    // Longest first: a token that contains another is replaced whole.
    for (const secret of [...this.values].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join('REDACTED');
    }
    return redactCredentialPatterns(out);
  }
}

/** For credentials nobody told us about. */
export function redactCredentialPatterns(text: string): string {
  return text
    .replace(BEARER, (_m, scheme: string, space: string) => `${scheme}${space}REDACTED`)
    .replace(KEYED, (_m, key: string, sep: string) => `${key}${sep}REDACTED`);
}
