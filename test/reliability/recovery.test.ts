import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type RunOptions } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { faults, figures, ledgerMark, reportedSpendMilli } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Every command family through injected faults, in process (instant sleeps): safe requests recover
 * on their own; a billable POST that may have reached the server is never replayed; the ledger's
 * charges equal what the CLI reports spent.
 */
const sb = useSandbox({ seed: 11, credits: 100_000, dailyDiscoveryLimit: 100_000, rateLimit: 100_000 });
const env = (): Record<string, string> => sandboxEnv(sb.get());
const run = (argv: string[], extra: RunOptions = {}) => runCli(argv, { env: env(), ...extra });
const handles = (n: number, from = 0): string[] =>
  sb
    .get()
    .state.creators.list('instagram')
    .slice(from, from + n)
    .map((c) => c.profile.username);
const dir = (): string => tempDir('creators-rel-');

afterEach(() => faults(sb.get(), ''));

const SAFE_KINDS = [
  'drop-before',
  'drop-after',
  '500',
  '502',
  '503',
  '504',
  '429:0',
  '429:none',
  'truncate',
  'malformed',
  'trickle:2',
  'delay:2',
];

describe('safe requests recover on their own', () => {
  it.each(SAFE_KINDS)('GET through %s x3 still succeeds (retry budget 3)', async (kind) => {
    faults(sb.get(), `${kind} GET /public/v1/accounts/credits/ count=3`);
    const res = await run(['credits', '--json']);
    expect(res.stderr).not.toContain('Error');
    expect(res.code).toBe(0);
    expect(res.json<Record<string, unknown>>()).toHaveProperty('credits_available');
    // A slow or late reply is still a reply: only the first request was touched.
    expect(figures(sb.get()).total).toBe(/trickle|delay/.test(kind) ? 1 : 3);
  });

  it('gives up with exit 1 and a clear message when the faults outlast the budget', async () => {
    faults(sb.get(), '502 GET /public/v1/accounts/credits/');
    const res = await run(['credits', '--retries', '1']);
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(figures(sb.get()).total).toBe(2);
  });

  it.each([
    [['dict', 'languages', '--json']],
    [['exclusions', 'list', '--json']],
    [['keys', 'list', '--json']],
    [['apps', 'list', '--json']],
    [['listening', 'subscriptions', 'list', '--json']],
    [['listening', 'usage', '--json']],
    [['events', 'list', '--json']],
    [['api', 'accounts/credits']],
  ])('%j recovers from a 503, a cut body and a dropped connection in a row', async (argv) => {
    faults(sb.get(), '503 GET count=1; truncate GET count=1; drop-before GET count=1');
    const res = await run(argv);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(() => res.json()).not.toThrow();
    expect(figures(sb.get()).total).toBe(3);
  });
});

const BILLABLE: [string, string, () => string[]][] = [
  ['search', '/public/v1/discovery/', () => ['search', '--platform', 'instagram', '--limit', '5', '--json']],
  [
    'similar',
    '/public/v1/discovery/creators/similar/',
    () => [
      'similar',
      handles(1, 40)[0] as string,
      '--platform',
      'instagram',
      '--by',
      'username',
      '--limit',
      '5',
      '--json',
    ],
  ],
  [
    'enrich handle',
    '/public/v1/creators/enrich/handle/raw/',
    () => ['enrich', 'handle', handles(1, 3)[0] as string, '--platform', 'instagram', '--mode', 'raw', '--json'],
  ],
  ['enrich email', '/public/v1/creators/enrich/email/', () => ['enrich', 'email', 'someone@example.com', '--json']],
  ['post', '/public/v1/creators/content/details/', () => ['post', 'C0abcdEFG12', '--platform', 'instagram', '--json']],
];

describe('a billable POST that may have reached the server is never replayed', () => {
  const cases = BILLABLE.flatMap(([name, path, argv]) =>
    ['drop-before', 'drop-after', 'truncate', 'malformed', '500', '502', '504'].map(
      (kind) => [name, kind, path, argv] as const,
    ),
  );
  it.each(cases)(
    '%s through %s: one request, exit 1, says it may have been charged',
    async (_name, kind, path, argv) => {
      faults(sb.get(), `${kind} POST ${path}`);
      const mark = ledgerMark(sb.get());
      const res = await run(argv());
      expect(res.code).toBe(1);
      // Scripts read it from the JSON error: the request may have been charged and was not retried.
      const error = res.errorJson().error as Record<string, unknown>;
      expect(error.maybe_charged).toBe(true);
      expect(String(error.hint)).toMatch(/not retried automatically/);
      expect(res.stdout).toBe('');
      const fig = figures(sb.get());
      expect(fig.rules[0]?.matched).toBe(1); // the server saw it exactly once
      // Before-faults never reach the handler: nothing charged. After-faults: at most once, never twice.
      if (!['drop-after', 'truncate', 'malformed'].includes(kind)) expect(mark.since().count).toBe(0);
      expect(mark.since().count).toBeLessThanOrEqual(1);
    },
  );

  it.each(BILLABLE)(
    '%s refused unstarted (503, 429 with and without retry_after) is retried and charged once',
    async (_name, path, argv) => {
      faults(sb.get(), `503 POST ${path} count=1; 429:0 POST ${path} count=1; 429:none POST ${path} count=1`);
      const mark = ledgerMark(sb.get());
      const res = await run(argv(), { stderrTTY: true });
      expect(res.code).toBe(0);
      expect(figures(sb.get()).total).toBe(3);
      const spent = mark.since();
      expect(spent.count).toBeLessThanOrEqual(1);
      expect(reportedSpendMilli(res.stderr)).toBe(spent.milli);
    },
  );
});

