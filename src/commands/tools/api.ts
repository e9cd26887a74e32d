import type { Context } from '../../app/context.js';
import { estimateRouteCost } from '../../lib/cost.js';
import { guardCost } from '../../app/legacy.js';
import { UsageError } from '../../lib/errors.js';
import type { Method } from '../../lib/http/client.js';
import { buildUrl } from '../../lib/http/url.js';
import { readJson } from '../../lib/input.js';
import { assignPairs } from '../../lib/options.js';
import { itemsOfPage, paginate } from '../../lib/paging.js';
import { printItem, printList, printText } from '../../lib/output/index.js';

const METHODS: readonly Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `creators api <path>`: the raw escape hatch, with the same auth, retries, money gate and output. */
export async function run(ctx: Context, [path = '']: string[], opts: Record<string, unknown>): Promise<void> {
  const fields = (opts.field as string[] | undefined) ?? [];
  const inputFile = opts.input as string | undefined;
  const method = String(opts.method ?? (fields.length || inputFile ? 'POST' : 'GET')).toUpperCase() as Method;
  if (!METHODS.includes(method)) {
    throw new UsageError(`Unknown HTTP method '${String(opts.method)}'.`, { hint: `Use one of: ${METHODS.join(', ')}.` });
  }
  if (!path.trim() || /^[a-z]+:\/\//i.test(path)) {
    throw new UsageError(`Invalid API path '${path}'.`, { hint: 'Give a path such as accounts/credits; the base URL comes from --base-url.' });
  }
  const bodyless = method === 'GET' || method === 'HEAD';
  let body: Record<string, unknown> | undefined;
  let query: Record<string, string | string[]> | undefined;
  if (bodyless) {
    if (inputFile) throw new UsageError(`--input sends a body, which ${method} requests do not have.`, { hint: 'Add -X POST.' });
    query = queryFromPairs(assignPairs(fields, '-f'));
  } else {
    const base = inputFile ? await readJson(ctx, inputFile, '--input') : {};
    if (!base || typeof base !== 'object' || Array.isArray(base)) {
      throw new UsageError('--input must hold a JSON object.');
    }
    body = assignPairs(fields, '-f', base as Record<string, unknown>);
    if (!inputFile && fields.length === 0) body = undefined;
  }

  const http = await ctx.http();
  const url = buildUrl(http.baseUrl, path, query);
  const cost = estimateRouteCost(method, url.pathname.slice(http.baseUrl.pathname.replace(/\/$/, '').length), body, query);
  const plan = { method, url: url.href, body, worstCaseMilli: cost.milli, costBasis: cost.basis };
  if (!(await guardCost(ctx, plan))) return;
  if (cost.milli === null) ctx.warn(`The cost of ${method} ${url.pathname} is not known in advance.`);

  const output = await ctx.output();
  if (opts.paginate) {
    const items = paginate(http, { method, path, query, body });
    await printList(ctx.io, output, asRecords(items), []);
    return;
  }
  const res = await http.request<unknown>({ method, path, query, body, responseType: 'json' });
  const data = res.data;
  if (data === null || data === undefined) {
    ctx.notice(`HTTP ${res.status} (no content)`);
  } else if (typeof data === 'string') {
    await printText(ctx.io, output, data.endsWith('\n') ? data : `${data}\n`);
  } else if (Array.isArray(data) || (output.format !== 'json' && itemsOfPage(data) && output.format !== 'table')) {
    await printList(ctx.io, output, asRecordsSync(Array.isArray(data) ? data : (itemsOfPage(data) ?? [])), []);
  } else {
    await printItem(ctx.io, output, data as Record<string, unknown>);
  }
}

function queryFromPairs(pairs: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const walk = (value: unknown, key: string): void => {
    if (Array.isArray(value)) out[key] = value.map(String);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${key}.${k}`);
    else out[key] = value === null ? '' : String(value);
  };
  for (const [k, v] of Object.entries(pairs)) walk(v, k);
  return out;
}

async function* asRecords(items: AsyncIterable<unknown>): AsyncGenerator<Record<string, unknown>> {
  for await (const item of items) yield toRecord(item);
}

function asRecordsSync(items: unknown[]): Record<string, unknown>[] {
  return items.map(toRecord);
}

function toRecord(item: unknown): Record<string, unknown> {
  return item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : { value: item };
}
