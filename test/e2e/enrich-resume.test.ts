import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { csvObjects } from '../commands/enrich/helpers.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';
import { faults } from '../reliability/helpers.js';

/**
 * End-to-end: a bulk enrichment interrupted every way a run can be (kill -9, Ctrl-C, 402) and run
 * again: the re-run takes the rows already answered from the store and sends only the others, writes
 * the whole file, and the sandbox ledger shows no answered row paid twice. Run `npm run build` first.
 */
const sb = useSandbox({ seed: 29, credits: 1000, rateLimit: 100_000 });

afterEach(() => {
  faults(sb.get(), '');
  sb.get().state.ledger.balanceMilli = 1_000_000;
});

const CONCURRENCY = 4;

function workspace(
  count: number,
  offset = 0,
): { dir: string; input: string; out: string; names: string[]; env: Record<string, string>; config: string } {
  const names = sb
    .get()
    .state.creators.list('instagram')
    .slice(offset, offset + count)
    .map((c) => c.profile.username);
  const dir = tempDir('creators-e2e-resume-');
  const input = join(dir, 'in.csv');
  writeFileSync(input, `n,handle\n${names.map((h, i) => `${i},${h}`).join('\n')}\n`);
  const config = tempDir('creators-e2e-resume-cfg-');
  const env = { ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: config, CREATORS_RATE_LIMIT: '100000' };
  return { dir, input, out: join(dir, 'out.csv'), names, env, config };
}

function args(w: { input: string; out: string }, ...extra: string[]): string[] {
  return [
    'enrich',
    'handle',
    '--platform',
    'instagram',
    '--mode',
    'raw',
    '--input',
    w.input,
    '-o',
    w.out,
    '--concurrency',
    String(CONCURRENCY),
    ...extra,
  ];
}

/** Charges per handle since `from` (the ledger note is `raw instagram:<username>`). */
function chargesPerHandle(from: number): Map<string, number> {
  const per = new Map<string, number>();
  for (const c of sb.get().state.ledger.charges.slice(from)) {
    const handle = c.note.replace(/^raw instagram:/, '');
    per.set(handle, (per.get(handle) ?? 0) + 1);
  }
  return per;
}

/** Starts the CLI, waits (polling the ledger) until `rows` rows were charged, then sends `signal`. */
async function interrupt(
  w: ReturnType<typeof workspace>,
  signal: NodeJS.Signals,
  rows: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const from = sb.get().state.ledger.charges.length;
  const child = spawn(process.execPath, [BIN, ...args(w)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...w.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, sig) => resolve({ code, signal: sig })),
  );
  for (let i = 0; i < 2000 && sb.get().state.ledger.charges.length - from < rows; i++)
    await new Promise((r) => setTimeout(r, 5));
  child.kill(signal);
  return { ...(await exited), stderr };
}

function resumedCount(stderr: string): number {
  const m = /(\d+) of (\d+) rows from the store/.exec(stderr);
  return m ? Number(m[1]) : 0;
}

/** The profile's store file (the purchase memory). */
function storeFile(config: string): string {
  return join(config, 'store', 'default.db');
}

/** The final file: every input row, in input order, each answered. */
function expectComplete(w: ReturnType<typeof workspace>): void {
  const rows = csvObjects(readFileSync(w.out, 'utf8'));
  expect(rows.map((r) => r.handle)).toEqual(w.names);
  expect(rows.map((r) => Number(r.n))).toEqual(w.names.map((_, i) => i));
  expect(rows.every((r) => r.status === 'ok' && r['result.instagram.username'] !== '')).toBe(true);
}

