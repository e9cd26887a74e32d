/**
 * Redaction for the `--debug` traffic log. Credentials never reach stderr: the Authorization
 * header, tokens, keys, codes and verifiers are replaced, and email local parts are masked.
 */

const SECRET_KEYS = new Set([
  'authorization',
  'api_key',
  'apikey',
  'api-key',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'password',
  'subject_token',
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