describe('charges equal what the CLI reports spent, under chaos', () => {
  it('search --all under 503/429 bursts: every page charged once, the summary matches the ledger', async () => {
    faults(sb.get(), '503 POST /public/v1/discovery/ p=0.3; 429:none POST p=0.2; delay:1 p=0.2');
    const mark = ledgerMark(sb.get());
    const out = join(dir(), 'found.jsonl');
    const res = await run(
      ['search', '--platform', 'youtube', '--limit', '10', '--all', '--max-results', '80', '--retries', '8', '-o', out],
      { stderrTTY: true },
    );
    expect(res.code).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { user_id?: string; profile?: { username?: string } });
    expect(rows).toHaveLength(80);
    expect(new Set(rows.map((r) => JSON.stringify(r))).size).toBe(80);
    const spent = mark.since();
    expect(spent.count).toBe(8);
    expect(reportedSpendMilli(res.stderr)).toBe(spent.milli);
    expect(figures(sb.get()).total).toBeGreaterThan(0);
  });

  it('enrich --input with lost replies: ledger = reported credits_cost + the lost-after-charge, no handle charged twice', async () => {
    const names = handles(30, 100);
    const d = dir();
    const input = join(d, 'in.csv');
    writeFileSync(input, `handle,note\n${names.map((h, i) => `${h},row ${i}`).join('\n')}\n`);
    const before = readFileSync(input);
    faults(
      sb.get(),
      'drop-after POST /public/v1/creators/enrich/** p=0.15; 503 POST p=0.2; truncate POST /public/v1/creators/enrich/** p=0.1; 429:0 POST p=0.1',
    );
    const mark = ledgerMark(sb.get());
    const out = join(d, 'out.jsonl');
    const res = await run([
      'enrich',
      'handle',
      '--input',
      input,
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '-o',
      out,
      '--retries',
      '8',
    ]);
    const fig = figures(sb.get());
    expect(fig.charged_then_lost).toBeGreaterThan(0);
    expect(res.code).toBe(3);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { input: { handle: string }; credits_cost: number; status: string });
    expect(rows.map((r) => r.input.handle)).toEqual(names); // every row kept, in order
    const reported = rows.reduce((sum, r) => sum + Math.round(r.credits_cost * 1000), 0);
    const spent = mark.since();
    expect(spent.milli).toBe(reported + fig.charged_then_lost * 30);
    expect(new Set(spent.notes).size).toBe(spent.notes.length);
    expect(rows.filter((r) => r.status === 'error')).toHaveLength(fig.charged_then_lost);
    expect(readFileSync(input).equals(before)).toBe(true);
  });
});

describe('batch: poll and download through faults', () => {
  it('poll keeps going through GET faults; download survives a link expiring mid-stream and cut transfers', async () => {
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const { startSandbox } = await import('../../src/sandbox/server.js');
    const local = await startSandbox({ port: 0, seed: 3, now: () => clock, batchRowsPerSecond: 50, credits: 1000 });
    try {
      const opts: RunOptions = { env: sandboxEnv(local), now: () => clock, onSleep: (ms) => (clock += ms) };
      const d = dir();
      const input = join(d, 'in.csv');
      writeFileSync(
        input,
        `handle\n${local.state.creators
          .list('instagram')
          .slice(0, 300)
          .map((c) => c.profile.username)
          .join('\n')}\n`,
      );
      const id = (
        await runCli(['batch', 'upload', input, '--mode', 'raw', '--platform', 'instagram'], opts)
      ).stdout.trim();
      faults(
        local,
        '503 GET /public/v1/enrichment/batch/** p=0.3; drop-after GET p=0.2; malformed GET p=0.1; 429:none GET p=0.1',
      );
      // Even with no HTTP retries at all, a long poll waits out passing failures (status reads are free).
      const poll = await runCli(['batch', 'poll', id, '--interval', '2', '--retries', '0'], opts);
      expect(poll.code).toBe(0);
      expect(figures(local).total).toBeGreaterThan(0);
      const mark = ledgerMark(local);
      faults(local, 'expire GET target=files count=1; truncate GET target=files count=1; 503 GET target=files count=1');
      const out = join(d, 'out.csv');
      const res = await runCli(['batch', 'download', id, '-o', out], opts);
      expect(res.code).toBe(0);
      expect(res.stderr).toContain('has expired; asking for a new one');
      const { resultsCsv } = await import('../../src/sandbox/batch/files.js');
      const { batchWorld } = await import('../../src/sandbox/batch/jobs.js');
      expect(readFileSync(out, 'utf8')).toBe(resultsCsv(batchWorld(local.state).jobs.get(id)!).toString());
      expect(readdirSync(d).sort()).toEqual(['in.csv', 'out.csv']);
      expect(figures(local).injected).toEqual({ expire: 1, truncate: 1, '503': 1 });
      expect(mark.since().count).toBe(0); // downloads are free, and the job was charged once
      expect(local.state.ledger.charges.filter((c) => c.note.startsWith(`batch ${id}`)).length).toBeGreaterThan(0);

      // A server that keeps failing still ends the poll: exit 1 after 10 failed readings in a row.
      faults(local, '502 GET /public/v1/enrichment/batch/**');
      const broken = await runCli(['batch', 'poll', id, '--interval', '2', '--retries', '0'], opts);
      expect(broken.code).toBe(1);
      expect(figures(local).total).toBe(10);
    } finally {
      await local.close();
    }
  });
});
