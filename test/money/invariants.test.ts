import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentCount } from '../../src/sandbox/enrichment/posts.js';
import { parseFaultSpec } from '../../src/sandbox/faults/rules.js';
import { setFaults } from '../../src/sandbox/faults/engine.js';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { runCli, type RunResult } from '../helpers/run-cli.js';
import { sandboxEnv, type StartedSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { abortAfterCharges, figures, reportedSpendMilli } from '../reliability/helpers.js';
import { expectInPageOrder } from './helpers.js';

/**
 * The money invariants of the paging families, each run against a fresh sandbox with a fault or an
 * interruption part-way:
 *   (a) the sandbox ledger equals what the CLI reports spent, plus only what the CLI says "may have
 *       been charged" (a reply lost after the server charged it);
 *   (b) every record paid for is in the output, in the complete run's order (same seed), as many as
 *       were paid for (a prefix when pages come one at a time);
 *   (d) the exit code is non-zero whenever the output is incomplete, and zero only when it is whole.
 * (c), a re-run never paying twice, belongs to the resumable families (bulk enrichment, batch run),
 * whose own tests check it against the ledger.
 */

interface Family {
  name: string;
  args: (out: string, sb: StartedSandbox) => string[];
  /** Thousandths of a credit per record (Discovery) or per request (comments: one page). */
  unit: 'record' | 'request';
  priceMilli: number;
  /** Records in one full page. */
  pageSize: number;
  /** The record's identity, to compare outputs. */
  id: (record: Record<string, unknown>) => string;
}

const SEED = 57;
const BASE: SandboxOptions = { seed: SEED, rateLimit: 100_000, credits: 10_000, dailyDiscoveryLimit: 10_000 };

/** An Instagram post with at least 100 comments under the seed (4+ pages of 25). */
const BUSY_POST = ((): string => {
  for (let i = 0; ; i++) if (commentCount(SEED, 'instagram', `Cpost${i}`) >= 100) return `Cpost${i}`;
})();

const creatorId = (r: Record<string, unknown>): string =>
  String((r.profile as { username?: string } | undefined)?.username ?? r.user_id);
const FAMILIES: Family[] = [
  {
    name: 'search --all',
    args: (out) => ['search', '--platform', 'instagram', '--all', '--limit', '20', '--max-results', '200', '-o', out],
    unit: 'record',
    priceMilli: 10,
    pageSize: 20,
    id: creatorId,
  },
  {
    name: 'similar --all',
    args: (out, sb) => [
      'similar',
      String(sb.state.creators.list('tiktok')[0]?.profile.username),
      '--platform',
      'tiktok',
      '--all',
      '--limit',
      '20',
      '--max-results',
      '200',
      '-o',
      out,
    ],
    unit: 'record',
    priceMilli: 10,
    pageSize: 20,
    id: creatorId,
  },
  {
    name: 'post --kind comments --all',
    args: (out) => [
      'post',
      BUSY_POST,
      '--platform',
      'instagram',
      '--kind',
      'comments',
      '--all',
      '--max-pages',
      '8',
      '-o',
      out,
    ],
    unit: 'request',
    priceMilli: 30,
    pageSize: 25,
    id: (r) => `${String(r.username)}:${String(r.text)}`,
  },
];

interface Scenario {
  name: string;
  options?: SandboxOptions;
  faults?: string;
  /** Ctrl-C once this many charges are in the ledger. */
  interruptAfterCharges?: number;
  /** The run is expected to finish whole despite the fault (a retried 503). */
  whole?: boolean;
}

const SCENARIOS: Scenario[] = [
  { name: 'no fault', whole: true },
  { name: '402 part-way', options: { credits: 0.1 } },
  { name: 'a 503 on the third request (retried)', faults: '503 POST * after=2 count=1', whole: true },
  { name: 'a 500 on the fourth request', faults: '500 POST * after=3 count=1' },
  { name: 'the fourth reply lost after the charge', faults: 'drop-after POST * after=3 count=1' },
  { name: 'the fourth reply cut short', faults: 'truncate POST * after=3 count=1' },
  { name: 'the fourth reply not JSON', faults: 'malformed POST * after=3 count=1' },
  { name: 'Ctrl-C after two charges', faults: 'delay:60 POST *', interruptAfterCharges: 2 },
];

function read(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
}

async function runFamily(
  family: Family,
  scenario: Scenario,
): Promise<{ res: RunResult; records: Record<string, unknown>[]; ledgerMilli: number; lostMilli: number }> {
  const sb = await startSandbox({ port: 0, ...BASE, ...scenario.options });
  try {
    if (scenario.faults) setFaults(sb.state, parseFaultSpec(scenario.faults));
    const out = join(tempDir('creators-inv-'), 'out.json');
    const ctrlC = abortAfterCharges(sb, scenario.interruptAfterCharges);
    const res = await runCli(family.args(out, sb), { env: sandboxEnv(sb), stderrTTY: true, signal: ctrlC.signal });
    ctrlC.stop();
    const lostRequests = figures(sb).charged_then_lost;
    // The scenario really happened (a rule that matches nothing would make the test vacuous).
    if (scenario.faults && !scenario.faults.startsWith('delay'))
      expect(figures(sb).total, scenario.name).toBeGreaterThan(0);
    const lostMilli =
      family.unit === 'request' ? lostRequests * family.priceMilli : lostRequests * family.pageSize * family.priceMilli;
    return { res, records: read(out), ledgerMilli: sb.state.ledger.usedMilli, lostMilli };
  } finally {
    await sb.close();
  }
}

describe.each(FAMILIES)('money invariants: $name', (family) => {
  let reference: Record<string, unknown>[] | undefined;
  const complete = async (): Promise<Record<string, unknown>[]> => {
    reference ??= (await runFamily(family, { name: 'reference' })).records;
    return reference;
  };

  it.each(SCENARIOS)('$name', async (scenario) => {
    const whole = await complete();
    expect(whole.length).toBeGreaterThan(family.pageSize * 2);
    const { res, records, ledgerMilli, lostMilli } = await runFamily(family, scenario);
    const context = `exit ${res.code}\n${res.stderr}`;

    // (a) what the ledger took = what the CLI said it spent + what it said may have been charged.
    const reported = reportedSpendMilli(res.stderr);
    expect(ledgerMilli, context).toBe(reported + lostMilli);
    if (lostMilli > 0) expect(res.stderr, context).toMatch(/may have been (processed|charged)/);

    // (b) every paid record is in the output, in the complete run's order, as many as were paid for.
    const paidRecords = family.unit === 'record' ? reported / family.priceMilli : undefined;
    if (paidRecords !== undefined) expect(records, context).toHaveLength(paidRecords);
    else
      expect(records.length, context).toBeGreaterThanOrEqual(
        Math.max(0, reported / family.priceMilli - 1) * family.pageSize,
      );
    expectInPageOrder(records.map(family.id), whole.map(family.id), context);

    // (d) non-zero exactly when the output is not the whole result.
    if (records.length < whole.length) expect(res.code, context).not.toBe(0);
    if (scenario.whole) {
      expect(res.code, context).toBe(0);
      expect(records.length).toBe(whole.length);
    }
    // A stopped run says what it spent in its stop line.
    if (res.code !== 0) expect(res.stderr, context).toMatch(/Spent [\d.,]+ credits? in this run; /);
  });
});
