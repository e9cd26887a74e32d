/**
 * The sandbox against the requests the official clients send, replayed with the shapes read from their
 * sources (not their code): the n8n node (Influencers-Club/n8n-nodes-influencersclub, 1.1.4: its four batch
 * operations on the legacy `creators/enrich/public/` routes, its Discovery body) and the MCP server's API
 * client (Influencers-Club/influencers-club-mcp: a multipart batch of `batch.csv`, `?format=json` results).
 * Each request is checked for status and shape, and the ledger for one charge per row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { sandboxFinds } from '../../src/sandbox/batch/results.js';
import { CHARGED_MILLI, MODE_PRICE, PRICES } from '../../src/contract/prices.js';
import { testClock } from '../commands/batch/helpers.js';

type Sb = Awaited<ReturnType<typeof startSandbox>>;

// One sandbox for the file (its synthetic creators take seconds to generate), on a clock the tests move
// forward; ledger checks compare what each test added.
const clock = testClock();
let shared: Sb | undefined;
beforeAll(async () => {
  shared = await startSandbox({ port: 0, now: clock.now, credits: 1000, batchRowsPerSecond: 10 });
});
afterAll(async () => {
  await shared?.close();
});

/** Runs `fn` with the balance set to `credits` and the charges so far forgotten (the history stays in the ledger). */
async function withSandbox(fn: (sb: Sb, c: typeof clock) => Promise<void>, credits = 1000): Promise<void> {
  const sb = shared as Sb;
  sb.state.ledger.balanceMilli = credits * 1000;
  sb.state.ledger.usedMilli = 0;
  sb.state.ledger.charges.length = 0;
  await fn(sb, clock);
}

interface Answer {
  status: number;
  body: any;
}

/** A JSON request as both clients send one (n8n's httpRequest with `json: true`, the MCP's httpx): Bearer key, JSON in and out. */
async function call(sb: Sb, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${sb.apiKey}`, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The MCP client's multipart batch create: `file` as batch.csv (text/csv) and string fields. */
async function mcpBatch(sb: Sb, csv: string, fields: Record<string, string>): Promise<Answer> {
  const form = new FormData();
  form.set('file', new Blob([csv], { type: 'text/csv' }), 'batch.csv');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const res = await fetch(`${sb.url}/public/v1/enrichment/batch/`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${sb.apiKey}`, accept: 'application/json' },
  });
  return { status: res.status, body: await res.json() };
}

/** Emails of the sandbox's own creators (found by email enrichment), then one nobody has. */
function emails(sb: Sb, n: number): string[] {
  const withEmail = sb.state.creators
    .list('instagram')
    .filter((c) => c.email)
    .slice(0, n);
  return [...withEmail.map((c) => c.email as string), 'nobody-here@example.com'];
}

const batchCharges = (sb: Sb): number =>
  sb.state.ledger.charges
    .filter((c) => c.route === '/public/v1/enrichment/batch/')
    .reduce((sum, c) => sum + c.milli, 0);
const EMAIL_BASIC_MILLI = CHARGED_MILLI[MODE_PRICE.basic];

