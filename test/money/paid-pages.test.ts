import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { ledgerMark } from '../reliability/helpers.js';

/**
 * Paging commands keep what they paid for: a run stopped part-way (402, the daily Discovery limit, the
 * fair-use cap) commits the records received, says the output is partial and what was spent, and
 * exits with the stop's own code. The sandbox ledger is the referee: every creator charged is in
 * the file, and the spend in the stop line is what the ledger took.
 */

/** The `Spent X credits in this run; ...` line, in thousandths. */
function stopLineMilli(stderr: string): number {
  const m = /Spent ([\d.]+) credits? in this run; (.*)\./.exec(stderr);
  if (!m) throw new Error(`no stop line in: ${stderr}`);
  return Math.round(Number(m[1]) * 1000);
}

describe('search/similar --all -o stopped part-way keep the paid creators', () => {
  it('402 mid-run: exit 5, the JSON file holds every creator charged, marked partial', async () => {
    // 0.25 credits: two pages of 10 at 0.01 are paid, the third is refused with 402.
    const s = await startSandbox({ port: 0, seed: 31, credits: 0.25 });
    try {
      const dir = tempDir('creators-money-');
      const out = join(dir, 'p.json');
      const mark = ledgerMark(s);
      const res = await runCli(['search', '--platform', 'instagram', '--all', '--limit', '10', '-o', out], {
        env: sandboxEnv(s),
      });
      expect(res.code).toBe(5);
      const creators = JSON.parse(readFileSync(out, 'utf8')) as { profile: { username: string } }[];
      const charged = mark.since();
      expect(charged.milli).toBe(200);
      // Every creator paid for is in the file (0.01 each), and the stop line says what the ledger took.
      expect(creators).toHaveLength(charged.milli / 10);
      expect(stopLineMilli(res.stderr)).toBe(charged.milli);
      expect(res.stderr).toContain(`20 creators kept in ${out}, a partial result`);
      expect(readdirSync(dir)).toEqual(['p.json']);
    } finally {
      await s.close();
    }
  });

  it('daily Discovery limit on similar --all to CSV: exit 5, header and every paid row, the spend on stderr', async () => {
    const s = await startSandbox({ port: 0, seed: 31, dailyDiscoveryLimit: 0.3 });
    try {
      const dir = tempDir('creators-money-');
      const out = join(dir, 'similar.csv');
      const seedHandle = s.state.creators.list('instagram')[0]?.profile.username as string;
      const mark = ledgerMark(s);
      const res = await runCli(
        ['similar', seedHandle, '--platform', 'instagram', '--all', '--limit', '10', '-o', out],
        { env: sandboxEnv(s) },
      );
      expect(res.code).toBe(5);
      const rows = parse(readFileSync(out), { columns: true }) as Record<string, string>[];
      const charged = mark.since();
      expect(charged.milli).toBeGreaterThan(0);
      expect(rows).toHaveLength(charged.milli / 10);
      expect(res.stderr).toContain('Daily Discovery credit limit');
      expect(res.stderr).toContain(
        `Spent ${charged.milli / 1000} credits in this run; ${rows.length} creators kept in ${out}, a partial result (the run stopped before the end).`,
      );
    } finally {
      await s.close();
    }
  });

  it('fair-use cap: exit 6, the paid pages are written to stdout as one well-formed JSON array; the JSON error carries the spend', async () => {
    const s = await startSandbox({ port: 0, seed: 31, fairUseCap: 3 });
    try {
      const mark = ledgerMark(s);
      const res = await runCli(['search', '--platform', 'instagram', '--all', '--limit', '10', '--format', 'json'], {
        env: sandboxEnv(s),
      });
      expect(res.code).toBe(6);
      const creators = res.json<unknown[]>();
      expect(creators.length).toBeGreaterThan(0);
      expect(creators).toHaveLength(mark.since().milli / 10);
      const error = res.errorJson().error as { code: string; spent?: { credits: number; kept: string } };
      expect(error.spent).toEqual({
        credits: mark.since().milli / 1000,
        kept: `${creators.length} creators written to standard output, a partial result (the run stopped before the end)`,
      });
    } finally {
      await s.close();
    }
  });

  it('a stop before any page arrives makes no file', async () => {
    const s = await startSandbox({ port: 0, seed: 31, credits: 0 });
    try {
      const dir = tempDir('creators-money-');
      const res = await runCli(
        ['search', '--platform', 'instagram', '--all', '--limit', '10', '-o', join(dir, 'p.json')],
        { env: sandboxEnv(s) },
      );
      expect(res.code).toBe(5);
      expect(readdirSync(dir)).toEqual([]);
      expect(res.stderr).toContain('Spent 0 credits in this run; nothing was received, nothing kept.');
    } finally {
      await s.close();
    }
  });
});

describe('post --kind comments --all stopped part-way keeps the paid comments', () => {
  it('402 after some pages: exit 5, the comments of every paid page are in the file', async () => {
    // 0.07 credits: two comment pages at 0.03 are paid, the third is refused.
    const s = await startSandbox({ port: 0, seed: 31, credits: 0.07 });
    try {
      const dir = tempDir('creators-money-');
      const out = join(dir, 'comments.jsonl');
      const mark = ledgerMark(s);
      const res = await runCli(
        ['post', 'C1a2B3c4D5e', '--platform', 'instagram', '--kind', 'comments', '--all', '-o', out],
        { env: sandboxEnv(s) },
      );
      expect(res.code).toBe(5);
      const charged = mark.since();
      expect(charged.count).toBe(2);
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      expect(lines.length).toBeGreaterThan(25); // more than one page of 25
      expect(lines.every((l) => typeof (JSON.parse(l) as { text?: unknown }).text === 'string')).toBe(true);
      expect(stopLineMilli(res.stderr)).toBe(charged.milli);
      expect(res.stderr).toContain(`comments kept in ${out}, a partial result`);
    } finally {
      await s.close();
    }
  });
});
