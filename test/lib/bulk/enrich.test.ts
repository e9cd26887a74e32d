import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/lib/api/plan.js';
import { runEnrichment, type BulkOptions, type EnrichPorts } from '../../../src/lib/bulk/enrich.js';
import { emailJob, handleJob } from '../../../src/lib/bulk/jobs.js';
import { BULK_NAMES } from '../../../src/commands/enrich/bulk-flags.js';
import { PartialFailure, UsageError } from '../../../src/lib/errors.js';
import { enrichHandlePlan } from '../../../src/lib/api/enrichment.js';
import { HttpClient } from '../../../src/lib/http/client.js';
import { answerKey, PurchaseMemoryImpl } from '../../../src/lib/store/memory.js';
import { openSqliteStore } from '../../../src/lib/store/sqlite.js';
import { Terminal } from '../../../src/lib/io/terminal.js';
import type { OutputSettings } from '../../../src/lib/output/index.js';
import { API, JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { memoryTerminal } from '../../helpers/terminal.js';
import { tempDir } from '../../helpers/temp.js';

const JSONL: OutputSettings = { format: 'jsonl', formatExplicit: true, color: false, quiet: false };

/** Ports over an in-memory terminal and a MockAgent; `gate` answers `pass` and records the plans it saw. */
function ports(o: { cwd?: string; pass?: boolean; mustCount?: boolean } = {}) {
  const api = mockApi();
  const io = memoryTerminal();
  const term = new Terminal(io, { quiet: false, color: false, debug: false, yes: false, cwd: o.cwd ?? tmpdir() });
  const http = new HttpClient({
    baseUrl: new URL(API),
    dispatcher: api.agent,
    timeoutMs: 1000,
    retries: 0,
    rateLimitPerMinute: 60_000,
    now: () => 0,
    sleep: async () => {},
  });
  const plans: Plan[] = [];
  const asked: string[] = [];
  const p: EnrichPorts = {
    term,
    http: async () => (asked.push('http'), http),
    output: async () => (asked.push('output'), JSONL),
    gate: async (plan) => (plans.push(plan), o.pass ?? true),
    mustCount: o.mustCount ?? false,
    now: () => 0,
  };
  return { p, io, api, plans, asked };
}

const bulk = (values: string[], more: Partial<BulkOptions> = {}): BulkOptions => ({
  values,
  concurrency: 2,
  named: BULK_NAMES,
  ...more,
});

describe('runEnrichment', () => {
  it('passes the whole run through the gate as one plan: example body, values x price; a refused gate sends nothing', async () => {
    const { p, io, plans } = ports({ pass: false });
    // No interceptor: a request would fail the test (MockAgent refuses real connections).
    await runEnrichment(p, handleJob({ mode: 'raw', platform: 'instagram' }), bulk([' nasa ', '', 'natgeo']));
    expect(plans).toEqual([
      {
        method: 'POST',
        path: 'creators/enrich/handle/raw',
        body: { handle: 'nasa', platform: 'instagram' },
        worstCaseMilli: 60,
        costBasis: '2 handles x 0.03',
        label: 'Enriching…',
      },
    ]);
    expect(io.out()).toBe('');
  });

  it('a first value that cannot be sent leaves the body out, but not the route or the price; it is not priced, as it is never sent', async () => {
    const { p, plans } = ports({ pass: false });
    await runEnrichment(p, emailJob({ mode: 'advanced' }), bulk(['not-an-email', 'ann@example.com']));
    expect(plans[0]).toEqual({
      method: 'POST',
      path: 'creators/enrich/email/advanced',
      body: undefined,
      worstCaseMilli: 2000,
      costBasis: '1 email x 2 (1 invalid email, not sent)',
      label: 'Enriching…',
    });
  });

  it('rows come out in input order with their status; a failed row is a partial failure after all are written', async () => {
    const { p, io, api } = ports();
    api.pool
      .intercept({ path: '/public/v1/creators/enrich/email/', method: 'POST' })
      .reply(
        200,
        (opts) => {
          const { email } = JSON.parse(String(opts.body)) as { email: string };
          return email.startsWith('ann')
            ? { result: { email, full_name: 'Ann' }, credits_cost: 0.05 }
            : { result: null, credits_cost: 0 };
        },
        JSON_HEADERS,
      )
      .persist();
    const run = runEnrichment(p, emailJob({ mode: 'basic' }), bulk(['ANN@example.com', 'bad', 'bob@example.com', ' ']));
    await expect(run).rejects.toThrow(PartialFailure);
    const rows = io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.email, r.status, r.error])).toEqual([
      ['ANN@example.com', 'ok', null],
      ['bad', 'error', "Invalid email address 'bad'."],
      ['bob@example.com', 'not_found', null],
      [' ', 'skipped', 'empty email'],
    ]);
    expect(rows[0]).toMatchObject({ result: { full_name: 'Ann' }, credits_cost: 0.05 });
  });

  it('checks the input before asking for the HTTP client or the output settings', async () => {
    const { p, asked, plans } = ports({ cwd: tempDir('creators-bulk-') });
    await expect(
      runEnrichment(p, handleJob({ mode: 'raw', platform: 'instagram' }), bulk([], { input: 'missing.csv' })),
    ).rejects.toThrow(UsageError);
    expect(asked).toEqual([]);
    expect(plans).toEqual([]);
  });

  it('counts a CSV file for the plan and reads the column it detects', async () => {
    const dir = tempDir('creators-bulk-');
    writeFileSync(join(dir, 'in.csv'), 'name,handle\nA,nasa\nB,\nC,natgeo\n');
    const { p, plans } = ports({ cwd: dir, pass: false });
    await runEnrichment(p, handleJob({ mode: 'full', platform: 'instagram' }), bulk([], { input: 'in.csv' }));
    expect(plans[0]).toMatchObject({
      path: 'creators/enrich/handle/full',
      body: { handle: 'nasa' },
      worstCaseMilli: 2000,
      costBasis: '2 handles x 1',
    });
  });
  it('a first run (nothing in the store at the count) still reuses a row another process bought before the run reached it', async () => {
    const dir = tempDir('creators-bulk-');
    writeFileSync(join(dir, 'in.csv'), 'handle\nann\nbob\ncid\n');
    const api = mockApi();
    const sent: string[] = [];
    api.pool
      .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
      .reply(
        200,
        (opts) => {
          const { handle } = JSON.parse(String(opts.body)) as { handle: string };
          sent.push(handle);
          return { result: { instagram: { username: handle } }, credits_cost: 0.03 };
        },
        JSON_HEADERS,
      )
      .persist();
    const store = await openSqliteStore({ file: join(dir, 'store.db') });
    const options = { mode: 'raw', platform: 'instagram' } as const;
    const memory = new PurchaseMemoryImpl({
      store,
      baseUrl: API,
      profile: 'default',
      command: 'enrich handle',
      maxAge: { creator: 86_400_000, page: 86_400_000 },
      now: Date.now,
      sleep: async () => {},
    });
    const http = new HttpClient({
      baseUrl: new URL(API),
      dispatcher: api.agent,
      timeoutMs: 1000,
      retries: 0,
      rateLimitPerMinute: 60_000,
      now: Date.now,
      sleep: async () => {},
      memory,
    });
    const io = memoryTerminal();
    const term = new Terminal(io, { quiet: false, color: false, debug: false, yes: false, cwd: dir });
    const plans: Plan[] = [];
    await runEnrichment(
      {
        term,
        http: async () => http,
        output: async () => JSONL,
        // Between the count and the run, another process buys bob.
        gate: async (plan) => {
          plans.push(plan);
          await store.commit(
            {
              key: answerKey(API, enrichHandlePlan('bob', options)),
              baseUrl: API,
              route: 'creators/enrich/handle/raw',
              kind: 'creator',
              platform: 'instagram',
              subject: 'bob',
              request: '{}',
              body: '{"result":{"instagram":{"username":"bob"}},"credits_cost":0.03}',
              status: 'ok',
              creditsMilli: 30,
              records: 1,
              boughtAt: Date.now(),
              profile: 'default',
            },
            ['bob'],
            undefined,
          );
          return true;
        },
        mustCount: false,
        now: Date.now,
        memory: async () => memory,
      },
      handleJob(options),
      bulk([], { input: 'in.csv' }),
    );
    await store.close();
    expect(plans[0]?.costBasis).toBe('3 handles x 0.03');
    expect(sent.sort()).toEqual(['ann', 'cid']);
    const rows = io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [(r.input as { handle: string }).handle, r.source, r.credits_cost])).toEqual([
      ['ann', 'api', 0.03],
      ['bob', 'store', 0],
      ['cid', 'api', 0.03],
    ]);
  });
});
