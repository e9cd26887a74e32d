/**
 * `creators spend`: the spend log grouped (day, command, platform, profile) with a total row that equals
 * the sandbox ledger, beside the account's own credits_used and the difference (charges the log never
 * saw), in every format; one API's log only; without a credential, the log alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { useTimeZone } from '../helpers/time-zone.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const open: Sandbox[] = [];
/** A fresh sandbox per test: its ledger is this test's spending alone. */
async function sandbox(): Promise<Sandbox> {
  const sb = await startSandbox({ port: 0 });
  open.push(sb);
  return sb;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

// Days are local calendar days (as budgets count them): read in UTC here.
useTimeZone('UTC');

const T0 = Date.parse('2026-11-22T10:00:00Z');
const DAY = 86_400_000;
const at = (ms: number) => () => ms;

type Row = Record<string, unknown> & { requests: number; records: number; credits: number };
type Total = Row & { account_credits_used: number | null; logged_all_time: number; difference: number | null };

async function buy(env: Record<string, string>, configDir: string, now = at(T0)): Promise<void> {
  for (const argv of [
    ['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--mode', 'raw'],
    ['search', '--platform', 'instagram', '--limit', '5'],
    ['enrich', 'handle', 'theellastrong', '--platform', 'instagram', '--mode', 'full'],
  ]) {
    const res = await runCli([...argv, '--json'], { env, configDir, now });
    expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(0);
  }
}

describe('creators spend', () => {
  it('totals what the ledger charged, by day and by command, beside the account figure', async () => {
    const sb = await sandbox();
    const env = sandboxEnv(sb);
    const configDir = tempConfigDir();
    await buy(env, configDir);
    const used = sb.state.ledger.usedMilli;
    expect(used).toBeGreaterThan(80);

    const res = await runCli(['spend', '--json'], { env, configDir, now: at(T0 + DAY) });
    expect(res.code, res.stderr).toBe(0);
    const rows = res.json<Row[]>();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({ day: '2026-11-22', requests: 3, records: 7, credits: used / 1000 });
    const total = rows[1] as Total;
    expect(total).toEqual({
      day: 'total',
      requests: 3,
      records: 7,
      credits: used / 1000,
      account_credits_used: used / 1000,
      logged_all_time: used / 1000,
      difference: 0,
    });
    expect(Math.round(total.credits * 1000)).toBe(used);
    expect(res.stderr).toContain(
      `The account has used ${used / 1000} credits in all (credits_used of GET /public/v1/accounts/credits/), all of them in this spend log.`,
    );

    const byCommand = await runCli(['spend', '--by', 'command', '--json'], { env, configDir });
    const commands = byCommand.json<Row[]>();
    expect(commands.map((r) => r.command)).toEqual(['enrich handle', 'search', 'total']);
    expect(commands[0]).toMatchObject({ requests: 2, records: 2, credits: (used - 50) / 1000 });
    expect(commands[1]).toMatchObject({ requests: 1, records: 5, credits: 0.05 });
    expect(Math.round(commands[0]!.credits * 1000) + Math.round(commands[1]!.credits * 1000)).toBe(used);

    const byPlatform = await runCli(['spend', '--by', 'platform', '--format', 'jsonl'], { env, configDir });
    expect(
      byPlatform.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).platform),
    ).toEqual(['instagram', 'total']);
    const byProfile = await runCli(['spend', '--by', 'profile', '--json'], { env, configDir });
    expect(byProfile.json<Row[]>().map((r) => [r.profile, r.credits])).toEqual([
      ['default', used / 1000],
      ['total', used / 1000],
    ]);
  });

  it('prints a table on a terminal and every machine format when piped', async () => {
    const sb = await sandbox();
    const env = sandboxEnv(sb);
    const configDir = tempConfigDir();
    await buy(env, configDir);
    const credits = String(sb.state.ledger.usedMilli / 1000);

    const table = await runCli(['spend', '--by', 'command', '--no-color'], { env, configDir, tty: true });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/│ Command\s+│ Requests │ Records │ Credits │/);
    expect(table.stdout).toMatch(/│ search\s+│\s+1 │\s+5 │\s+0\.05 │/);
    expect(table.stdout).toMatch(new RegExp(`│ total\\s+│\\s+3 │\\s+7 │\\s+${credits.replace('.', '\\.')} │`));
    expect(table.stdout).not.toContain('account_credits_used');
    expect(table.stderr.split('\n').join(' ')).toContain('all of them in this spend log');

    const csv = await runCli(['spend', '--format', 'csv'], { env, configDir });
    expect(csv.stdout).toBe(
      `day,requests,records,credits,account_credits_used,logged_all_time,difference\n2026-11-22,3,7,${credits},,,\ntotal,3,7,${credits},${credits},${credits},0\n`,
    );
    const tsv = await runCli(['spend', '--format', 'tsv'], { env, configDir });
    expect(tsv.stdout.split('\n')[2]).toBe(`total\t3\t7\t${credits}\t${credits}\t${credits}\t0`);
    const pipedTable = await runCli(['spend', '--format', 'table'], { env, configDir });
    expect(pipedTable.stdout).toBe(`2026-11-22\t3\t7\t${credits}\ntotal\t3\t7\t${credits}\n`);
  });

  it('says what the account was charged outside the log (another client, the service itself)', async () => {
    const sb = await sandbox();
    const env = sandboxEnv(sb);
    const configDir = tempConfigDir();
    await buy(env, configDir);
    const logged = sb.state.ledger.usedMilli;
    // Another client (here: a run without the store) spends on the same account.
    const other = await runCli(['search', '--platform', 'youtube', '--limit', '3', '--no-store', '--json'], {
      env,
      configDir: tempConfigDir(),
    });
    expect(other.code).toBe(0);
    const used = sb.state.ledger.usedMilli;
    expect(used - logged).toBe(30);

    const res = await runCli(['spend', '--json'], { env, configDir });
    const total = res.json<Total[]>().at(-1)!;
    expect(total).toMatchObject({
      credits: logged / 1000,
      account_credits_used: used / 1000,
      logged_all_time: logged / 1000,
      difference: 0.03,
    });
    expect(res.stderr).toContain(
      `The account has used ${used / 1000} credits in all (credits_used of GET /public/v1/accounts/credits/); this spend log holds ${logged / 1000} of them.`,
    );
    expect(res.stderr).toMatch(
      /The other 0\.03 credits were charged outside it: by requests in flight when a run was killed \(kill -9, a lost machine: their answers never arrived, so no run could log them\), by the service itself, such as daily monitoring, by other clients, or before this log began \(2026-11-22 10:00 UTC\)\./,
    );
  });

  it('reports only the window asked for, and the API in use', async () => {
    const sb = await sandbox();
    const env = sandboxEnv(sb);
    const configDir = tempConfigDir();
    await buy(env, configDir, at(T0));
    const first = sb.state.ledger.usedMilli;
    expect(
      (await runCli(['search', '--platform', 'tiktok', '--limit', '4'], { env, configDir, now: at(T0 + 3 * DAY) }))
        .code,
    ).toBe(0);
    const now = at(T0 + 3 * DAY + 3_600_000);

    const days = (await runCli(['spend', '--json'], { env, configDir, now })).json<Row[]>();
    expect(days.map((r) => [r.day, r.credits])).toEqual([
      ['2026-11-22', first / 1000],
      ['2026-11-25', 0.04],
      ['total', (first + 40) / 1000],
    ]);
    const recent = (await runCli(['spend', '--since', '2d', '--json'], { env, configDir, now })).json<Total[]>();
    expect(recent.map((r) => r.day)).toEqual(['2026-11-25', 'total']);
    // The window's total is the window's; the account comparison is over all time.
    expect(recent.at(-1)).toMatchObject({ credits: 0.04, logged_all_time: (first + 40) / 1000, difference: 0 });
    const dated = (
      await runCli(['spend', '--since', '2026-11-20', '--until', '2026-11-23', '--json'], { env, configDir, now })
    ).json<Row[]>();
    expect(dated.map((r) => r.day)).toEqual(['2026-11-22', 'total']);
    const old = await runCli(['spend', '--since', '2026-10-01', '--until', '2026-10-02'], {
      env,
      configDir,
      now,
      tty: true,
    });
    expect(old.code).toBe(0);
    expect(old.stdout).toMatch(/│ total\s+│\s+0 │\s+0 │\s+0 │/);
    expect(old.stderr).toContain('Nothing in the spend log between 2026-10-01 00:00 UTC and 2026-10-02 00:00 UTC.');

    // Another API's charges in the same store are not this account's.
    const elsewhere = await sandbox();
    const moved = await runCli(['search', '--platform', 'instagram', '--limit', '7'], {
      env: sandboxEnv(elsewhere),
      configDir,
      now,
    });
    expect(moved.code).toBe(0);
    const mine = (await runCli(['spend', '--json'], { env, configDir, now })).json<Total[]>().at(-1)!;
    expect(mine).toMatchObject({ credits: (first + 40) / 1000, difference: 0 });
    const theirs = (await runCli(['spend', '--json'], { env: sandboxEnv(elsewhere), configDir, now }))
      .json<Total[]>()
      .at(-1)!;
    expect(theirs).toMatchObject({ requests: 1, credits: 0.07, account_credits_used: 0.07, difference: 0 });
  });

  it('prints the log without a credential, saying the account figure needs one, and without a store creates none', async () => {
    const sb = await sandbox();
    const env = sandboxEnv(sb);
    const configDir = tempConfigDir();
    await buy(env, configDir);
    const anonymous = { CREATORS_BASE_URL: sb.url };
    const res = await runCli(['spend', '--json'], { env: anonymous, configDir });
    expect(res.code, res.stderr).toBe(0);
    expect(res.json<Total[]>().at(-1)).toMatchObject({
      credits: sb.state.ledger.usedMilli / 1000,
      account_credits_used: null,
      difference: null,
    });
    expect(res.stderr).toContain(
      "The account's own credits_used needs a credential (creators login, or CREATORS_API_KEY): only the spend log is shown.",
    );

    const empty = tempConfigDir();
    const none = await runCli(['spend', '--json'], { env, configDir: empty });
    expect(none.code).toBe(0);
    expect(none.json()).toEqual([
      {
        day: 'total',
        requests: 0,
        records: 0,
        credits: 0,
        account_credits_used: sb.state.ledger.usedMilli / 1000,
        logged_all_time: 0,
        difference: sb.state.ledger.usedMilli / 1000,
      },
    ]);
    expect(none.stderr).toContain('Nothing in the spend log (no store yet)');
    const { existsSync } = await import('node:fs');
    expect(existsSync(`${empty}/store`)).toBe(false);

    // The account's figure failing to come is a warning; the log still prints.
    const rejected = await runCli(['spend', '--json'], {
      env: { ...env, CREATORS_API_KEY: 'sbx_live_wrong' },
      configDir,
    });
    expect(rejected.code).toBe(0);
    expect(rejected.json<Total[]>().at(-1)).toMatchObject({ account_credits_used: null });
    expect(rejected.stderr).toMatch(
      /warning: Could not read the account's credits_used \(.*\): only the spend log is shown\./,
    );
  });

  it('refuses bad --by, --since and --until', async () => {
    const configDir = tempConfigDir();
    for (const [flags, message] of [
      [['--by', 'week'], /Allowed choices are day, command, platform, profile/],
      [['--since', 'yesterday'], /Invalid --since 'yesterday'/],
      [['--until', '2026-13-01'], /Invalid --until '2026-13-01'/],
      [['--since', '1d', '--until', '2d'], /--until 2d is not after --since 1d/],
    ] as const) {
      const res = await runCli(['spend', ...flags], { env: { CREATORS_BASE_URL: 'http://127.0.0.1:9' }, configDir });
      expect(res.code, flags.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
    }
  });
});
