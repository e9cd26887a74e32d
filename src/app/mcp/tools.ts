/**
 * The tools `creators mcp` serves: each one a command line of the CLI, so a tool is priced, gated, budgeted,
 * kept in the store and printed exactly as the verb is. Schemas carry the contract's enums and limits, so a bad
 * argument is refused before anything is sent, naming the nearest valid value.
 */
import { z } from 'zod';
import { ALL_FILTER_KEYS, FILTER_CATALOGUE } from '../../contract/filter-catalogue.js';
import {
  DISCOVERY_PAGE_LIMIT,
  DISCOVERY_RESULT_CAP,
  EXCLUSION_ENTRIES_PAGE,
  EXCLUSION_ENTRIES_PER_REQUEST,
} from '../../contract/limits.js';
import {
  BATCH_MODES,
  CONTENT_KINDS,
  CONTENT_PLATFORMS,
  DISCOVERY_PLATFORMS,
  EMAIL_MODES,
  EMAIL_REQUIRED,
  HANDLE_MODES,
  OVERLAP_CREATORS,
  OVERLAP_PLATFORMS,
  SOCIAL_PLATFORMS,
} from '../../contract/platforms.js';
import { statedHighestModePrice, statedModePrices, statedPrice } from '../../lib/api/price-list.js';
import { UsageError } from '../../lib/errors.js';
import { closest } from '../../lib/output/fields-check.js';

/** What a tool call becomes: the command's words and flags, and what it reads on standard input. */
export interface ToolLine {
  argv: string[];
  stdin?: string;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  /** Quoted, confirmed and counted against the budgets before it runs. */
  paid: boolean;
  /** Changes something at the service (or in the store). */
  writes: boolean;
  idempotent: boolean;
  /** Talks to the service (false: only the local store or this server). */
  openWorld: boolean;
  /** Charged by the service after the call returns (a batch job): the session counts its worst case. */
  chargesLater?: boolean;
  /** The answer is data, written in the chosen format and sized for the context. */
  data: boolean;
  line(args: Record<string, unknown>, put: (name: string, content: string) => string): ToolLine;
  /** Narrows the command's JSON answer by what the command cannot filter on (its format is then json). */
  narrow?(data: unknown, args: Record<string, unknown>): unknown;
}

/** A choice from a contract list; a wrong value is refused naming the nearest one and all of them. */
function choice<T extends string>(values: readonly T[], what: string) {
  return z.enum(values as unknown as [T, ...T[]], {
    error: (issue) => {
      const given = typeof issue.input === 'string' ? issue.input : JSON.stringify(issue.input);
      const near = typeof issue.input === 'string' ? closest(issue.input, values) : undefined;
      return `Invalid ${what} '${given}'${near ? `: did you mean ${near}?` : '.'} Use one of: ${values.join(', ')}.`;
    },
  });
}

