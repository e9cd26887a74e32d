/**
 * The shape of every endpoint's 2xx JSON answer, written once for the CLI and the sandbox (valibot;
 * README, Performance, has what it costs). The HTTP client checks each answer against its route's
 * schema before anything reads it or the store keeps it, so a gateway answering
 * `{"message": "Internal error"}` with 200 is `malformed_response`, not an empty page; the sandbox's
 * tests run its own answers through the same schemas, so the two cannot drift apart.
 *
 * The rules (design/cli.md, Tolerance): objects are loose (unknown fields pass and are kept: the
 * check only says yes or no, the data read is the data received, exact numbers included); every variant
 * the contract documents passes (credits as numbers or strings, `credits_available` or `credits_left`,
 * bare arrays or `results` envelopes, `next` links, `next_token` cursors, offset pages); a field the CLI
 * reads is typed; a field nothing documents is not required. Imports nothing of the project.
 */
import * as v from 'valibot';

type Schema = v.GenericSchema;

/** A number as the exact parser hands it back: a JS number, or an exact number object (lossless-json's). */
const exactNumber = v.custom<object>(
  (x) => typeof x === 'object' && x !== null && (x as { isLosslessNumber?: unknown }).isLosslessNumber === true,
  'a number',
);
const wireNumber = v.union([v.number(), exactNumber]);
/** A number or a numeric string: the API sends credits both ways (api-contract §3, §5, §10). */
const numeric = v.union([
  wireNumber,
  v.pipe(v.string(), v.regex(/^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/, 'a numeric string')),
]);
const optionalNumeric = v.optional(v.nullable(numeric));
const id = v.union([v.pipe(v.string(), v.minLength(1)), wireNumber]);
const optionalText = v.optional(v.nullable(v.string()));

/** The checks `object` adds: each reads whether the value is an array, nothing inside it. */
const notArray = new WeakSet<object>();

/** A JSON object (an array is not one), unknown fields kept. */
function object<E extends v.ObjectEntries>(entries: E) {
  const schema = v.pipe(
    v.looseObject(entries),
    v.check((o) => !Array.isArray(o), 'an object'),
  );
  notArray.add(schema.pipe[1]);
  return schema;
}
const anyObject = object({});
/** A list answer: an envelope with `results` (DRF paging: `count`, `next`, `previous`), or a bare array. */
function listOf(item: Schema): Schema {
  return v.union([
    object({ results: v.array(item), count: optionalNumeric, next: optionalText, previous: optionalText }),
    v.array(item),
  ]);
}
/** Anything, or no body at all (204): routes whose answer nothing reads (deletes). */
const anyBody = v.unknown();

/** `GET accounts/credits/`: `credits_available` + `credits_used` (the spec), or `credits_left` (T1), numbers or strings. */
export const creditsSchema = v.union([
  object({ credits_available: numeric, credits_used: optionalNumeric }),
  object({ credits_left: numeric }),
  object({ balance: numeric }),
]);

/** Discovery and Similar pages (§3, §4): `accounts` (each an object), `total`, `credits_left` (a string there). */
export const discoveryPageSchema = object({
  accounts: v.array(anyObject),
  total: optionalNumeric,
  limit: optionalNumeric,
  credits_left: optionalNumeric,
});

const cost = { credits_cost: optionalNumeric, credits_left: optionalNumeric };
/** Nothing found: the sandbox's `status: "not_found"` (the real answer is unpublished; `result: null` is the other form). */
const notFound = object({ status: v.literal('not_found'), ...cost });
/** An enrichment answer (§7, the official fixture): `{result: {...} | null, credits_cost}`. */
const resultAnswer = object({ result: v.nullable(anyObject), ...cost });
export const enrichmentSchema = v.union([resultAnswer, notFound]);

const nextToken = { next_token: optionalText };
/** Posts (§8.1): `result.posts` with `next_token`; a top-level or `data` list as a third-party client saw it. */
export const postsSchema = v.union([
  object({
    result: v.nullable(object({ posts: v.optional(v.array(v.unknown())), ...nextToken })),
    ...cost,
    ...nextToken,
  }),
  object({ posts: v.array(v.unknown()), ...cost, ...nextToken }),
  object({ data: object({ posts: v.array(v.unknown()) }), ...cost, ...nextToken }),
  notFound,
]);