describe('enrich handle --input: resumable after an interruption', () => {
  it("kill -9 mid-run: the re-run resumes, writes all 200 rows in input order, pays no answered row twice, and removes the dead run's temp file", async () => {
    const w = workspace(200);
    faults(sb.get(), 'delay:15 POST /public/v1/creators/enrich/**');
    const from = sb.get().state.ledger.charges.length;
    const killed = await interrupt(w, 'SIGKILL', 40);
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(w.out)).toBe(false);
    // What kill -9 leaves: the dead process's temporary output file.
    const leftovers = readdirSync(w.dir).filter((n) => n.endsWith('.tmp'));
    expect(leftovers).toHaveLength(1);
    const paidBefore = sb.get().state.ledger.charges.length - from;

    const again = await spawnCli(args(w), w.env, undefined, 60_000);
    expect(again.stderr).toMatch(/\d+ of 200 rows from the store \(bought within 14 days\): 0 credits/);
    expect(again.code).toBe(0);
    // Everything answered before the kill was kept; at most the requests in flight at the kill were lost.
    expect(resumedCount(again.stderr)).toBeGreaterThanOrEqual(paidBefore - CONCURRENCY);
    expectComplete(w);
    const per = chargesPerHandle(from);
    expect(w.names.every((h) => (per.get(h) ?? 0) >= 1)).toBe(true);
    const twice = [...per.values()].filter((n) => n > 1).length;
    expect(twice).toBeLessThanOrEqual(CONCURRENCY);
    expect(readdirSync(w.dir).sort()).toEqual(['in.csv', 'out.csv']);
    expect(statSync(w.out).mode & 0o777).toBe(0o600);
    expect(statSync(storeFile(w.config)).mode & 0o777).toBe(0o600);
  }, 90_000);

  it('Ctrl-C: exit 130 with what was spent and kept; the re-run resumes and completes the file', async () => {
    const w = workspace(120, 200);
    faults(sb.get(), 'delay:15 POST /public/v1/creators/enrich/**');
    const from = sb.get().state.ledger.charges.length;
    const stopped = await interrupt(w, 'SIGINT', 20);
    expect(stopped.code).toBe(130);
    const m =
      /Spent ([\d.]+) credits in this run; (\d+) rows in (\S+) \(partial\); re-run the same command to resume \(rows in the store are not bought again\)\./.exec(
        stopped.stderr,
      );
    expect(m, stopped.stderr).not.toBeNull();
    const kept = csvObjects(readFileSync(w.out, 'utf8'));
    expect(kept.length).toBe(Number(m?.[2]));

    const again = await spawnCli(args(w), w.env, undefined, 60_000);
    expect(again.code).toBe(0);
    expect(resumedCount(again.stderr)).toBeGreaterThanOrEqual(kept.length);
    expectComplete(w);
    const per = chargesPerHandle(from);
    expect(w.names.every((h) => (per.get(h) ?? 0) >= 1)).toBe(true);
    // Requests in flight at Ctrl-C are finished and kept in the store (the server charges them either way):
    // no row is paid twice. Only kill -9 can lose an answer in flight.
    expect([...per.values()].filter((n) => n > 1)).toEqual([]);
  }, 90_000);

  it('402 mid-run, credits topped up through the control route, re-run: every row charged exactly once', async () => {
    const w = workspace(60, 400);
    const from = sb.get().state.ledger.charges.length;
    sb.get().state.ledger.balanceMilli = 30 * 25; // 25 raw rows
    const first = await spawnCli(args(w), w.env, undefined, 60_000);
    expect(first.code).toBe(5);
    expect(first.stderr).toMatch(
      /Spent 0\.75 credits in this run; 25 rows in \S+ \(partial\); re-run the same command to resume \(rows in the store are not bought again\)\./,
    );
    expect(csvObjects(readFileSync(w.out, 'utf8'))).toHaveLength(25);

    const topUp = await fetch(`${sb.get().url}/_sandbox/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 100 }),
    });
    expect(topUp.status).toBe(200);
    const again = await spawnCli(args(w), w.env, undefined, 60_000);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/25 of 60 rows from the store/);
    expectComplete(w);
    const per = chargesPerHandle(from);
    expect(w.names.map((h) => per.get(h))).toEqual(w.names.map(() => 1));
  }, 90_000);

  it('a dry run after an interruption prices only the rows left and writes nothing; --restart pays for every row again', async () => {
    const w = workspace(40, 500);
    const from = sb.get().state.ledger.charges.length;
    sb.get().state.ledger.balanceMilli = 30 * 10;
    expect((await spawnCli(args(w), w.env)).code).toBe(5);
    sb.get().state.ledger.balanceMilli = 1_000_000;
    const store = storeFile(w.config);
    const storeFiles = (): string[] => readdirSync(join(w.config, 'store')).sort();
    const before = { bytes: readFileSync(store), mtime: statSync(store).mtimeMs, files: storeFiles() };
    const charges = sb.get().state.ledger.charges.length;

    const outBefore = { bytes: readFileSync(w.out), mtime: statSync(w.out).mtimeMs };
    const dry = await spawnCli(args(w, '--dry-run', '--json'), w.env);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toMatch(/10 of 40 rows from the store/);
    // The plan is on stdout; the partial output of the stopped run is left as it was.
    expect(readFileSync(w.out).equals(outBefore.bytes)).toBe(true);
    expect(statSync(w.out).mtimeMs).toBe(outBefore.mtime);
    const plan = JSON.parse(dry.stdout) as { worst_case_credits?: number; cost_basis?: string } & Record<
      string,
      unknown
    >;
    expect(JSON.stringify(plan)).toMatch(/30 handles x 0\.03/);
    expect(JSON.stringify(plan)).toMatch(/0\.9\b/);
    expect(sb.get().state.ledger.charges.length).toBe(charges);
    // A dry run opens the store read-only: not a byte or a file of it changes.
    expect(readFileSync(store).equals(before.bytes)).toBe(true);
    expect(statSync(store).mtimeMs).toBe(before.mtime);
    expect(storeFiles()).toEqual(before.files);

    const restarted = await spawnCli(args(w, '--restart'), w.env);
    expect(restarted.code).toBe(0);
    expect(restarted.stderr).not.toMatch(/from the store/);
    expectComplete(w);
    const per = chargesPerHandle(from);
    // The first 10 were paid by the interrupted run and again by --restart.
    expect(w.names.map((h) => per.get(h))).toEqual(w.names.map((_, i) => (i < 10 ? 2 : 1)));
  }, 90_000);

  it('an edited input buys only what changed: the rows the store holds are not bought again', async () => {
    const w = workspace(30, 600);
    const from = sb.get().state.ledger.charges.length;
    sb.get().state.ledger.balanceMilli = 30 * 10;
    expect((await spawnCli(args(w), w.env)).code).toBe(5);
    sb.get().state.ledger.balanceMilli = 1_000_000;
    const extra = sb.get().state.creators.list('instagram')[700]?.profile.username as string;
    appendFileSync(w.input, `30,${extra}\n`);
    w.names.push(extra);
    const again = await spawnCli(args(w), w.env);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/10 of 31 rows from the store/);
    expectComplete(w);
    const per = chargesPerHandle(from);
    expect(w.names.map((h) => per.get(h))).toEqual(w.names.map(() => 1));
  }, 90_000);

  it('an existing -o target keeps its mode (0644); a new one is created 0600', async () => {
    const w = workspace(3, 800);
    writeFileSync(w.out, 'old\n');
    chmodSync(w.out, 0o644);
    expect((await spawnCli(args(w), w.env)).code).toBe(0);
    expect(statSync(w.out).mode & 0o777).toBe(0o644);
    expectComplete(w);
    const fresh = { ...w, out: join(w.dir, 'fresh.csv') };
    expect((await spawnCli(args(fresh), w.env)).code).toBe(0);
    expect(statSync(fresh.out).mode & 0o777).toBe(0o600);
  }, 60_000);
});