describe('the n8n node: its four batch operations on the legacy routes', () => {
  it('create, status, download and resume answer as the documented batch routes do; each found row is charged once', async () => {
    await withSandbox(async (sb, clock) => {
      const list = emails(sb, 3);
      const found = list.filter((e) =>
        sandboxFinds(sb.state, { seed: sb.state.seed, kind: 'email', mode: 'basic', platform: null }, e),
      ).length;
      expect(found).toBeGreaterThan(0);

      // Create Batch Enrichment: the emails field split on lines/commas, sent as {"emails": [...]}.
      const created = await call(sb, 'POST', '/public/v1/creators/enrich/public/', { emails: list });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ status: 'validating', total_rows: list.length, platform: null });
      const id = created.body.batch_id as string;
      expect(id).toMatch(/^bch_[0-9a-f]{32}$/);

      // Get Batch Enrichment Status: GET .../public/{encodeURIComponent(id)}/
      clock.advance(60_000);
      const status = await call(sb, 'GET', `/public/v1/creators/enrich/public/${encodeURIComponent(id)}/`);
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({
        batch_id: id,
        status: 'finished',
        total_rows: list.length,
        processed_rows: list.length,
        success_count: found,
      });
      expect(typeof status.body.credits_used).toBe('string');

      // Download Batch Enrichment Results: the link, which serves every row once.
      const link = await call(sb, 'GET', `/public/v1/creators/enrich/public/${encodeURIComponent(id)}/download/`);
      expect(link.status).toBe(200);
      expect(link.body).toMatchObject({ batch_id: id, total_results: list.length });
      const file = await (await fetch(link.body.download_url as string)).text();
      expect(file.trim().split(/\r?\n/)).toHaveLength(list.length + 1);

      // Resume Batch Enrichment on a finished job: refused as the documented route refuses it, nothing charged.
      const resume = await call(sb, 'POST', `/public/v1/creators/enrich/public/${encodeURIComponent(id)}/resume/`, {});
      expect(resume.status).toBe(400);
      expect(batchCharges(sb)).toBe(found * EMAIL_BASIC_MILLI);
      expect(sb.state.ledger.usedMilli).toBe(found * EMAIL_BASIC_MILLI);
    });
  });

  it('a job paused for credits resumes through the legacy route, and no row is charged twice', async () => {
    await withSandbox(async (sb, clock) => {
      const list = emails(sb, 4);
      const found = list.filter((e) =>
        sandboxFinds(sb.state, { seed: sb.state.seed, kind: 'email', mode: 'basic', platform: null }, e),
      ).length;
      expect(found).toBeGreaterThan(1);
      const id = (await call(sb, 'POST', '/public/v1/creators/enrich/public/', { emails: list })).body
        .batch_id as string;
      clock.advance(60_000);
      const paused = await call(sb, 'GET', `/public/v1/creators/enrich/public/${id}/`);
      expect(paused.body.status).toBe('paused_insufficient_credits');
      const paidBefore = batchCharges(sb);
      expect(paidBefore).toBe(EMAIL_BASIC_MILLI);
      sb.state.ledger.balanceMilli = 1000_000;
      const resumed = await call(sb, 'POST', `/public/v1/creators/enrich/public/${id}/resume/`, {});
      expect(resumed.status).toBe(200);
      expect(resumed.body).toMatchObject({ batch_id: id });
      clock.advance(60_000);
      const done = await call(sb, 'GET', `/public/v1/creators/enrich/public/${id}/`);
      expect(done.body).toMatchObject({ status: 'finished', success_count: found });
      expect(batchCharges(sb)).toBe(found * EMAIL_BASIC_MILLI);
    }, EMAIL_BASIC_MILLI / 1000);
  });

  it('a create without emails, or not a list, is a field error; an unknown batch is 404 on every legacy route', async () => {
    await withSandbox(async (sb) => {
      for (const body of [{}, { emails: [] }, { emails: 'a@b.co' }, { emails: [' '] }, { emails: [1] }]) {
        const res = await call(sb, 'POST', '/public/v1/creators/enrich/public/', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(Object.keys(res.body.error ?? res.body)).toContain('emails');
      }
      const unknown = 'bch_00000000000000000000000000000000';
      expect((await call(sb, 'GET', `/public/v1/creators/enrich/public/${unknown}/`)).status).toBe(404);
      expect((await call(sb, 'GET', `/public/v1/creators/enrich/public/${unknown}/download/`)).status).toBe(404);
      expect((await call(sb, 'POST', `/public/v1/creators/enrich/public/${unknown}/resume/`, {})).status).toBe(404);
      expect(sb.state.ledger.usedMilli).toBe(0);
    });
  });
});