/** Post details (§8.2): `result` (comments under `result.comments` with `next_token`), or a top-level or `data` list. */
export const detailsSchema = v.union([
  object({
    result: v.nullable(object({ comments: v.optional(v.array(v.unknown())), ...nextToken })),
    ...cost,
    ...nextToken,
  }),
  object({ comments: v.array(v.unknown()), ...cost, ...nextToken }),
  object({ data: anyObject, ...cost, ...nextToken }),
  notFound,
]);

/** Connected socials (§7): an enrichment answer, or a top-level `socials` list (a third-party reading). */
export const socialsSchema = v.union([resultAnswer, object({ socials: v.array(v.unknown()), ...cost }), notFound]);

/** Audience overlap (§5): `details` per creator with `basics`; nothing found says `success`/`status` false. */
export const overlapSchema = v.union([
  object({ details: v.array(anyObject), basics: v.optional(v.nullable(anyObject)), ...cost }),
  object({ success: v.literal(false), ...cost }),
  object({ status: v.literal(false), ...cost }),
]);

/** Dictionary entries (§6): a bare array (the sandbox, MCP), or an envelope some pages use. */
export const dictionarySchema = v.union([
  v.array(v.unknown()),
  object({ results: v.array(v.unknown()) }),
  object({ data: v.array(v.unknown()) }),
  object({ items: v.array(v.unknown()) }),
  object({ entries: v.array(v.unknown()) }),
]);

const status = { status: optionalText };
/** Batch create (§9.1): the job's `batch_id` (or `id`). */
export const batchCreatedSchema = v.union([object({ batch_id: id, ...status }), object({ id, ...status })]);
/** Batch status (§9.2): the state word (`status`, or `state`), counts and `credits_used` as numbers or strings. */
const batchProgress = {
  total_rows: optionalNumeric,
  processed_rows: optionalNumeric,
  success_count: optionalNumeric,
  failed_count: optionalNumeric,
  credits_used: optionalNumeric,
};
export const batchStatusSchema = v.union([
  object({ status: v.string(), ...batchProgress }),
  object({ state: v.string(), ...batchProgress }),
]);
/** Batch results as JSON (§9.3; the CLI streams this route, so only the sandbox's tests check it): rows, bare or wrapped. */
export const batchResultsSchema = v.union([
  v.array(anyObject),
  object({ results: v.array(anyObject) }),
  object({ data: v.array(anyObject) }),
]);
/** The presigned download (§9.4). */
export const downloadLinkSchema = object({
  download_url: v.pipe(v.string(), v.minLength(1)),
  filename: optionalText,
  expires_in: optionalNumeric,
  expires_at: optionalText,
});
/** Resume (§9.5): the shape is unpublished; an object or no body. */
export const batchResumedSchema = v.nullable(anyObject);

/** An exclusion list (§11). */
export const exclusionListSchema = object({
  id,
  name: v.optional(v.string()),
  platform: v.optional(v.string()),
  is_default: v.optional(v.boolean()),
  handle_count: optionalNumeric,
});
/** A page of a list's handles (§11): `{total, offset, limit, handles}`. */
export const handlesPageSchema = object({
  handles: v.array(v.string()),
  total: optionalNumeric,
  offset: optionalNumeric,
  limit: optionalNumeric,
});

/** An API key (§12). */
export const apiKeySchema = object({
  id,
  name: optionalText,
  token: v.optional(v.string()),
  active: v.optional(v.boolean()),
  expires_at: optionalText,
  scopes: v.optional(v.array(v.string())),
});

/** OAuth register (§13.1) and token (§13.3). */
export const oauthClientSchema = object({
  client_id: v.pipe(v.string(), v.minLength(1)),
  redirect_uris: v.optional(v.array(v.string())),
});
export const oauthTokenSchema = object({
  access_token: v.pipe(v.string(), v.minLength(1)),
  refresh_token: v.optional(v.string()),
  token_type: v.optional(v.string()),
  expires_in: optionalNumeric,
  scope: optionalText,
});

/** A subscription, campaign or event: the record's `id` (service-spec, Resources). */
export const listeningRecordSchema = object({ id });
/** An event (service-spec, Event): `id` required; the rest typed when present. */
export const eventSchema = object({
  id,
  event_type: v.optional(v.string()),
  created_at: v.optional(v.string()),
  date_occurance: optionalText,
});
/** An events page (service-spec, Event page): `results` with `count`, `next`, `previous`; a bare array tolerated. */
export const eventsPageSchema = listOf(eventSchema);
/** Usage: the figures the runway reads, when present. */
export const usageSchema = object({
  monitored_creators: optionalNumeric,
  estimated_daily_credits: optionalNumeric,
  credits_per_creator_day: optionalNumeric,
});

