/**
 * Fault rules: what to break, where, and how often. A rule matches requests by listener, method
 * and path, then fires on a count (`count`, after skipping `after` matches) or with a seeded
 * probability (`p`), so a chaotic run is reproducible from its seed.
 *
 * Text form (`creators sandbox --faults`, `POST /_sandbox/faults {"spec": "..."}`): rules separated
 * by `;`, each `kind[:arg] [METHOD] [/path/glob*|~regex] [key=value...]`, e.g.
 *   `503 GET /public/v1/accounts/* count=2; drop-after POST /public/v1/discovery/ p=0.1; delay:200 p=0.3`
 * JSON form: an array of rule objects (`{"kind": "503", "method": "GET", "path": "...", "count": 2}`).
 */

/** Faults answered before the handler runs: nothing was processed, nothing charged. */
export const BEFORE_KINDS = ['drop-before', '500', '502', '503', '504', '429', 'delay'] as const;
/** Faults applied to the reply after the handler ran: the work was done (and charged). */
export const AFTER_KINDS = ['drop-after', 'truncate', 'malformed', 'trickle', 'expire'] as const;

export type FaultKind = (typeof BEFORE_KINDS)[number] | (typeof AFTER_KINDS)[number];
/** The API listener, or the batch file host (presigned download URLs). */
export type FaultTarget = 'api' | 'files';

export interface FaultRule {
  kind: FaultKind;
  /** HTTP method or `*` (default). */
  method: string;
  /** Glob on the path (`*` any characters, `?` one) or `~regex` on path + query. Default `*`. */
  path: string;
  /** Default `api`; `expire` defaults to `files`. */
  target: FaultTarget;
  /** Fire on at most this many matches (after `after`). Unset: every match (subject to `p`). */
  count?: number;
  /** Let this many matches through untouched first. */
  after?: number;
  /** Chance of firing on a match, drawn from the sandbox's seeded fault stream. */
  p?: number;
  /** 429: seconds for `retry_after` and `Retry-After`; null sends neither. Default 1. */
  retryAfter?: number | null;
  /** delay: wait before handling; trickle: gap between the 8 pieces of the body. */
  ms?: number;
  /** truncate / expire: bytes sent before the connection is cut (default half the body). */
  bytes?: number;
}

const KINDS = new Set<string>([...BEFORE_KINDS, ...AFTER_KINDS]);
const ALIASES: Record<string, FaultKind> = { reset: 'drop-before', 'drop': 'drop-before', lost: 'drop-after', slow: 'trickle', '429-bare': '429' };
const METHODS = new Set(['*', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** A spec that cannot be understood; the message names the rule and the problem. */
export class FaultSpecError extends Error {
  override name = 'FaultSpecError';
}

/** Parses the text or JSON form into validated rules. Throws FaultSpecError. */
export function parseFaultSpec(spec: string | unknown): FaultRule[] {
  if (typeof spec === 'string') {
    const text = spec.trim();
    if (text.startsWith('[') || text.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new FaultSpecError(`faults: not valid JSON (${(err as Error).message})`);
      }
      return parseFaultSpec(parsed);
    }
    return text
      .split(';')
      .map((r) => r.trim())
      .filter(Boolean)
      .map((r, i) => validate(fromText(r, i + 1), i + 1));
  }
  const list = Array.isArray(spec) ? spec : spec && typeof spec === 'object' && Array.isArray((spec as { rules?: unknown }).rules) ? (spec as { rules: unknown[] }).rules : undefined;
  if (!list) throw new FaultSpecError('faults: expected a spec string, an array of rules or {"rules": [...]}');
  return list.map((r, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) throw new FaultSpecError(`faults rule ${i + 1}: expected an object`);
    const o = r as Record<string, unknown>;
    const rule: Record<string, unknown> = { ...o, kind: kindOf(String(o.kind ?? ''), i + 1) };
    if (o.kind === '429-bare') rule.retryAfter = null;
    if ('retry_after' in o) rule.retryAfter = o.retry_after;
    delete rule.retry_after;
    return validate(rule, i + 1);
  });
}

function kindOf(word: string, n: number): FaultKind {
  const kind = ALIASES[word] ?? word;
  if (!KINDS.has(kind)) throw new FaultSpecError(`faults rule ${n}: unknown kind '${word}' (known: ${[...KINDS].join(', ')})`);
  return kind as FaultKind;
}

