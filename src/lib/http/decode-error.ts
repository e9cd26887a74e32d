import { ApiError, AuthError, CliError, CreditsError, RateLimitError } from '../errors.js';

/**
 * The error body shapes the service is known to send (api-contract §2.2); otherwise the raw body, cut at 300
 * characters.
 */
export function errorMessageFromBody(body: unknown, rawText = ''): string | undefined {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const obj = body as Record<string, unknown>;
    const meta = obj.response_meta as Record<string, unknown> | undefined;
    for (const candidate of [obj.message, obj.detail, obj.error, meta?.error_message]) {
      const text = flattenErrorValue(candidate);
      if (text) return text;
    }
    // A plain DRF field-error dict: {"filters": {"engagement_percent": ["..."]}}
    const flattened = flattenErrorValue(obj);
    if (flattened) return flattened.length > 300 ? `${flattened.slice(0, 300)}…` : flattened;
  }
  if (Array.isArray(body)) {
    const text = flattenErrorValue(body);
    if (text) return text;
  }
  let trimmed = rawText.trim();
  // A proxy's HTML error page: its title (or its text), not its markup.
  if (/^<(!doctype|html|head|body|\?xml)/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1];
    trimmed = (
      title ?? trimmed.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ')
    )
      .replace(/\s+/g, ' ')
      .trim();
  }
  if (trimmed) return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
  return undefined;
}

export function flattenErrorValue(value: unknown, prefix = ''): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') return prefix ? `${prefix}: ${value}` : value;
  if (typeof value === 'number' || typeof value === 'boolean') {
    return prefix ? `${prefix}: ${String(value)}` : String(value);
  }
  if (Array.isArray(value)) {
    const parts = value.map((v) => flattenErrorValue(v)).filter(Boolean);
    if (parts.length === 0) return '';
    return prefix ? `${prefix}: ${parts.join('; ')}` : parts.join('; ');
  }
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => flattenErrorValue(v, prefix ? `${prefix}.${k}` : k))
      .filter(Boolean)
      .join('; ');
  }
  return '';
}

export function retryAfterSeconds(body: unknown, header: string | undefined, nowMs: number): number | undefined {
  const fromBody = body && typeof body === 'object' ? (body as Record<string, unknown>).retry_after : undefined;
  const n = Number(fromBody);
  if (fromBody !== undefined && fromBody !== null && fromBody !== '' && Number.isFinite(n) && n >= 0) return n;
  if (header) {
    const secs = Number(header);
    if (Number.isFinite(secs) && secs >= 0) return secs;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - nowMs) / 1000));
  }
  return undefined;
}

function errorCode(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const obj = body as Record<string, unknown>;
  const code =
    obj.error_code ??
    obj.code ??
    (typeof obj.error === 'string' && /^[a-z_]+$/.test(obj.error) ? obj.error : undefined);
  return typeof code === 'string' ? code : undefined;
}

export interface DecodedResponse {
  status: number;
  statusText?: string;
  body: unknown;
  rawText: string;
  retryAfter?: number | undefined;
  nowMs: number;
}

/** Never retried. */
export function isDailyLimit(body: unknown): boolean {
  return errorCode(body) === 'daily_limit_exceeded';
}

/** Never retried: it lasts until the subscription renews. */
export function isFairUseCap(body: unknown, rawText: string): boolean {
  const code = errorCode(body) ?? '';
  return /fair[_-]?use/i.test(code) || /fair[- ]use/i.test(rawText);
}

export function errorFromResponse(res: DecodedResponse): CliError {
  const { status, body, rawText } = res;
  const code = errorCode(body);
  const message = errorMessageFromBody(body, rawText) ?? `HTTP ${status}${res.statusText ? ` ${res.statusText}` : ''}`;
  const base = { status, retryAfter: res.retryAfter };
  if (status === 401) {
    return new AuthError(`Authentication failed (HTTP 401): ${message}`, {
      ...base,
      hint: 'Check the API key (--api-key or CREATORS_API_KEY) or run `creators login`.',
    });
  }
  if (status === 402 || (code !== undefined && /credit|trial/i.test(code) && code !== 'daily_limit_exceeded')) {
    return new CreditsError(`Not enough credits (HTTP ${status}): ${message}`, {
      ...base,
      code: code ?? 'insufficient_credits',
      hint: 'Check the balance with `creators credits`.',
    });
  }
  if (status === 429 && isDailyLimit(body)) {
    const when =
      res.retryAfter !== undefined
        ? new Date(Math.ceil(res.nowMs / 1000 + res.retryAfter) * 1000).toISOString()
        : undefined;
    return new CreditsError(/daily/i.test(message) ? message : `Daily Discovery credit limit reached: ${message}`, {
      ...base,
      code: 'daily_limit_exceeded',
      hint: when ? `Discovery is available again after ${when}.` : 'Discovery is available again tomorrow.',
    });
  }
  if (status === 429 && isFairUseCap(body, rawText)) {
    return new RateLimitError(/fair[- ]use/i.test(message) ? message : `Discovery fair-use cap reached: ${message}`, {
      ...base,
      code: 'fair_use_cap_reached',
      hint: /renew/i.test(message)
        ? undefined
        : 'Discovery search and similar stay unavailable until the subscription renews.',
    });
  }
  if (status === 429) {
    return new RateLimitError(`Rate limited (HTTP 429): ${message}`, {
      ...base,
      code: 'rate_limited',
      hint:
        res.retryAfter !== undefined
          ? `The server asked to wait ${res.retryAfter} s; try again after that.`
          : 'The account allows 300 requests per minute; try again shortly.',
    });
  }
  return new ApiError(`${status >= 500 ? 'Server error' : 'Request failed'} (HTTP ${status}): ${message}`, {
    ...base,
    code: code ?? `http_${status}`,
    hint: status === 400 && refusesPageNumber(body, message) ? PAGE_BASE_HINT : undefined,
  });
}

/** Sources disagree on Discovery's first page number (0 in the official clients, 1 in the FAQ). */
const PAGE_BASE_HINT =
  'The service may number its first page differently (0 or 1): set it with `creators config set page-base 1` (or 0), or CREATORS_PAGE_BASE.';

function refusesPageNumber(body: unknown, message: string): boolean {
  const paging =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).paging : undefined;
  if (paging && typeof paging === 'object' && !Array.isArray(paging) && 'page' in paging) return true;
  return /\bpaging\.page\b/i.test(message);
}
