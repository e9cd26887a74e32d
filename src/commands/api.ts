import { defineCommand, integer } from '../app/command.js';
import { UsageError } from '../lib/errors.js';
import type { RawRequest } from '../lib/api/raw.js';
import type { PagingTally } from '../lib/paging.js';
import type { Method } from '../lib/http/types.js';
import { assignPairs } from '../lib/options.js';

const METHODS: readonly Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `creators api <path>`: the raw escape hatch, with the same auth, retries, money gate and output. */
export default defineCommand({
  name: 'api',
  description: 'Call any endpoint with the same auth, retries, debug log and output handling',
  args: [{ name: '<path>', description: 'API path, e.g. accounts/credits or /public/v1/discovery/' }],
  flags: {
    method: {
      flags: '-X, --method <method>',
      description: 'HTTP method (default GET, or POST with -f/--input)',
      complete: METHODS,
    },
    field: {
      flags: '-f, --field <key=value>',
      description: 'body field, or query parameter with -X GET; dot paths nest, values typed',
      repeat: true,
    },
    input: { flags: '--input <file>', description: 'request body as JSON from a file, or - for stdin', stdin: true },
    paginate: {
      flags: '--paginate',
      description:
        'follow next links, next_token cursors, offset pages and Discovery page numbers, streaming every item',
    },
    maxPages: {
      flags: '--max-pages <n>',
      description: 'with --paginate: stop after n requests (bounds the worst case of a billed route)',
      value: integer({ min: 1 }),
    },
  },
  examples: [
    ['creators api accounts/credits', 'GET a path'],
    ['creators api discovery/classifier/brands -X GET -f search=nike -f limit=5', 'query parameters on a GET'],
    ['creators api discovery/exclusion-lists -X POST -f name=competitors -f platform=instagram', 'a JSON body'],
    ['creators api social/listening/events --paginate --format jsonl', 'every page, one record per line'],
    [
      'creators api creators/content/posts -f platform=tiktok -f handle=themaxtech --paginate --max-pages 2 --json',
      'a billed cursor route, at most 2 pages',
    ],
    ['creators api discovery/ --input body.json --dry-run', 'see the request without sending it'],
  ],
  async run(ctx, { args: [path = ''], flags }) {
    const fields = flags.field;
    const method = (flags.method ?? (fields.length || flags.input ? 'POST' : 'GET')).toUpperCase();
    if (!isMethod(method)) {
      throw new UsageError(`Unknown HTTP method '${String(flags.method)}'.`, {
        hint: `Use one of: ${METHODS.join(', ')}.`,
      });
    }
    const maxPages = flags.maxPages;
    if (maxPages !== undefined && !flags.paginate) throw new UsageError('--max-pages needs --paginate.');
    if (!path.trim() || /^[a-z]+:\/\//i.test(path)) {
      throw new UsageError(`Invalid API path '${path}'.`, {
        hint: 'Give a path such as accounts/credits; the base URL comes from --base-url.',
      });
    }
    const { isJsonObject, itemOf, queryFromPairs, recordOf, recordsOf, sendRawRequest } = await import(
      '../lib/api/raw.js'
    );
    let body: RawRequest['body'];
    let query: RawRequest['query'];
    if (method === 'GET' || method === 'HEAD') {
      if (flags.input)
        throw new UsageError(`--input sends a body, which ${method} requests do not have.`, { hint: 'Add -X POST.' });
      query = queryFromPairs(assignPairs(fields, '-f'));
    } else if (flags.input || fields.length > 0) {
      const { readInputJson } = await import('../lib/io/input.js');
      const base = flags.input ? await readInputJson(ctx.term, flags.input, '--input') : {};
      if (!isJsonObject(base)) throw new UsageError('--input must hold a JSON object.');
      body = assignPairs(fields, '-f', base);
    }

    const [{ itemsOfPage }, { planUrl }, { printItem, printList, printText }] = await Promise.all([
      import('../lib/paging.js'),
      import('../lib/api/plan.js'),
      import('../lib/output/index.js'),
    ]);
    const request = { method, path, query, body };
    if (flags.paginate) {
      const [
        { paginatePlan, pageSpendMilli },
        { paginate },
        { pageBase },
        { planUrl },
        { printList },
        { printPaidList },
        { creditCount, formatCredits, plural },
        { pagingProgress, recordsToTerminal, endingProgress },
      ] = await Promise.all([
        import('../lib/api/raw-plan.js'),
        import('../lib/paging.js'),
        import('../lib/discovery/paging.js'),
        import('../lib/api/plan.js'),
        import('../lib/output/index.js'),
        import('../lib/output/paid.js'),
        import('../lib/words.js'),
        import('../lib/bulk/progress.js'),
      ]);
      const base = pageBase(ctx.deps.env.CREATORS_PAGE_BASE ?? (await ctx.config.setting('page-base')));
      const pp = paginatePlan(request, {
        maxPages,
        budget: await ctx.money.budget(),
        pageBase: base,
      });
      const http = await ctx.http();
      if (!(await ctx.money.gate(pp.plan))) return;
      if (pp.plan.worstCaseMilli === null) {
        ctx.term.warn(
          `The cost of ${method} ${planUrl(http.baseUrl, pp.plan).pathname} --paginate is not known in advance${pp.pageMilli === null ? '' : ` (${formatCredits(pp.pageMilli)} a page, pages unknown; --max-pages n bounds it)`}.`,
        );
      }
      const output = await ctx.output();
      let spent = 0;
      let received = 0;
      const tally: PagingTally = { pages: 0 };
      // pages, records and (for a billed route) credits so far, on a terminal.
      const progress = pagingProgress(ctx.term, {
        label: 'api',
        noun: ['record', 'records'],
        now: ctx.deps.now,
        recordsToTerminal: recordsToTerminal(ctx.term, output),
      });
      const onPage = (data: unknown, items: unknown[] | undefined): void => {
        spent += pageSpendMilli(pp, data, items);
        received += items?.length ?? 1;
        progress.update({
          pages: tally.pages,
          records: received,
          creditsMilli: pp.pageMilli === 0 ? undefined : spent,
        });
      };
      const sent = {
        ...request,
        path: pp.plan.path,
        query: pp.plan.query,
        label: pp.plan.label,
        purchase: pp.plan.purchase,
      };
      const readerTook = (await import('../lib/output/sink.js')).readerPace(ctx.term, output, ctx.deps.signal);
      const records = endingProgress(
        recordsOf(paginate(http, sent, { maxPages: pp.maxPages, pageBase: base, tally, onPage, readerTook })),
        progress,
      );
      // A billed run stopped part-way keeps the records it paid for, with the spend (lib/output/paid.ts).
      if (pp.pageMilli === 0) await printList(ctx.term, output, records, []);
      else await printPaidList(ctx.term, output, records, [], { spentMilli: () => spent, noun: 'records' });
      if (tally.stop === 'max-pages')
        ctx.term.notice(`Stopped after ${plural(tally.pages, 'page')} (the page bound); more may remain.`);
      else if (tally.stop === 'cap') ctx.term.notice('Stopped at the 10,000-result cap: a query reaches no further.');
      else if (tally.stop === 'repeat')
        ctx.term.notice(
          'Stopped: the last page repeated creators already received (the server may count pages from the other base; see CREATORS_PAGE_BASE).',
        );
      if (ctx.term.stderrIsTTY && spent > 0) ctx.term.notice(`${creditCount(spent)} spent.`);
      return;
    }
    const { rawRequestPlan, rawSpendMilli } = await import('../lib/api/raw-plan.js');
    const plan = rawRequestPlan(request);
    // Built before the gate, as it always was: a bad --timeout is a usage error even in a dry run.
    const http = await ctx.http();
    // A purchase the store holds (bought by this route or its verb) is answered from it: priced at 0.
    const stored = plan.purchase !== undefined && (await ctx.store.storedAnswer(plan)) !== undefined;
    if (
      !(await ctx.money.gate(stored ? { ...plan, worstCaseMilli: 0, costBasis: 'from the store at 0 credits' } : plan))
    )
      return;
    if (plan.worstCaseMilli === null)
      ctx.term.warn(`The cost of ${method} ${planUrl(http.baseUrl, plan).pathname} is not known in advance.`);

    const output = await ctx.output();
    const { status, data } = await sendRawRequest(http, {
      ...request,
      path: plan.path,
      query: plan.query,
      label: plan.label,
      purchase: plan.purchase,
    });
    const print = async (): Promise<void> => {
      if (data === null || data === undefined) {
        ctx.term.notice(`HTTP ${status} (no content)`);
      } else if (typeof data === 'string') {
        await printText(ctx.term, output, data.endsWith('\n') ? data : `${data}\n`);
      } else if (Array.isArray(data) || (output.format !== 'json' && output.format !== 'table' && itemsOfPage(data))) {
        // A page printed as rows (jsonl, csv, tsv): its list, without the paging envelope.
        await printList(ctx.term, output, (Array.isArray(data) ? data : (itemsOfPage(data) ?? [])).map(recordOf), []);
      } else {
        await printItem(ctx.term, output, itemOf(data));
      }
    };
    // A billable answer whose write fails (a full disk) says what it cost, as every paid command does.
    const spent = plan.worstCaseMilli === 0 ? undefined : rawSpendMilli(request, data);
    if (spent === undefined) return print();
    const { printPaid } = await import('../lib/output/paid.js');
    await printPaid(output, spent, print);
  },
});

function isMethod(value: string): value is Method {
  return (METHODS as readonly string[]).includes(value);
}