const P = '/public/v1';
const LISTENING = `${P}/social/listening`;
const EXCLUSIONS = `${P}/discovery/exclusion-lists`;

/**
 * Each route's answer, in the sandbox router's pattern form (`:name` matches one segment; a literal
 * segment beats a parameter). Streamed answers (CSV exports, downloads) are not JSON and have none.
 */
export const RESPONSE_ROUTES: ReadonlyArray<{ method: string; pattern: string; schema: Schema | 'stream' }> = [
  { method: 'GET', pattern: `${P}/accounts/credits/`, schema: creditsSchema },
  ...[
    'languages',
    'locations/:platform',
    'brands',
    'yt-topics',
    'games',
    'audience-brand-categories',
    'audience-brand-names',
    'audience-interests',
    'audience-locations',
    'niche',
    'sub-niche',
  ].map((kind) => ({ method: 'GET', pattern: `${P}/discovery/classifier/${kind}/`, schema: dictionarySchema })),
  { method: 'POST', pattern: `${P}/discovery/`, schema: discoveryPageSchema },
  { method: 'POST', pattern: `${P}/discovery/creators/similar/`, schema: discoveryPageSchema },
  { method: 'GET', pattern: `${EXCLUSIONS}/`, schema: v.array(exclusionListSchema) },
  { method: 'POST', pattern: `${EXCLUSIONS}/`, schema: exclusionListSchema },
  ...[':id', 'default/:platform'].flatMap((list) => [
    { method: 'GET', pattern: `${EXCLUSIONS}/${list}/`, schema: exclusionListSchema },
    { method: 'GET', pattern: `${EXCLUSIONS}/${list}/entries/`, schema: handlesPageSchema },
    { method: 'POST', pattern: `${EXCLUSIONS}/${list}/entries/`, schema: exclusionListSchema },
    { method: 'DELETE', pattern: `${EXCLUSIONS}/${list}/entries/`, schema: exclusionListSchema },
  ]),
  { method: 'PATCH', pattern: `${EXCLUSIONS}/:id/`, schema: exclusionListSchema },
  { method: 'DELETE', pattern: `${EXCLUSIONS}/:id/`, schema: anyBody },
  { method: 'POST', pattern: `${P}/creators/enrich/handle/:mode/`, schema: enrichmentSchema },
  { method: 'POST', pattern: `${P}/creators/enrich/email/`, schema: enrichmentSchema },
  { method: 'POST', pattern: `${P}/creators/enrich/email/advanced/`, schema: enrichmentSchema },
  { method: 'POST', pattern: `${P}/creators/content/posts/`, schema: postsSchema },
  { method: 'POST', pattern: `${P}/creators/content/details/`, schema: detailsSchema },
  { method: 'POST', pattern: `${P}/creators/socials/`, schema: socialsSchema },
  { method: 'POST', pattern: `${P}/creators/audience/overlap/`, schema: overlapSchema },
  { method: 'POST', pattern: `${P}/enrichment/batch/`, schema: batchCreatedSchema },
  { method: 'GET', pattern: `${P}/enrichment/batch/:id/status/`, schema: batchStatusSchema },
  { method: 'GET', pattern: `${P}/enrichment/batch/:id/`, schema: 'stream' },
  { method: 'GET', pattern: `${P}/enrichment/batch/:id/download/`, schema: downloadLinkSchema },
  { method: 'POST', pattern: `${P}/enrichment/batch/:id/resume/`, schema: batchResumedSchema },
  // The legacy routes the official n8n node sends (api-contract §9.1-9.5), on the same jobs and shapes.
  { method: 'POST', pattern: `${P}/creators/enrich/public/`, schema: batchCreatedSchema },
  { method: 'GET', pattern: `${P}/creators/enrich/public/:id/`, schema: batchStatusSchema },
  { method: 'GET', pattern: `${P}/creators/enrich/public/:id/download/`, schema: downloadLinkSchema },
  { method: 'POST', pattern: `${P}/creators/enrich/public/:id/resume/`, schema: batchResumedSchema },
  ...['subscription', 'campaign'].flatMap((kind) => [
    { method: 'GET', pattern: `${LISTENING}/${kind}/`, schema: listOf(listeningRecordSchema) },
    { method: 'POST', pattern: `${LISTENING}/${kind}/`, schema: listeningRecordSchema },
    { method: 'GET', pattern: `${LISTENING}/${kind}/:id/`, schema: listeningRecordSchema },
    { method: 'PATCH', pattern: `${LISTENING}/${kind}/:id/`, schema: listeningRecordSchema },
    { method: 'DELETE', pattern: `${LISTENING}/${kind}/:id/`, schema: anyBody },
    { method: 'GET', pattern: `${LISTENING}/${kind}/:id/creators/`, schema: listOf(anyObject) },
    { method: 'POST', pattern: `${LISTENING}/${kind}/:id/creators/`, schema: anyObject },
    { method: 'DELETE', pattern: `${LISTENING}/${kind}/:id/creators/`, schema: anyBody },
  ]),
  { method: 'GET', pattern: `${LISTENING}/subscription/:id/details/`, schema: anyObject },
  { method: 'GET', pattern: `${LISTENING}/subscription/:id/details/export/`, schema: 'stream' },
  { method: 'GET', pattern: `${LISTENING}/campaign/:id/overview/`, schema: anyObject },
  { method: 'GET', pattern: `${LISTENING}/campaign/:id/content/`, schema: listOf(anyObject) },
  { method: 'GET', pattern: `${LISTENING}/events/`, schema: eventsPageSchema },
  { method: 'GET', pattern: `${LISTENING}/events/:id/`, schema: eventSchema },
  { method: 'GET', pattern: `${LISTENING}/usage/`, schema: usageSchema },
  { method: 'GET', pattern: `${P}/accounts/tokens/`, schema: listOf(apiKeySchema) },
  { method: 'POST', pattern: `${P}/accounts/tokens/`, schema: apiKeySchema },
  { method: 'PATCH', pattern: `${P}/accounts/tokens/:id/`, schema: apiKeySchema },
  { method: 'DELETE', pattern: `${P}/accounts/tokens/:id/`, schema: anyBody },
  { method: 'POST', pattern: `${P}/oauth/register/`, schema: oauthClientSchema },
  { method: 'POST', pattern: `${P}/oauth/token/`, schema: oauthTokenSchema },
  { method: 'GET', pattern: `${P}/oauth/apps/`, schema: listOf(anyObject) },
  { method: 'DELETE', pattern: `${P}/oauth/apps/:id/`, schema: anyBody },
];