function wholeNumber(what: string, min: number, max?: number) {
  let n = z
    .number({ error: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .min(min, `${what} must be ${min} or more`);
  if (max !== undefined) n = n.max(max, `${what} must be at most ${max} (the service's limit)`);
  return n;
}

const FORMAT = choice(['json', 'jsonl', 'csv', 'tsv'] as const, 'format')
  .optional()
  .describe("format of the whole result when it is written to a file (default json): the formats of the CLI's -o");
const CONFIRM = z
  .number()
  .min(0)
  .optional()
  .describe(
    'only after the user agreed to a cost above their confirm-above setting: the credits they agreed to (the worst case the refusal stated)',
  );
const HANDLES = (what: string, max = 100) =>
  z.array(z.string().min(1)).min(1).max(max).describe(`${what} (usernames, @handles or profile URLs), 1 to ${max}`);

/** Flags for optional values: `--flag value` when set, `--switch` when true. */
/** `pages` above 1 as the CLI takes it: follow the cursor, at most that many pages. */
function followPages(pages: unknown): string[] {
  return typeof pages === 'number' && pages > 1 ? ['--all', '--max-pages', String(pages)] : [];
}

function flags(pairs: Array<[string, unknown]>): string[] {
  const out: string[] = [];
  for (const [flag, value] of pairs) {
    if (value === undefined || value === false || value === null) continue;
    if (value === true) out.push(flag);
    else if (Array.isArray(value)) for (const v of value) out.push(flag, String(v));
    else out.push(flag, String(value));
  }
  return out;
}

/** Filter keys checked against the platform's catalogue before anything is sent, the nearest key named. */
function checkFilters(platform: string, filters: Record<string, unknown> | undefined): void {
  const known = FILTER_CATALOGUE[platform as keyof typeof FILTER_CATALOGUE];
  for (const key of Object.keys(filters ?? {})) {
    if (known.has(key)) continue;
    const near = closest(key, [...known]);
    throw new UsageError(`Unknown filter '${key}' for ${platform}.`, {
      hint: near
        ? `Did you mean ${near}? Nothing was sent.`
        : `The ${platform} filter keys are listed in the filters argument's description. Nothing was sent.`,
    });
  }
}

const filterKeysText = (): string =>
  `Keys by platform: ${DISCOVERY_PLATFORMS.map((p) => `${p}: ${[...FILTER_CATALOGUE[p]].join(', ')}`).join('; ')}.`;

const DISCOVERY_INPUT = {
  platform: choice(DISCOVERY_PLATFORMS, 'platform').describe('platform to search'),
  filters: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Discovery filters as the API takes them, e.g. {"number_of_followers": {"min": 10000}, "location": ["Germany"]}; values from the dictionary tool. ' +
        `${ALL_FILTER_KEYS.length} keys in all. ${filterKeysText()}`,
    ),
  min_followers: wholeNumber('min_followers', 0)
    .optional()
    .describe("minimum followers (sent under the platform's own key)"),
  max_followers: wholeNumber('max_followers', 0)
    .optional()
    .describe("maximum followers (sent under the platform's own key)"),
  limit: wholeNumber('limit', 1, DISCOVERY_PAGE_LIMIT.max)
    .optional()
    .describe(`creators per page, 1 to ${DISCOVERY_PAGE_LIMIT.max} (default ${DISCOVERY_PAGE_LIMIT.default})`),
  page: wholeNumber('page', 1).optional().describe('page to fetch, from 1 (default 1)'),
  max_results: wholeNumber('max_results', 1, DISCOVERY_RESULT_CAP)
    .optional()
    .describe(
      `fetch pages until exactly this many creators (at most ${DISCOVERY_RESULT_CAP}); each creator is paid for`,
    ),
  exclude_list_ids: z
    .array(wholeNumber('exclude_list_ids', 1))
    .optional()
    .describe('leave out the handles of these exclusion lists (free check first)'),
  skip_bought: z
    .boolean()
    .optional()
    .describe('leave out creators already bought (in the store) within the creator window'),
  include_lookalikes: z.boolean().optional().describe('include lookalike creators'),
  format: FORMAT,
  confirm_credits: CONFIRM,
};

function discoveryFlags(a: Record<string, unknown>): ToolLine {
  checkFilters(String(a.platform), a.filters as Record<string, unknown> | undefined);
  return {
    argv: [
      '--platform',
      String(a.platform),
      ...(a.filters ? ['--filters', '-'] : []),
      ...flags([
        ['--min-followers', a.min_followers],
        ['--max-followers', a.max_followers],
        ['--limit', a.limit],
        ['--page', a.page],
        ['--max-results', a.max_results],
        ['--exclude-list', a.exclude_list_ids],
        ['--include-lookalikes', a.include_lookalikes],
      ]),
      ...(a.skip_bought === true ? ['--skip-bought'] : a.skip_bought === false ? ['--no-skip-bought'] : []),
    ],
    stdin: a.filters ? JSON.stringify(a.filters) : undefined,
  };
}

const FREE_READ = { paid: false, writes: false, idempotent: true, openWorld: true, data: true } as const;
const PAID_READ = { paid: true, writes: false, idempotent: true, openWorld: true, data: true } as const;

/**
 * The default session budget: 5 credits. Enough for a typical assistant task (a 20-creator search page is 0.2,
 * three full enrichments 3), small enough that a looping agent loses little before it is stopped; below the
 * default confirm-above (10), so a bigger session is a decision the user makes when starting the server.
 */
export const DEFAULT_BUDGET_CREDITS = 5;

/** The tools a server serves: with `readOnly`, only the free ones that change nothing (`quote` always). */
export function servedTools(readOnly: boolean): string[] {
  return [...TOOLS.filter((t) => !readOnly || (!t.paid && !t.writes)).map((t) => t.name), 'quote'];
}

/** Every tool, in the order a client lists them. */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'search_creators',
    title: 'Search creators (Discovery)',
    description:
      `Find creators on one platform by filters, a natural-language brief or semantic text. Costs ${statedPrice('discoveryPerCreator')} credit per creator returned ` +
      `(${statedPrice('discoveryPerCreatorWithFilterValues')} with return_filter_values); pages already in the store cost 0. Returns the creators (handle, followers, engagement, ...). ` +
      `Use limit 1 first to learn how many match for ${statedPrice('discoveryPerCreator')}. Look up filter values with the dictionary tool.`,
    input: {
      ...DISCOVERY_INPUT,
      query: z.string().min(1).optional().describe('natural-language brief, mapped to filters by the service'),
      ai_search: z.string().min(3).max(150).optional().describe('semantic search text, 3-150 characters'),
      sort: choice(['relevancy', 'engagement_rate', 'number_of_followers', 'growth_rate'] as const, 'sort').optional(),
      order: choice(['asc', 'desc'] as const, 'order')
        .optional()
        .describe('with sort: asc or desc (default desc)'),
      return_filter_values: z
        .boolean()
        .optional()
        .describe(
          `add matched_filters to each creator (${statedPrice('discoveryPerCreatorWithFilterValues')} credit per creator)`,
        ),
    },
    ...PAID_READ,
    line: (a) => {
      const d = discoveryFlags(a);
      return {
        argv: [
          'search',
          ...d.argv,
          ...flags([
            ['--query', a.query],
            ['--ai-search', a.ai_search],
            ['--sort', a.sort],
            ['--order', a.order],
            ['--return-filter-values', a.return_filter_values],
          ]),
        ],
        stdin: d.stdin,
      };
    },
  },
  {
    name: 'similar_creators',
    title: 'Similar creators',
    description:
      'Creators similar to a reference creator (profile URL, username or platform id), with the same filters as search_creators. ' +
      `Costs ${statedPrice('similarPerCreator')} credit per creator returned; pages in the store cost 0.`,
    input: {
      creator: z.string().min(1).describe('the reference creator: profile URL, username or platform id'),
      by: choice(['url', 'username', 'id'] as const, 'by')
        .optional()
        .describe('how creator is given (detected when omitted)'),
      ...DISCOVERY_INPUT,
    },
    ...PAID_READ,
    line: (a) => {
      const d = discoveryFlags(a);
      return { argv: ['similar', String(a.creator), ...d.argv, ...flags([['--by', a.by]])], stdin: d.stdin };
    },
  },
  {
    name: 'dictionary',
    title: 'Filter dictionaries',
    description:
      'Values the Discovery filters accept (languages, locations, brands, topics, niches, ...). Free. Use it to find the exact value or id ' +
      'for a filter before searching.',
    input: {
      kind: choice(
        [
          'languages',
          'locations',
          'brands',
          'yt-topics',
          'games',
          'audience-brand-categories',
          'audience-brand-names',
          'audience-interests',
          'audience-locations',
          'niches',
          'sub-niches',
        ] as const,
        'kind',
      ),
      platform: choice(DISCOVERY_PLATFORMS, 'platform').optional().describe('required for locations'),
      search: z.string().min(1).optional().describe('only entries matching this text'),
      limit: wholeNumber('limit', 1, 100).optional(),
      offset: wholeNumber('offset', 0).optional(),
      format: FORMAT,
    },
    ...FREE_READ,
    line: (a) => ({
      argv: [
        'dict',
        String(a.kind),
        ...flags([
          ['--platform', a.platform],
          ['--search', a.search],
          ['--limit', a.limit],
          ['--offset', a.offset],
        ]),
      ],
    }),
  },
  {
    name: 'enrich_handle',
    title: 'Enrich creators by handle',
    description:
      `Profile data of creators by handle, one request each: ${statedModePrices(HANDLE_MODES)} credit per creator found; ` +
      'a handle not found costs 0, and a creator already in the store costs 0 (asking again never pays twice). ' +
      'Use raw for the cheapest look, full for everything (contacts, audience with audience: true).',
    input: {
      handles: HANDLES('creators'),
      platform: choice(SOCIAL_PLATFORMS, 'platform'),
      mode: choice(HANDLE_MODES, 'mode').optional().describe('raw, profile, analytics or full (default full)'),
      email_required: choice(EMAIL_REQUIRED, 'email_required')
        .optional()
        .describe('profile/full: must_have returns (and bills) only creators with an email'),
      audience: z.boolean().optional().describe('full: include audience data'),
      lookalikes: z.boolean().optional().describe('analytics/full: include lookalike creators'),
      format: FORMAT,
      confirm_credits: CONFIRM,
    },
    ...PAID_READ,
    line: (a) => ({
      argv: [
        'enrich',
        'handle',
        ...(a.handles as string[]),
        '--platform',
        String(a.platform),
        ...flags([
          ['--mode', a.mode],
          ['--email-required', a.email_required],
          ['--audience', a.audience],
          ['--lookalikes', a.lookalikes],
        ]),
      ],
    }),
  },
  {
    name: 'enrich_email',
    title: 'Enrich creators by email',
    description: `Creators behind email addresses: ${statedModePrices(EMAIL_MODES)} credits per email found; not found costs 0; stored answers cost 0.`,
    input: {
      emails: z.array(z.email()).min(1).max(100).describe('email addresses, 1 to 100'),
      mode: choice(EMAIL_MODES, 'mode').optional().describe('basic or advanced (default basic)'),
      min_followers: wholeNumber('min_followers', 0)
        .optional()
        .describe('advanced: only accounts with at least this many followers'),
      exclude_platforms: z
        .array(choice(SOCIAL_PLATFORMS, 'platform'))
        .optional()
        .describe('advanced: leave these platforms out'),
      format: FORMAT,
      confirm_credits: CONFIRM,
    },
    ...PAID_READ,
    line: (a) => ({
      argv: [
        'enrich',
        'email',
        ...(a.emails as string[]),
        ...flags([
          ['--mode', a.mode],
          ['--min-followers', a.min_followers],
          ['--exclude-platforms', (a.exclude_platforms as string[] | undefined)?.join(',')],
        ]),
      ],
    }),
  },
  {
    name: 'post_details',
    title: 'Post details',
    description: `One post: its data, comments, transcript or audio. ${statedPrice('postDetails')} credits per request (comments: per page); stored answers cost 0.`,
    input: {
      post: z.string().min(1).describe('the platform post id, or the post URL'),
      platform: choice(CONTENT_PLATFORMS, 'platform').optional().describe('default: from the URL'),
      kind: choice(CONTENT_KINDS, 'kind').optional().describe('data, comments, transcript or audio (default data)'),
      pages: wholeNumber('pages', 1, 50).optional().describe('comments: pages to follow (default 1)'),
      cursor: z
        .string()
        .min(1)
        .optional()
        .describe('comments: start at this cursor (the next cursor an earlier call returned)'),
      format: FORMAT,
      confirm_credits: CONFIRM,
    },
    ...PAID_READ,
    line: (a) => ({
      argv: [
        'post',
        String(a.post),
        ...flags([
          ['--platform', a.platform],
          ['--kind', a.kind],
          ['--cursor', a.cursor],
        ]),
        ...followPages(a.pages),
      ],
    }),
  },
  {
    name: 'creator_posts',
    title: "A creator's posts",
    description: `A creator's posts, newest first, a page per request, budgeted at ${statedPrice('creatorPosts')} credits a page (the highest published price); stored pages cost 0.`,
    input: {
      creator: z.string().min(1).describe('username or profile URL'),
      platform: choice(CONTENT_PLATFORMS, 'platform').optional().describe('default: from the URL'),
      count: wholeNumber('count', 1, 50)
        .optional()
        .describe('posts per page: TikTok up to 35, YouTube up to 50; Instagram pages are a fixed 12'),
      pages: wholeNumber('pages', 1, 50).optional().describe('pages to follow (default 1)'),
      cursor: z.string().min(1).optional().describe('start at this cursor (the next cursor an earlier call returned)'),
      format: FORMAT,
      confirm_credits: CONFIRM,
    },
    ...PAID_READ,
    line: (a) => ({
      argv: [
        'posts',
        String(a.creator),
        ...flags([
          ['--platform', a.platform],
          ['--count', a.count],
          ['--cursor', a.cursor],
        ]),
        ...followPages(a.pages),
      ],
    }),
  },
  {
    name: 'connected_socials',
    title: 'Connected socials',
    description: `A creator's accounts on other platforms: ${statedPrice('connectedSocials')} credits per creator found; not found costs 0; stored answers cost 0.`,
    input: {
      handles: HANDLES('creators'),
      platform: choice(SOCIAL_PLATFORMS, 'platform'),
      format: FORMAT,
      confirm_credits: CONFIRM,
    },
    ...PAID_READ,
    line: (a) => ({ argv: ['socials', ...(a.handles as string[]), '--platform', String(a.platform)] }),
  },
  {
    name: 'audience_overlap',
    title: 'Audience overlap',
    description: `Audience overlap of 2 to 10 creators: each one's unique and overlapping share, and the totals. ${statedPrice('audienceOverlap')} credit per request; a stored answer costs 0.`,
    input: {
      creators: z
        .array(z.string().min(1))
        .min(OVERLAP_CREATORS.min)
        .max(OVERLAP_CREATORS.max)
        .describe(`${OVERLAP_CREATORS.min} to ${OVERLAP_CREATORS.max} usernames or profile URLs`),
      platform: choice(OVERLAP_PLATFORMS, 'platform'),
      format: FORMAT,
      confirm_credits: CONFIRM,
    },
    ...PAID_READ,
    line: (a) => ({ argv: ['overlap', ...(a.creators as string[]), '--platform', String(a.platform)] }),
  },
  {
    name: 'batch_create',
    title: 'Create a batch enrichment job',
    description:
      'Enrich many handles or emails as one server-side job (for hundreds or thousands). Charged by the service as the job runs, at the ' +
      `mode's price per row found (${statedModePrices(BATCH_MODES)}); the session budget counts its worst case at once. ` +
      'Returns the batch id: follow it with batch_status and batch_results.',
    input: {
      values: z
        .array(z.string().min(1))
        .min(1)
        .max(100_000)
        .describe('handles (modes raw, full) or emails (basic, advanced)'),
      mode: choice(BATCH_MODES, 'mode'),
      platform: choice(DISCOVERY_PLATFORMS, 'platform').optional().describe('platform of the handles (raw, full)'),
      email_required: choice(EMAIL_REQUIRED, 'email_required').optional(),
      audience: z.boolean().optional().describe('full: include audience data'),
      lookalikes: z.boolean().optional().describe('full: include lookalikes'),
      confirm_credits: CONFIRM,
    },
    paid: true,
    writes: true,
    idempotent: false,
    openWorld: true,
    chargesLater: true,
    data: true,
    line: (a, put) => {
      const column = a.mode === 'basic' || a.mode === 'advanced' ? 'email' : 'handle';
      const file = put(
        `batch-${Date.now()}.csv`,
        `${column}\n${(a.values as string[]).map((v) => v.replace(/[\r\n]/g, ' ')).join('\n')}\n`,
      );
      return {
        argv: [
          'batch',
          'upload',
          file,
          '--mode',
          String(a.mode),
          ...flags([
            ['--platform', a.platform],
            ['--email-required', a.email_required],
            ['--audience', a.audience],
            ['--lookalikes', a.lookalikes],
          ]),
        ],
      };
    },
  },
  {
    name: 'batch_status',
    title: 'Batch job status',
    description: 'State and progress of a batch job (free).',
    input: {
      id: z
        .string()
        .regex(/^bch_\w+$/, 'a batch id looks like bch_...')
        .describe('batch id (bch_...)'),
    },
    ...FREE_READ,
    line: (a) => ({ argv: ['batch', 'status', String(a.id)] }),
  },
  {
    name: 'batch_results',
    title: 'Batch job results',
    description: "A finished batch job's results (free: the job was charged as it ran).",
    input: { id: z.string().regex(/^bch_\w+$/, 'a batch id looks like bch_...'), format: FORMAT },
    ...FREE_READ,
    line: (a) => ({ argv: ['batch', 'download', String(a.id)] }),
  },
  {
    name: 'batch_resume',
    title: 'Resume a batch job',
    description:
      'Continue a batch job paused for credits (or failed). Resuming is free, but the rows it goes on to enrich are charged as it runs: ' +
      `the session budget counts its worst case at once (the rows not yet processed x ${statedHighestModePrice(BATCH_MODES)} credits, the highest batch price).`,
    input: { id: z.string().regex(/^bch_\w+$/, 'a batch id looks like bch_...'), confirm_credits: CONFIRM },
    // Paid for the session: a job created elsewhere would otherwise spend its remaining rows past the session budget.
    paid: true,
    writes: true,
    idempotent: true,
    openWorld: true,
    chargesLater: true,
    data: true,
    line: (a) => ({ argv: ['batch', 'resume', String(a.id)] }),
  },
  {
    name: 'credits',
    title: 'Credit balance',
    description: "The account's credit balance and credits used (free).",
    input: {},
    ...FREE_READ,
    line: () => ({ argv: ['credits'] }),
  },
  {
    name: 'spend',
    title: 'Credits spent',
    description:
      "Credits spent, from this profile's spend log, by day, command, platform or profile (free; read from the store).",
    input: {
      since: z
        .string()
        .min(1)
        .optional()
        .describe('from this long ago (7d, 24h) or this date (2026-11-01); default 30d'),
      until: z.string().min(1).optional(),
      by: choice(['day', 'command', 'platform', 'profile'] as const, 'by').optional(),
      format: FORMAT,
    },
    ...FREE_READ,
    line: (a) => ({
      argv: [
        'spend',
        ...flags([
          ['--since', a.since],
          ['--until', a.until],
          ['--by', a.by],
        ]),
      ],
    }),
  },
  {
    name: 'store_lookup',
    title: 'What the store already holds',
    description:
      'What was already bought and is kept in the purchase store (free, nothing sent): one row per stored answer, newest first. ' +
      'Check it before buying: a stored answer is returned at 0 credits by the paid tools.',
    input: {
      handles: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe('only answers about these creators (usernames; the result is then JSON)'),
      platform: choice(SOCIAL_PLATFORMS, 'platform').optional(),
      kind: choice(['creator', 'page'] as const, 'kind')
        .optional()
        .describe('creator (enrichment, socials, overlap) or page (Discovery, posts, comments)'),
      newer_than: z.string().min(1).optional().describe('only answers bought within this (7d, 24h)'),
      format: FORMAT,
    },
    paid: false,
    writes: false,
    idempotent: true,
    openWorld: false,
    data: true,
    line: (a) => ({
      argv: [
        'store',
        'list',
        ...flags([
          ['--platform', a.platform],
          ['--kind', a.kind],
          ['--newer-than', a.newer_than],
        ]),
      ],
    }),
    narrow: (data, a) => {
      const wanted = new Set((a.handles as string[] | undefined)?.map((h) => h.trim().replace(/^@/, '').toLowerCase()));
      return Array.isArray(data)
        ? data.filter(
            (row: { subject?: unknown }) => typeof row.subject === 'string' && wanted.has(row.subject.toLowerCase()),
          )
        : data;
    },
  },
  {
    name: 'exclusion_lists',
    title: 'Exclusion lists',
    description: 'The exclusion lists (handles Discovery leaves out), optionally of one platform (free).',
    input: { platform: choice(DISCOVERY_PLATFORMS, 'platform').optional(), format: FORMAT },
    ...FREE_READ,
    line: (a) => ({ argv: ['exclusions', 'list', ...flags([['--platform', a.platform]])] }),
  },
  {
    name: 'exclusion_entries',
    title: 'Handles of an exclusion list',
    description: 'The handles of one exclusion list, alphabetically (free).',
    input: {
      list: z.string().min(1).describe('list id, or default:<platform>'),
      limit: wholeNumber('limit', 1, EXCLUSION_ENTRIES_PAGE.max).optional(),
      offset: wholeNumber('offset', 0).optional(),
      format: FORMAT,
    },
    ...FREE_READ,
    line: (a) => ({
      argv: [
        'exclusions',
        'entries',
        String(a.list),
        ...flags([
          ['--limit', a.limit],
          ['--offset', a.offset],
        ]),
      ],
    }),
  },
  {
    name: 'exclusion_create',
    title: 'Create an exclusion list',
    description: 'Create an exclusion list for a platform (free).',
    input: { name: z.string().min(1).max(300), platform: choice(DISCOVERY_PLATFORMS, 'platform') },
    paid: false,
    writes: true,
    idempotent: false,
    openWorld: true,
    data: true,
    line: (a) => ({ argv: ['exclusions', 'create', String(a.name), '--platform', String(a.platform)] }),
  },
  {
    name: 'exclusion_add',
    title: 'Add handles to an exclusion list',
    description: 'Add handles to an exclusion list (free), so Discovery leaves them out.',
    input: {
      list: z.string().min(1).describe('list id, or default:<platform>'),
      handles: HANDLES('handles', EXCLUSION_ENTRIES_PER_REQUEST),
    },
    paid: false,
    writes: true,
    idempotent: true,
    openWorld: true,
    data: true,
    line: (a) => ({ argv: ['exclusions', 'add', String(a.list), ...(a.handles as string[])] }),
  },
  {
    name: 'listening_usage',
    title: 'Listening usage',
    description:
      'Social listening: limits, monitored creators, the daily charge, its monthly projection and the runway (free).',
    input: {},
    ...FREE_READ,
    line: () => ({ argv: ['listening', 'usage'] }),
  },
  {
    name: 'listening_subscriptions',
    title: 'Listening subscriptions',
    description: 'The social-listening subscriptions (free).',
    input: { format: FORMAT },
    ...FREE_READ,
    line: () => ({ argv: ['listening', 'subscriptions', 'list'] }),
  },
  {
    name: 'listening_campaigns',
    title: 'Listening campaigns',
    description: 'The social-listening campaigns (free).',
    input: { format: FORMAT },
    ...FREE_READ,
    line: () => ({ argv: ['listening', 'campaigns', 'list'] }),
  },
  {
    name: 'listening_campaign_overview',
    title: 'Campaign overview',
    description: "A campaign's analytics: per-post metrics, engagement, reach, EMV, 7-day trends (free).",
    input: { id: z.string().min(1).describe('campaign id') },
    ...FREE_READ,
    line: (a) => ({ argv: ['listening', 'campaigns', 'overview', String(a.id)] }),
  },
  {
    name: 'listening_campaign_content',
    title: 'Campaign content',
    description: "A campaign's content feed, every page (free).",
    input: { id: z.string().min(1).describe('campaign id'), format: FORMAT },
    ...FREE_READ,
    line: (a) => ({ argv: ['listening', 'campaigns', 'content', String(a.id)] }),
  },
];
