import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { setFaults } from '../../src/sandbox/faults/engine.js';
import { parseFaultSpec } from '../../src/sandbox/faults/rules.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { abortAfterCharges, figures } from '../reliability/helpers.js';

/**
 * The money invariants of bulk enrichment, the resumable family: a run stopped or spoiled part-way,
 * then the same command again (the sandbox's balance topped up where the stop was a 402):
 *   (a) the first run's reported spend (its stop line or summary) is what the ledger took, plus only
 *       replies it said may have been charged;
 *   (b) every row paid for is in the output, with its answer;
 *   (c) the re-run pays only for rows never answered: no row is charged twice, except a row whose
 *       reply was lost after the charge (which the first run reported as "may have been processed");
 *   (d) the exit code is non-zero whenever the output is incomplete, zero once it is whole.
 */

interface Scenario {
  name: string;
  /** Starting balance in thousandths (raw is 30 a row). */
  balanceMilli?: number;
  faults?: string;
  /** Ctrl-C once this many rows were charged. */
  interruptAfterCharges?: number;
}

const ROWS = 30;
const SCENARIOS: Scenario[] = [
  { name: '402 after 12 rows', balanceMilli: 12 * 30 },
  { name: 'a 500 on some rows (row errors, exit 3)', faults: '500 POST /public/v1/creators/enrich/** after=5 count=3' },
  { name: 'a reply lost after the charge', faults: 'drop-after POST /public/v1/creators/enrich/** after=7 count=1' },
  { name: 'a reply that is not JSON', faults: 'malformed POST /public/v1/creators/enrich/** after=9 count=1' },
  { name: 'Ctrl-C after 10 charges', faults: 'delay:20 POST /public/v1/creators/enrich/**', interruptAfterCharges: 10 },
];

describe.each(SCENARIOS)('bulk enrichment money invariants: $name', (scenario) => {
  it('ledger = reported (+ maybe charged); paid rows kept; the re-run pays no answered row again; exit non-zero until whole', async () => {
    const sb = await startSandbox({ port: 0, seed: 61, rateLimit: 100_000, credits: 1000 });
    try {
      if (scenario.balanceMilli !== undefined) sb.state.ledger.balanceMilli = scenario.balanceMilli;
      if (scenario.faults) setFaults(sb.state, parseFaultSpec(scenario.faults));
      const names = sb.state.creators
        .list('instagram')
        .slice(0, ROWS)
        .map((c) => c.profile.username);
      const dir = tempDir('creators-resume-inv-');
      const input = join(dir, 'in.csv');
      const out = join(dir, 'out.csv');
      writeInput(input, names);
      const configDir = tempConfigDir();
      const args = [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        input,
        '-o',
        out,
        '--concurrency',
        '3',
      ];
      const ctrlC = abortAfterCharges(sb, scenario.interruptAfterCharges);
      const first = await runCli(args, { env: sandboxEnv(sb), configDir, stderrTTY: true, signal: ctrlC.signal });
      ctrlC.stop();
      const context = `first run: exit ${first.code}\n${first.stderr}`;
      const lost = figures(sb).charged_then_lost;
      // The scenario really happened (a rule that matches nothing would make this test vacuous).
      if (scenario.faults && !scenario.faults.startsWith('delay'))
        expect(figures(sb).total, context).toBeGreaterThan(0);
      if (scenario.balanceMilli !== undefined || scenario.interruptAfterCharges !== undefined)
        expect(first.code, context).not.toBe(0);

      // (a) what the ledger took = the one spend figure the run reported + replies it said may have been charged.
      expect(sb.state.ledger.usedMilli, context).toBe(reportedMilli(first.stderr) + lost * 30);
      if (lost > 0) expect(first.stderr, context).toMatch(/may have been (processed|charged)/);

      // (b) every row charged and answered is in the output with its answer.
      const rows = parse(readFileSync(out), { columns: true }) as { handle: string; status: string }[];
      const answered = rows.filter((r) => r.status === 'ok' || r.status === 'not_found').map((r) => r.handle);
      const charged = perHandle(sb.state.ledger.charges.map((c) => c.note));
      expect([...charged.keys()].filter((h) => !answered.includes(h)).length, context).toBe(lost);

      // (d) incomplete output, non-zero exit.
      if (answered.length < ROWS) expect(first.code, context).not.toBe(0);

      // (c) the re-run (faults cleared, balance topped up) completes and pays only for the rest.
      setFaults(sb.state, []);
      sb.state.ledger.balanceMilli = 1_000_000;
      const again = await runCli(args, { env: sandboxEnv(sb), configDir, stderrTTY: true });
      expect(again.code, `re-run: ${again.stderr}`).toBe(0);
      if (answered.length > 0)
        expect(again.stderr).toContain(
          `${answered.length} of ${ROWS} rows from the store (bought within 14 days): 0 credits`,
        );
      const final = parse(readFileSync(out), { columns: true }) as { handle: string; status: string }[];
      expect(final.map((r) => r.handle)).toEqual(names);
      expect(final.every((r) => r.status === 'ok' || r.status === 'not_found')).toBe(true);
      const twice = [...perHandle(sb.state.ledger.charges.map((c) => c.note))].filter(([, n]) => n > 1);
      expect(twice.length, `charged twice: ${twice.map(([h]) => h).join(', ')}`).toBe(lost);
    } finally {
      await sb.close();
    }
  });
});

function writeInput(file: string, names: string[]): void {
  writeFileSync(file, `handle,note\n${names.map((n, i) => `${n},row ${i}`).join('\n')}\n`);
}

/** Charges per handle from the ledger notes (`raw instagram:<username>`). */
function perHandle(notes: string[]): Map<string, number> {
  const per = new Map<string, number>();
  for (const note of notes) {
    const handle = note.replace(/^raw instagram:/, '');
    per.set(handle, (per.get(handle) ?? 0) + 1);
  }
  return per;
}

/**
 * The spend the run reported, in thousandths: the stop line of a stopped run, else the summary line
 * (`...; 0.36 credits spent, ... left.`).
 */
function reportedMilli(stderr: string): number {
  const stop = /Spent ([\d.,]+) credits? in this run;/.exec(stderr);
  if (stop) return Math.round(Number(stop[1]!.replace(/,/g, '')) * 1000);
  const summary = /([\d.,]+) credits? spent/.exec(stderr);
  if (summary) return Math.round(Number(summary[1]!.replace(/,/g, '')) * 1000);
  throw new Error(`no spend reported in: ${stderr}`);
}