describe('batch files as RFC 4180 writes them', () => {
  it('a quoted value with a line break (and one with a comma) is one row, billed at most once', async () => {
    await withSandbox(async (sb, clock) => {
      const creators = sb.state.creators.list('instagram');
      const [a, b, c] = [0, 1, 2].map((i) => creators[i]!.profile.username);
      // As Python's csv.writer (the MCP client's) quotes: CRLF line ends, quotes only where needed.
      const csv = `handle\r\n${a}\r\n"${b}\r\nsecond line of one value"\r\n"${c}, with a comma"\r\n${c}\r\n`;
      const created = await mcpBatch(sb, csv, { enrichment_mode: 'raw', platform: 'instagram' });
      expect(created.status).toBe(200);
      expect(created.body.total_rows).toBe(4);
      clock.advance(60_000);
      const rows = await call(sb, 'GET', `/public/v1/enrichment/batch/${created.body.batch_id}/?format=json`);
      expect(rows.body.map((r: { input_value: string }) => r.input_value)).toEqual([
        a,
        `${b}\r\nsecond line of one value`,
        `${c}, with a comma`,
        c,
      ]);
      const success = rows.body.filter((r: { status: string }) => r.status === 'success').length;
      expect(batchCharges(sb)).toBe(success * CHARGED_MILLI[MODE_PRICE.raw]);
      expect(success).toBeLessThanOrEqual(4);
    });
  });

  it('a file that is not valid CSV (an unclosed quote) is a field error naming the file, nothing charged', async () => {
    await withSandbox(async (sb) => {
      const res = await mcpBatch(sb, 'handle\r\n"never closed\r\nnasa\r\n', {
        enrichment_mode: 'raw',
        platform: 'instagram',
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.error)).toEqual(['file']);
      expect(sb.state.ledger.usedMilli).toBe(0);
    });
  });
});

describe('the MCP client: a multipart email batch', () => {
  it('exclude_platforms and min_followers are accepted and ignored: the same rows as without them, charged once each', async () => {
    await withSandbox(async (sb, clock) => {
      const list = emails(sb, 3);
      const csv = `email\r\n${list.join('\r\n')}\r\n`;
      const plain = await mcpBatch(sb, csv, { enrichment_mode: 'basic' });
      const withFields = await mcpBatch(sb, csv, {
        enrichment_mode: 'basic',
        exclude_platforms: 'instagram',
        min_followers: '100000',
      });
      expect(plain.status).toBe(200);
      expect(withFields.status).toBe(200);
      expect(withFields.body).toMatchObject({
        status: 'validating',
        total_rows: list.length,
        enrichment_mode: 'basic',
      });
      clock.advance(60_000);
      const results = await Promise.all(
        [plain, withFields].map((c) => call(sb, 'GET', `/public/v1/enrichment/batch/${c.body.batch_id}/?format=json`)),
      );
      expect(results[1]!.body).toEqual(results[0]!.body);
      const found = results[0]!.body.filter((r: { status: string }) => r.status === 'success').length;
      expect(found).toBeGreaterThan(0);
      expect(batchCharges(sb)).toBe(2 * found * EMAIL_BASIC_MILLI);
    });
  });
});

describe('Discovery ai_search as the n8n node sends it', () => {
  it('an ordinary phrase ("cooking") finds creators, whose names, bios or niches hold the word; charged per creator', async () => {
    await withSandbox(async (sb) => {
      for (const brief of ['cooking', 'travelling vlogs', 'yoga']) {
        const before = sb.state.ledger.usedMilli;
        const body = {
          platform: 'instagram',
          paging: { limit: 20, page: 0 },
          sort: { sort_by: 'relevancy', sort_order: 'desc' },
          filters: { ai_search: brief },
        };
        const res = await call(sb, 'POST', '/public/v1/discovery/', body);
        expect(res.status).toBe(200);
        expect(res.body.accounts.length, brief).toBeGreaterThan(0);
        expect(res.body.total).toBeGreaterThanOrEqual(res.body.accounts.length);
        expect(sb.state.ledger.usedMilli - before).toBe(
          res.body.accounts.length * PRICES.discoveryPerCreator.chargedMilli,
        );
      }
      // Food & Drink creators are what "cooking" should bring.
      const res = await call(sb, 'POST', '/public/v1/discovery/', {
        platform: 'instagram',
        paging: { limit: 50, page: 0 },
        filters: { ai_search: 'cooking' },
      });
      const handles = new Set(res.body.accounts.map((a: { profile: { username: string } }) => a.profile.username));
      const niches = sb.state.creators
        .list('instagram')
        .filter((c) => handles.has(c.profile.username))
        .map((c) => c.niche);
      expect(niches.length).toBeGreaterThan(0);
      expect(niches.every((n) => n === 'Food & Drink')).toBe(true);
      // An empty brief, as n8n sends when none was given, filters nothing.
      const all = await call(sb, 'POST', '/public/v1/discovery/', {
        platform: 'instagram',
        paging: { limit: 1, page: 0 },
        filters: { ai_search: '' },
      });
      expect(all.body.total).toBeGreaterThan(res.body.total);
    });
  });
});

