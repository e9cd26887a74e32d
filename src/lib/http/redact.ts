/**
 * Redaction. The `--debug` traffic log: the Authorization header, tokens, keys, codes and verifiers
 * are replaced, and email local parts are masked. Every other message: `Secrets` replaces the
 * credentials this run holds, and credential shapes (`Bearer ...`), wherever a server echoes them.
 */

/** Field names whose value is a credential, in a body we send or in the debug log. */
const CREDENTIAL_FIELDS = ['api_key', 'apikey', 'token', 'access_token', 'refresh_token', 'id_token', 'code', 'code_verifier', 'client_secret', 'password', 'subject_token'];

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

/** Values that are URLs whose query string is a credential (presigned download links). */
const SECRET_URL_KEYS = new Set(['download_url', 'url_signed', 'presigned_url']);

const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

/** `jane.doe@example.com` -> `j***@example.com`. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, (_m, first: string, domain: string) => `${first}***@${domain}`);
}

/** A URL with secret query parameters replaced and emails masked. */
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

/**
 * A copy of a JSON value with secret keys replaced and (unless `emails` is false) emails masked.
 * The debug log masks emails; a dry run shows the body as it would be sent, secrets aside.
 */
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

/** Redacts a form-encoded or JSON body given as text, and removes any literal secrets we know of. */
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

/** Keys whose value in a request body we send is a credential (a code, verifier, refresh token...). */
const SENT_SECRET_KEYS = new Set(CREDENTIAL_FIELDS);

/** Keys whose value in a response is a credential handed to us (tokens from a login or refresh). */
const RECEIVED_SECRET_KEYS = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret']);

/**
 * `Bearer <token>` anywhere (a server quoting our Authorization header). A token has a digit and at
 * least 8 characters, so prose such as "a bearer token is required" is left alone.
 */
const BEARER = /\b(Bearer)(\s+)(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi;

/** `access_token=...`, `"refresh_token": "..."`, `code_verifier: ...` in free text (values with a digit, as above). */
const KEYED =
  /\b(api[_-]?key|access_token|refresh_token|id_token|client_secret|code_verifier|subject_token|password)("?\s*[=:]\s*"?)(?=[^\s"'&,;}]*\d)([^\s"'&,;}]{8,})/gi;

/**
 * The credentials this run holds (the API key or access token in use, tokens received, codes,
 * verifiers and client secrets sent), so that no message the CLI prints (errors in text and JSON,
 * notices, warnings, debug lines) ever shows one, whatever a server echoes back. Data output is not
 * touched: `auth token` and `keys create` print a credential on purpose.
 */
export class Secrets {
  private readonly values = new Set<string>();

  /** Remembers a credential (ignored when empty or too short to be one). */
  add(value: string | undefined | null): void {
    if (typeof value !== 'string') return;
    const text = value.trim();
    if (text.length >= MIN_SECRET) this.values.add(text);
  }

  /** Remembers the credentials in a request body we send (form-encoded or JSON text, or an object). */
  addFromRequest(body: unknown): void {
    this.addKeyed(body, SENT_SECRET_KEYS);
  }

  /** Remembers the tokens in a response (a login, a refresh). */
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

  /** The text with every known credential, `Bearer <token>` and `access_token=<value>` replaced by `REDACTED`. */
  redact(text: string): string {
    let out = text;
    // Longest first: a token that contains another is replaced whole.
    for (const secret of [...this.values].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join('REDACTED');
    }
    return redactCredentialPatterns(out);
  }
}

/** Replaces `Bearer <token>` and `<credential key>=<value>` shapes, for credentials nobody told us about. */
export function redactCredentialPatterns(text: string): string {
  return text
    .replace(BEARER, (_m, scheme: string, space: string) => `${scheme}${space}REDACTED`)
    .replace(KEYED, (_m, key: string, sep: string) => `${key}${sep}REDACTED`);
}