const ROUTES = RESPONSE_ROUTES.map((r) => ({ ...r, segments: r.pattern.split('/') }));

/**
 * The schema of a route's answer, from the method and the URL path (anything before `/public/v1/`, a
 * proxy's prefix, is ignored); `stream` for a route answering bytes; undefined for a route the contract
 * does not know.
 */
export function responseSchema(method: string, pathname: string): Schema | 'stream' | undefined {
  // A bulk run checks every stored answer of one route: matched once.
  const seen = `${method} ${pathname}`;
  if (schemaOf.has(seen)) return schemaOf.get(seen);
  const schema = matchSchema(method, pathname);
  if (schemaOf.size >= 256) schemaOf.clear();
  schemaOf.set(seen, schema);
  return schema;
}

const schemaOf = new Map<string, Schema | 'stream' | undefined>();

function matchSchema(method: string, pathname: string): Schema | 'stream' | undefined {
  const at = pathname.indexOf(`${P}/`);
  if (at < 0) return undefined;
  const parts = pathname.slice(at).split('/');
  let best: (typeof ROUTES)[number] | undefined;
  for (const route of ROUTES) {
    if (route.method !== method || route.segments.length !== parts.length) continue;
    if (!route.segments.every((s, i) => (s.startsWith(':') ? parts[i] !== '' : s === parts[i]))) continue;
    if (!best || moreLiteral(route.segments, best.segments)) best = route;
  }
  return best?.schema;
}

/** True when `a` has a literal segment where `b` first has a parameter. */
function moreLiteral(a: string[], b: string[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const ap = (a[i] as string).startsWith(':');
    const bp = (b[i] as string).startsWith(':');
    if (ap !== bp) return !ap;
  }
  return false;
}

/**
 * Checks a parsed answer against its route's schema. Returns undefined when it fits (or the route has no
 * JSON schema), else one line saying where it does not, e.g. `accounts: expected an array, received undefined`.
 */
export function responseMismatch(method: string, pathname: string, data: unknown): string | undefined {
  const schema = responseSchema(method, pathname);
  if (schema === undefined || schema === 'stream') return undefined;
  return mismatchOf(schema, data);
}

/**
 * Checks an answer whose nested objects and arrays (at the keys `nested`) stand as `{}` and `[]` (a stored answer
 * not parsed): undefined when the whole answer fits, 'unsure' when the stand-ins cannot tell (the route's schema reads
 * inside one of them, or the answer does not fit: then the whole answer says where).
 */