describe("the MCP client's single requests", () => {
  it('every shape it sends is answered 200, each paid one charged once at its contract price', async () => {
    await withSandbox(async (sb) => {
      const [h1, h2] = sb.state.creators
        .list('instagram')
        .slice(0, 2)
        .map((c) => c.profile.username);
      const paid: Array<[path: string, body: unknown, milli: number | ((answer: any) => number)]> = [
        // filters is null when the MCP has none (api-contract §3).
        [
          '/public/v1/discovery/',
          {
            platform: 'instagram',
            paging: { limit: 5, page: 1 },
            sort: { sort_by: 'relevancy', sort_order: 'desc' },
            filters: null,
          },
          (a) => a.accounts.length * PRICES.discoveryPerCreator.chargedMilli,
        ],
        [
          '/public/v1/discovery/creators/similar/',
          { platform: 'instagram', filter_key: 'username', filter_value: h1, paging: { limit: 5, page: 1 } },
          (a) => a.accounts.length * PRICES.similarPerCreator.chargedMilli,
        ],
        [
          '/public/v1/creators/audience/overlap/',
          { platform: 'instagram', creators: [h1, h2] },
          PRICES.audienceOverlap.chargedMilli,
        ],
        ['/public/v1/creators/socials/', { platform: 'instagram', handle: h1 }, PRICES.connectedSocials.chargedMilli],
        [
          '/public/v1/creators/enrich/handle/full/',
          {
            handle: h1,
            platform: 'instagram',
            email_required: 'preferred',
            include_lookalikes: false,
            include_audience_data: true,
          },
          CHARGED_MILLI[MODE_PRICE.full],
        ],
        [
          '/public/v1/creators/enrich/handle/profile/',
          { handle: h1, platform: 'instagram', email_required: 'preferred' },
          CHARGED_MILLI[MODE_PRICE.profile],
        ],
        [
          '/public/v1/creators/enrich/handle/analytics/',
          { handle: h1, platform: 'instagram', include_lookalikes: false },
          CHARGED_MILLI[MODE_PRICE.analytics],
        ],
        [
          '/public/v1/creators/enrich/handle/raw/',
          { handle: h1, platform: 'instagram' },
          CHARGED_MILLI[MODE_PRICE.raw],
        ],
        // n8n's credential test: an address nobody has, answered without a charge.
        ['/public/v1/creators/enrich/email/', { email: 'test@example.com' }, 0],
      ];
      for (const [path, body, price] of paid) {
        const before = sb.state.ledger.usedMilli;
        const res = await call(sb, 'POST', path, body);
        expect(res.status, path).toBe(200);
        expect(sb.state.ledger.usedMilli - before, path).toBe(typeof price === 'function' ? price(res.body) : price);
      }
      for (const path of [
        '/public/v1/accounts/credits/',
        '/public/v1/discovery/classifier/languages/',
        '/public/v1/discovery/classifier/brands/?search=nike&offset=0',
      ]) {
        expect((await call(sb, 'GET', path)).status, path).toBe(200);
      }
    });
  });
});
