/**
 * Fault rules: what to break, where, and how often. A rule matches requests by listener, method
 * and path, then fires on a count (`count`, after skipping `after` matches) or with a seeded
 * probability (`p`), so a chaotic run is reproducible from its seed.
 *
 * Text form (`creators sandbox --faults`, `POST /_sandbox/faults {"spec": "..."}`): rules separated
 * by `;`, each `kind[:arg] [METHOD] [/path/glob] [key=value...]`, e.g.
 *   `503 GET /public/v1/accounts/* count=2; drop-after POST /public/v1/discovery/ p=0.1; delay:200 p=0.3`
 * Paths are globs, never regular expressions (a pattern from a script must not be able to hang the
 * server): `*` is any run of characters within one path segment, `**` any depth, `?` one character;
 * the trailing slash of a path is optional (`/public/v1/accounts/*` matches `/public/v1/accounts/credits/`).
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
  /** Glob on the path (`*` within a segment, `**` any depth, `?` one character). Default `*` (any path). */
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
const ALIASES: Record<string, FaultKind> = {
  reset: 'drop-before',
  drop: 'drop-before',
  lost: 'drop-after',
  slow: 'trickle',
  '429-bare': '429',
};
const METHODS = new Set(['*', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Longest path glob accepted (matching costs pattern length x path length). */
const MAX_PATH_PATTERN = 512;

/** Longest `delay`/`trickle` step: ten minutes. */
const MAX_FAULT_MS = 600_000;
/** Largest `count`, `after` or `bytes`. */
const MAX_FAULT_COUNT = 1_000_000_000;

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
  const list = Array.isArray(spec)
    ? spec
    : spec && typeof spec === 'object' && Array.isArray((spec as { rules?: unknown }).rules)
      ? (spec as { rules: unknown[] }).rules
      : undefined;
  if (!list) throw new FaultSpecError('faults: expected a spec string, an array of rules or {"rules": [...]}');
  return list.map((r, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r))
      throw new FaultSpecError(`faults rule ${i + 1}: expected an object`);
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
  if (!KINDS.has(kind))
    throw new FaultSpecError(`faults rule ${n}: unknown kind '${word}' (known: ${[...KINDS].join(', ')})`);
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
      throw new FaultSpecError(`faults rule ${n}: cannot read '${token}' (a method, a /path glob or key=value)`);
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
  if (path.startsWith('~'))
    fail(`'${path}': regular expressions are not accepted; use a path glob (* within a segment, ** any depth)`);
  if (path !== '*' && path !== '**' && !path.startsWith('/'))
    fail(`path '${path}' must start with / (or be * for any path)`);
  if (path.length > MAX_PATH_PATTERN) fail(`path pattern longer than ${MAX_PATH_PATTERN} characters`);
  const target = o.target ?? (kind === 'expire' ? 'files' : 'api');
  if (target !== 'api' && target !== 'files') fail(`target must be api or files`);
  const rule: FaultRule = { kind, method, path, target: target as FaultTarget };
  const int = (key: 'count' | 'after' | 'ms' | 'bytes'): void => {
    if (o[key] === undefined) return;
    const v = o[key];
    const max = key === 'ms' ? MAX_FAULT_MS : MAX_FAULT_COUNT;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`${key} must be a non-negative integer`);
    if ((v as number) > max) fail(`${key} must be at most ${max}`);
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
    if (ra !== null && (typeof ra !== 'number' || !Number.isInteger(ra) || ra < 0 || ra > 86_400))
      fail('retry_after must be an integer from 0 to 86400, or none');
    rule.retryAfter = ra as number | null;
  }
  if ((kind === 'delay' || kind === 'trickle') && rule.ms === undefined) rule.ms = kind === 'delay' ? 200 : 50;
  const known = new Set(['kind', 'method', 'path', 'target', 'count', 'after', 'p', 'retryAfter', 'ms', 'bytes']);
  for (const key of Object.keys(o)) if (!known.has(key)) fail(`unknown setting '${key}'`);
  return rule;
}

/** True when the rule's path glob matches the request target's path (`pathAndQuery`, e.g. `/a/?b=1`). */
export function pathMatches(pattern: string, pathAndQuery: string): boolean {
  if (pattern === '*') return true;
  const path = pathAndQuery.split('?')[0] ?? '';
  const tokens = globTokens(pattern);
  return globMatch(tokens, path) || (path.length > 1 && path.endsWith('/') && globMatch(tokens, path.slice(0, -1)));
}

/** A slash, `**` and a slash together are one token ('dirs'): `/` alone or `/any/depth/`, so `/a/` + `**` + `/b/` also matches `/a/b/`. */
type GlobToken =
  | { kind: 'char'; c: string }
  | { kind: 'one' }
  | { kind: 'star' }
  | { kind: 'globstar' }
  | { kind: 'dirs' };

function globTokens(pattern: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*' && pattern[i + 1] === '*') {
      while (pattern[i + 1] === '*') i++;
      const prev = tokens[tokens.length - 1];
      if (prev?.kind === 'char' && prev.c === '/' && pattern[i + 1] === '/') {
        tokens[tokens.length - 1] = { kind: 'dirs' };
        i++;
      } else {
        tokens.push({ kind: 'globstar' });
      }
    } else if (c === '*') {
      tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'one' });
    } else {
      tokens.push({ kind: 'char', c });
    }
  }
  return tokens;
}

/**
 * Glob matching by dynamic programming over (token, position): time is tokens x path length
 * whatever the pattern, so no input can make it backtrack exponentially.
 */
function globMatch(tokens: GlobToken[], path: string): boolean {
  const n = path.length;
  // reach[j]: the tokens so far can consume exactly path[0..j).
  let reach = new Array<boolean>(n + 1).fill(false);
  reach[0] = true;
  for (const token of tokens) {
    const next = new Array<boolean>(n + 1).fill(false);
    if (token.kind === 'char' || token.kind === 'one') {
      for (let j = 1; j <= n; j++) {
        const c = path[j - 1] as string;
        next[j] = reach[j - 1] === true && (token.kind === 'one' ? c !== '/' : c === token.c);
      }
    } else if (token.kind === 'star' || token.kind === 'globstar') {
      // Zero or more characters; `*` stops at a `/`.
      next[0] = reach[0] === true;
      for (let j = 1; j <= n; j++)
        next[j] = reach[j] === true || (next[j - 1] === true && (token.kind === 'globstar' || path[j - 1] !== '/'));
    } else {
      // 'dirs': from a `/`, anything up to and including a later (or the same) `/`.
      let open = false;
      for (let j = 1; j <= n; j++) {
        if (reach[j - 1] === true && path[j - 1] === '/') open = true;
        next[j] = open && path[j - 1] === '/';
      }
    }
    reach = next;
  }
  return reach[n] === true;
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