function fromText(text: string, n: number): Record<string, unknown> {
  const tokens = text.split(/[\s,]+/).filter(Boolean);
  const [head = '', ...rest] = tokens;
  const [word = '', arg] = head.split(':', 2);
  const kind = kindOf(word, n);
  const rule: Record<string, unknown> = { kind };
  if (word === '429-bare') rule.retryAfter = null;
  if (arg !== undefined) {
    if (kind === '429') rule.retryAfter = arg === 'none' ? null : Number(arg);
    else if (kind === 'delay' || kind === 'trickle') rule.ms = Number(arg);
    else if (kind === 'truncate' || kind === 'expire') rule.bytes = Number(arg);
    else throw new FaultSpecError(`faults rule ${n}: '${kind}' takes no ':${arg}'`);
  }
  for (const token of rest) {
    const eq = token.indexOf('=');
    if (eq > 0) {
      const key = token.slice(0, eq);
      const value = token.slice(eq + 1);
      const name = key === 'retry_after' ? 'retryAfter' : key;
      if (name === 'target') rule.target = value;
      else if (name === 'retryAfter') rule.retryAfter = value === 'none' ? null : Number(value);
      else if (['count', 'after', 'p', 'ms', 'bytes'].includes(name)) rule[name] = Number(value);
      else throw new FaultSpecError(`faults rule ${n}: unknown setting '${key}'`);
    } else if (token === '*' && rule.method !== undefined) {
      // `503 GET *`: after a method, a lone `*` is the path (any), not a second method that overrides it.
      rule.path = token;
    } else if (METHODS.has(token.toUpperCase()) && !token.startsWith('/')) {
      rule.method = token.toUpperCase();
    } else if (token.startsWith('/') || token.startsWith('~')) {
      rule.path = token;
    } else {
      throw new FaultSpecError(`faults rule ${n}: cannot read '${token}' (a method, a /path, ~regex or key=value)`);
    }
  }
  return rule;
}

function validate(o: Record<string, unknown>, n: number): FaultRule {
  const fail = (what: string): never => {
    throw new FaultSpecError(`faults rule ${n}: ${what}`);
  };
  const kind = kindOf(String(o.kind), n);
  const method = String(o.method ?? '*').toUpperCase();
  if (!METHODS.has(method)) fail(`unknown method '${String(o.method)}'`);
  const path = String(o.path ?? '*');
  if (path.startsWith('~')) {
    try {
      new RegExp(path.slice(1));
    } catch {
      fail(`invalid regular expression '${path.slice(1)}'`);
    }
  }
  const target = o.target ?? (kind === 'expire' ? 'files' : 'api');
  if (target !== 'api' && target !== 'files') fail(`target must be api or files`);
  const rule: FaultRule = { kind, method, path, target: target as FaultTarget };
  const int = (key: 'count' | 'after' | 'ms' | 'bytes'): void => {
    if (o[key] === undefined) return;
    const v = o[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`${key} must be a non-negative integer`);
    rule[key] = v as number;
  };
  int('count');
  int('after');
  int('ms');
  int('bytes');
  if (o.p !== undefined) {
    if (typeof o.p !== 'number' || !(o.p >= 0 && o.p <= 1)) fail('p must be a probability between 0 and 1');
    rule.p = o.p as number;
  }
  if (kind === '429') {
    const ra = o.retryAfter === undefined ? 1 : o.retryAfter;
    if (ra !== null && (typeof ra !== 'number' || !Number.isInteger(ra) || ra < 0)) fail('retry_after must be a non-negative integer or none');
    rule.retryAfter = ra as number | null;
  }
  if ((kind === 'delay' || kind === 'trickle') && rule.ms === undefined) rule.ms = kind === 'delay' ? 200 : 50;
  const known = new Set(['kind', 'method', 'path', 'target', 'count', 'after', 'p', 'retryAfter', 'ms', 'bytes']);
  for (const key of Object.keys(o)) if (!known.has(key)) fail(`unknown setting '${key}'`);
  return rule;
}

/** True when the rule's path pattern matches (`pathAndQuery` is the request target, e.g. `/a/?b=1`). */
export function pathMatches(pattern: string, pathAndQuery: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('~')) return new RegExp(pattern.slice(1)).test(pathAndQuery);
  const path = pathAndQuery.split('?')[0] ?? '';
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(path);
}

/** One line per rule, for logs and the sandbox banner. */
export function describeRule(rule: FaultRule): string {
  const parts: string[] = [rule.kind];
  if (rule.kind === '429') parts[0] = `429:${rule.retryAfter === null ? 'none' : String(rule.retryAfter)}`;
  if (rule.ms !== undefined) parts[0] = `${rule.kind}:${rule.ms}`;
  if (rule.bytes !== undefined) parts[0] = `${rule.kind}:${rule.bytes}`;
  parts.push(rule.method, rule.path);
  if (rule.target !== 'api') parts.push(`target=${rule.target}`);
  if (rule.count !== undefined) parts.push(`count=${rule.count}`);
  if (rule.after !== undefined) parts.push(`after=${rule.after}`);
  if (rule.p !== undefined) parts.push(`p=${rule.p}`);
  return parts.join(' ');
}