export function shallowMismatch(
  method: string,
  pathname: string,
  data: unknown,
  nested: readonly string[],
): undefined | 'unsure' {
  const schema = responseSchema(method, pathname);
  if (schema === undefined || schema === 'stream') return undefined;
  const looked = looksInside(schema);
  if (looked === 'anywhere' || nested.some((key) => looked.has(key))) return 'unsure';
  return mismatchOf(schema, data) === undefined ? undefined : 'unsure';
}

const insideOf = new WeakMap<Schema, Set<string> | 'anywhere'>();

/** The top-level keys whose nested value `schema` reads inside (or 'anywhere' when it cannot be told). */
function looksInside(schema: Schema): Set<string> | 'anywhere' {
  let found = insideOf.get(schema);
  if (found === undefined) {
    const keys = new Set<string>();
    found = topLevel(schema as Described, keys) ? keys : 'anywhere';
    insideOf.set(schema, found);
  }
  return found;
}

/** What these functions read of a valibot schema. */
interface Described {
  type: string;
  pipe?: readonly unknown[];
  wrapped?: Described;
  options?: readonly Described[];
  entries?: Record<string, Described>;
  item?: Described;
}

/** Adds to `keys` the entries of a top-level object schema whose nested value it reads inside; false if unsure. */
function topLevel(schema: Described, keys: Set<string>): boolean {
  switch (schema.type) {
    case 'union':
      return (schema.options ?? []).every((option) => topLevel(option, keys));
    case 'nullable':
    case 'optional':
    case 'nullish':
      return schema.wrapped !== undefined && topLevel(schema.wrapped, keys);
    case 'loose_object':
      if (!onlyNotArray(schema)) return false;
      for (const [key, entry] of Object.entries(schema.entries ?? {})) if (!readsNothingInside(entry)) keys.add(key);
      return true;
    default:
      // Anything else is never an object (an array, a number...) or takes any: the answer itself is real.
      return (
        !schema.pipe &&
        ['unknown', 'any', 'array', 'number', 'string', 'boolean', 'literal', 'null'].includes(schema.type)
      );
  }
}

/** True when `schema` says the same of any JSON object or array as of an empty one of its kind. */
function readsNothingInside(schema: Described): boolean {
  switch (schema.type) {
    case 'unknown':
    case 'any':
      return !schema.pipe;
    // An object or an array is none of these, whatever it holds (a pipe runs only on a value of the type).
    case 'number':
    case 'string':
    case 'boolean':
    case 'literal':
    case 'null':
    case 'undefined':
      return true;
    case 'nullable':
    case 'optional':
    case 'nullish':
      return !schema.pipe && schema.wrapped !== undefined && readsNothingInside(schema.wrapped);
    case 'union':
      return !schema.pipe && (schema.options ?? []).every(readsNothingInside);
    case 'loose_object':
      return Object.keys(schema.entries ?? {}).length === 0 && onlyNotArray(schema);
    case 'array':
      return (
        !schema.pipe && schema.item !== undefined && ['unknown', 'any'].includes(schema.item.type) && !schema.item.pipe
      );
    default:
      return false;
  }
}

function onlyNotArray(schema: Described): boolean {
  return (schema.pipe ?? []).every((step, i) => i === 0 || notArray.has(step as object));
}

/** Checks data against a schema: undefined when it fits, else where it does not (one line). */
export function mismatchOf(schema: Schema, data: unknown): string | undefined {
  const result = v.safeParse(schema, data, { abortEarly: false });
  if (result.success) return undefined;
  return describeIssue(result.issues[0]);
}

/** One issue as `path: expected X, received Y` (or `path is missing`); a union names its first alternative's first issue. */
function describeIssue(issue: v.BaseIssue<unknown>): string {
  const inner = issue.type === 'union' && issue.issues && issue.issues.length > 0 ? issue.issues[0] : undefined;
  if (inner) return `${describeIssue(inner)} (nor any other documented form)`;
  const path = (issue.path ?? []).map((p) => String((p as { key?: unknown }).key)).join('.');
  if (path && issue.kind === 'schema' && issue.received === 'undefined') return `${path} is missing`;
  const expected = issue.kind === 'validation' ? issue.message : issue.expected;
  const what = expected ? `expected ${expected}, received ${issue.received}` : issue.message;
  return path ? `${path}: ${what}` : `the body: ${what}`;
}
