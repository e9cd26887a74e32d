/**
 * The purchase memory on bad days, end to end (the built CLI in separate processes, a real store file,
 * the sandbox's ledger as the judge of what was paid): a corrupt, locked or newer store; a full disk
 * under it; `kill -9` at random moments of `search --all` and of a bulk enrichment; inputs touched,
 * regenerated or edited; eight processes buying overlapping creators at once; a daily budget two
 * processes share; four processes sharing the account's pace. Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseLatencySpec, setLatency } from '../../src/sandbox/latency.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { SCHEMA_VERSION } from '../../src/lib/store/schema.js';
import { openSqliteStore } from '../../src/lib/store/sqlite.js';
import type { StoredAnswer } from '../../src/lib/store/types.js';
import { csvObjects } from '../commands/enrich/helpers.js';
import { mountTinyDisk, tinyDiskUnavailable } from '../helpers/full-disk.js';
import { creatorHandles, sandboxEnv, useSandbox, type StartedSandbox } from '../helpers/sandbox.js';
import { BIN, spawnCli, type SpawnResult } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/until.js';

/** Discovery requests the sandbox answered: [arrival, reply] in wall time, from its log line (`... 200 121ms`). */
const discoverySpans: [number, number][] = [];
const sb = useSandbox({
  seed: 24,
  credits: 100_000,
  rateLimit: 100_000,
  dailyDiscoveryLimit: 100_000,
  log: (line) => {
    const m = /^POST \/public\/v1\/discovery\/ \d{3} (\d+)ms$/.exec(line);
    if (m) discoverySpans.push([Date.now() - Number(m[1]), Date.now()]);
  },
});

/** The most of `spans` held by the sandbox at once. */
function peak(spans: readonly [number, number][]): number {
  let most = 0;
  for (const [at] of spans) most = Math.max(most, spans.filter(([a, b]) => a <= at && at < b).length);
  return most;
}

afterEach(() => {
  setLatency(sb.get().state, {});
});

interface World {
  dir: string;
  config: string;
  /** The profile's store file (in the config directory unless CREATORS_STORE moves it). */
  store: string;
  env: Record<string, string>;
}

/** A config directory of its own (so its own store), pointed at the file's sandbox. */
function world(extra: Record<string, string> = {}): World {
  const dir = tempDir('creators-baddays-');
  const config = join(dir, 'config');
  const env = { ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: config, CREATORS_RATE_LIMIT: '100000', ...extra };
  return { dir, config, store: extra.CREATORS_STORE ?? join(config, 'store', 'default.db'), env };
}

function latency(spec: string): void {
  setLatency(sb.get().state, parseLatencySpec(spec));
}

function writeInput(file: string, handles: readonly string[]): void {
  writeFileSync(file, `n,handle\n${handles.map((h, i) => `${i},${h}`).join('\n')}\n`);
}

function enrichArgs(input: string, out: string, ...extra: string[]): string[] {
  return ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', input, '-o', out, ...extra];
}

/** The sandbox ledger from now on: charges, credits, and who was charged (enrichment notes `raw instagram:<handle>`). */
function ledgerFrom(sandbox: StartedSandbox = sb.get()) {
  const from = sandbox.state.ledger.charges.length;
  const charges = () => sandbox.state.ledger.charges.slice(from);
  return {
    charges,
    milli: () => charges().reduce((sum, c) => sum + c.milli, 0),
    /** Charges per enriched handle. */
    perHandle(): Map<string, number> {
      const per = new Map<string, number>();
      for (const c of charges()) {
        const m = /^\w+ instagram:(.+)$/.exec(c.note);
        if (m) per.set(m[1] as string, (per.get(m[1] as string) ?? 0) + 1);
      }
      return per;
    },
  };
}

/** A CLI process in the background, its exit as a promise. */
function start(
  args: string[],
  env: Record<string, string>,
): { pid: number; kill(signal: NodeJS.Signals): void; done: Promise<SpawnResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const done = new Promise<SpawnResult>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { pid: child.pid as number, kill: (signal) => child.kill(signal), done };
}

/** Opens the store as the CLI would find it (read-only: the test changes nothing) and lists what it holds. */
async function stored(file: string): Promise<StoredAnswer[]> {
  const store = await openSqliteStore({ file, readOnly: true });
  try {
    expect(store.version()).toBe(SCHEMA_VERSION);
    const out: StoredAnswer[] = [];
    for await (const a of store.list({})) out.push(a);
    return out;
  } finally {
    await store.close();
  }
}

/** Every input row, in input order, answered. */
function expectComplete(out: string, handles: readonly string[]): Record<string, string>[] {
  const rows = csvObjects(readFileSync(out, 'utf8'));
  expect(rows.map((r) => r.handle)).toEqual(handles);
  expect(rows.map((r) => Number(r.n))).toEqual(handles.map((_, i) => i));
  expect(rows.every((r) => r.status === 'ok' && r['result.instagram.username'] !== '')).toBe(true);
  return rows;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('a store the CLI cannot use', () => {
  it('a corrupt store file: exit 1 naming the file and what to do, nothing charged, no output; --no-store runs and says so', async () => {
    const w = world();
    const file = join(w.dir, 'garbage.db');
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31 + 7) % 256));
    writeFileSync(file, garbage);
    const [handle] = creatorHandles(sb.get(), 1, 3);
    const input = join(w.dir, 'in.csv');
    writeInput(input, creatorHandles(sb.get(), 3, 3));
    const ledger = ledgerFrom();
    const env = { ...w.env, CREATORS_STORE: file };

    for (const args of [
      ['enrich', 'handle', handle as string, '--platform', 'instagram', '--mode', 'raw'],
      enrichArgs(input, join(w.dir, 'out.csv')),
    ]) {
      const r = await spawnCli(args, env);
      expect(r.code, r.stderr).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines[0]).toBe(`error: The store ${file} is not a readable database (file is not a database).`);
      expect(lines[1]).toMatch(/^Move it aside .* or run with --no-store /);
      expect(lines).toHaveLength(2);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(join(w.dir, 'out.csv'))).toBe(false);
    expect(ledger.charges()).toEqual([]);
    expect(readFileSync(file).equals(garbage)).toBe(true);

    const bypass = await spawnCli(
      ['enrich', 'handle', handle as string, '--platform', 'instagram', '--mode', 'raw', '--no-store', '--json'],
      env,
    );
    expect(bypass.code, bypass.stderr).toBe(0);
    expect(bypass.stderr).toMatch(
      /--no-store: answers are neither taken from nor kept in the store; this run may pay again/,
    );
    expect(JSON.parse(bypass.stdout).result.instagram.username).toBe(handle);
    expect(ledger.perHandle()).toEqual(new Map([[handle, 1]]));
    expect(readFileSync(file).equals(garbage)).toBe(true);
  });

  it('a store locked by another process: waits the busy timeout (CREATORS_STORE_BUSY_TIMEOUT=1), then exit 9, nothing charged', async () => {
    const w = world();
    const handles = creatorHandles(sb.get(), 12, 10);
    // The store exists (a first run bought one creator), then another process holds its write lock.
    const first = await spawnCli(
      ['enrich', 'handle', handles[0] as string, '--platform', 'instagram', '--mode', 'raw', '--json'],
      w.env,
    );
    expect(first.code, first.stderr).toBe(0);
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (f: string) => { exec(sql: string): void; close(): void };
    };
    const holder = new Database(w.store);
    holder.exec('BEGIN IMMEDIATE');
    const ledger = ledgerFrom();
    const input = join(w.dir, 'in.csv');
    writeInput(input, handles);
    try {
      const env = { ...w.env, CREATORS_STORE_BUSY_TIMEOUT: '1' };
      for (const args of [
        ['enrich', 'handle', handles[1] as string, '--platform', 'instagram', '--mode', 'raw'],
        enrichArgs(input, join(w.dir, 'out.csv')),
      ]) {
        const started = Date.now();
        const r = await spawnCli(args, env);
        const took = Date.now() - started;
        expect(r.code, r.stderr).toBe(9);
        expect(r.stderr).toContain(
          `error: The store ${w.store} stayed locked by another process past the busy timeout; nothing more was sent.`,
        );
        expect(r.stderr).toMatch(/CREATORS_STORE_BUSY_TIMEOUT sets the wait/);
        // One wait of the timeout, not one per row in flight.
        expect(took).toBeGreaterThanOrEqual(1000);
        expect(took).toBeLessThan(8000);
      }
      expect(ledger.charges()).toEqual([]);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    // Once the lock is gone the same run goes through; the first creator comes from the store.
    const again = await spawnCli(enrichArgs(input, join(w.dir, 'out.csv')), w.env);
    expect(again.code, again.stderr).toBe(0);
    expectComplete(join(w.dir, 'out.csv'), handles);
    expect([...ledger.perHandle().keys()].sort()).toEqual(handles.slice(1).sort());
  });

  it('a store written by a newer version: refused with an upgrade hint, the file unchanged, nothing charged', async () => {
    const w = world();
    const file = join(w.dir, 'newer.db');
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (f: string) => { exec(sql: string): void; close(): void };
    };
    // As a later version might leave it: its own tables, a rollback journal, a higher user_version.
    const db = new Database(file);
    db.exec('CREATE TABLE answers_v9 (key TEXT PRIMARY KEY, blob BLOB)');
    db.exec("INSERT INTO answers_v9 VALUES ('k', x'0102')");
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 7}`);
    db.close();
    const before = readFileSync(file);
    const ledger = ledgerFrom();
    const [handle] = creatorHandles(sb.get(), 1, 30);
    const r = await spawnCli(['enrich', 'handle', handle as string, '--platform', 'instagram', '--mode', 'raw'], {
      ...w.env,
      CREATORS_STORE: file,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `error: The store ${file} was written by a newer version of creators (schema ${SCHEMA_VERSION + 7}; this one knows ${SCHEMA_VERSION}); nothing was changed.`,
    );
    expect(r.stderr).toMatch(/Upgrade creators-cli \(npm install -g creators-cli@latest\)/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(w.dir).filter((n) => n.startsWith('newer.db'))).toEqual(['newer.db']);
    expect(ledger.charges()).toEqual([]);
  });
});

const noTmpfs = tinyDiskUnavailable();

describe.skipIf(noTmpfs !== undefined)(`a full disk under the store${noTmpfs ? ` (skipped: ${noTmpfs})` : ''}`, () => {
  it('stops buying, keeps every paid row in the -o output (partial), says where; after space is freed the same command pays only for what the store does not hold', async () => {
    const disk = mountTinyDisk(8192);
    try {
      // A ballast leaves the store about 640 KiB: a few answers fit, not sixty.
      const ballast = join(disk.dir, 'ballast');
      const { bavail, bsize } = statfsSync(disk.dir);
      writeFileSync(ballast, Buffer.alloc(Math.max(0, bavail * bsize - 640 * 1024)));
      const storeOnDisk = join(disk.dir, 'store.db');
      const w = world({ CREATORS_STORE: storeOnDisk });
      const handles = creatorHandles(sb.get(), 60, 40);
      const input = join(w.dir, 'in.csv');
      const out = join(w.dir, 'out.csv');
      writeInput(input, handles);
      const args = enrichArgs(input, out, '--mode', 'full', '--concurrency', '4');
      const ledger = ledgerFrom();
      const r = await spawnCli(args, w.env, undefined, 60_000);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`error: Cannot write to the store ${storeOnDisk}: the disk is full.`);
      expect(r.stderr).toMatch(
        /Free some space there, then re-run the same command \(answers the store kept are not bought again\)/,
      );
      const kept = csvObjects(readFileSync(out, 'utf8'));
      expect(r.stderr).toContain(`; ${kept.length} rows in ${out} (partial); re-run the same command to resume`);

      // Every creator paid for is in the output, and each was paid once.
      const paid = ledger.perHandle();
      expect(paid.size).toBeGreaterThan(0);
      expect(paid.size).toBeLessThan(handles.length);
      expect([...paid.values()].every((n) => n === 1)).toBe(true);
      const inOutput = new Set(kept.filter((row) => row.status === 'ok').map((row) => row.handle));
      expect([...paid.keys()].filter((h) => !inOutput.has(h))).toEqual([]);
      // It stopped buying: what was paid is what the store kept plus at most the rows in flight. (Read
      // from a copy: libsql lets go of a file only once its statements are collected, and the disk must
      // unmount at the end.)
      const copy = join(tempDir('creators-baddays-copy-'), 'store.db');
      for (const suffix of ['', '-wal'])
        if (existsSync(storeOnDisk + suffix)) copyFileSync(storeOnDisk + suffix, copy + suffix);
      const inStore = new Set((await stored(copy)).map((a) => a.subject));
      expect(inStore.size).toBeGreaterThan(0);
      expect([...inStore].every((h) => paid.has(h as string))).toBe(true);
      // The answers in flight the store could not take are in the outbox (on the profile's own disk): every
      // creator paid for is in one or the other.
      const outbox = join(w.config, 'store', 'default.outbox.jsonl');
      const parked = existsSync(outbox)
        ? readFileSync(outbox, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { answer: StoredAnswer }).answer.subject as string)
        : [];
      if (parked.length > 0) expect(r.stderr).toContain(`kept in the outbox ${outbox}, and the next run puts`);
      expect([...inStore, ...parked].sort(), r.stderr).toEqual([...paid.keys()].sort());
      expect(paid.size).toBeLessThanOrEqual(inStore.size + 4);
      for (const h of parked) inStore.add(h);

      // Space freed, the same command: it buys only what the store does not hold.
      rmSync(ballast);
      const rerun = ledgerFrom();
      const again = await spawnCli(args, w.env, undefined, 60_000);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`${inStore.size} of 60 rows from the store`);
      expectComplete(out, handles);
      expect([...rerun.perHandle().keys()].sort()).toEqual(handles.filter((h) => !inStore.has(h)).sort());
    } finally {
      disk.unmount();
    }
  }, 90_000);
});

describe('kill -9 at any moment, then re-run', () => {
  it('search --all: every page the store held at a kill is never bought again; only pages in flight at a kill are paid twice; the store opens after every kill', async () => {
    const w = world();
    const out = join(w.dir, 'out.json');
    // The account's usual pace: its window of pages at once stays small even when answers look slow.
    const env = { ...w.env, CREATORS_RATE_LIMIT: '300' };
    const args = ['search', '--platform', 'instagram', '--all', '--max-results', '300', '--limit', '20', '-o', out];
    // Under 300 ms a page, pages go one at a time (the next one sent while this one is written); a
    // starved machine that sees slower answers may send a few at once: the bound below is what the
    // sandbox saw in flight together, plus the one answered and not yet kept.
    latency('discovery=120ms');
    const PAGE_MILLI = 20 * 10;
    const ledger = ledgerFrom();
    const held = new Map<string, number>();
    const kills: string[] = [];
    let allowed = 0;
    // Several kills, while there is something left to buy (a kill that lands late leaves less for the next).
    for (let i = 0; i < 4 && held.size < 13; i++) {
      const before = ledger.charges().length;
      const spansFrom = discoverySpans.length;
      const run = start(args, env);
      let exited = false;
      void run.done.then(() => (exited = true));
      await until('the sandbox to charge a page', () => ledger.charges().length > before || exited);
      const wait = Math.floor(Math.random() * 800);
      await sleep(wait);
      run.kill('SIGKILL');
      const res = await run.done;
      // Replies still held when the process died are logged once their latency is over.
      await sleep(200);
      const inFlight = peak(discoverySpans.slice(spansFrom)) + 1;
      allowed += inFlight;
      const charged = ledger.charges().length - before;
      // The store opens, at this version, and every page it held before is still there, bought then.
      const pages = (await stored(w.store)).filter((a) => a.kind === 'page');
      for (const [key, at] of held)
        expect(pages.find((p) => p.key === key)?.boughtAt, `page ${key} after kill ${i}`).toBe(at);
      const fresh = pages.filter((p) => !held.has(p.key));
      const context = `kill ${i} after ${wait} ms (${res.signal ?? res.code}): ${charged} charged, ${fresh.length} new pages stored, at most ${inFlight} in flight`;
      kills.push(context);
      // Each charge of this run is a page it newly stored, or one in flight when it died.
      expect(charged, context).toBeGreaterThanOrEqual(fresh.length);
      expect(charged - fresh.length, context).toBeLessThanOrEqual(inFlight);
      for (const p of fresh) held.set(p.key, p.boughtAt);
    }
    const before = ledger.charges().length;
    const done = await spawnCli(args, env, undefined, 60_000);
    expect(done.code, `${kills.join('\n')}\n${done.stderr}`).toBe(0);
    const pages = (await stored(w.store)).filter((a) => a.kind === 'page');
    expect(pages).toHaveLength(15);
    for (const [key, at] of held) expect(pages.find((p) => p.key === key)?.boughtAt).toBe(at);
    // The completing run paid exactly for the pages no run had kept.
    expect(ledger.charges().length - before, kills.join('\n')).toBe(15 - held.size);
    expect(
      ledger
        .charges()
        .slice(before)
        .every((c) => c.milli === PAGE_MILLI),
    ).toBe(true);
    // Across all runs: the 15 distinct pages, plus only what the kills caught in flight.
    const lost = ledger.charges().length - 15;
    expect(lost, kills.join('\n')).toBeLessThanOrEqual(allowed);
    expect(ledger.milli()).toBe((15 + lost) * PAGE_MILLI);
    // The output is the whole result, as an uninterrupted run gives it.
    const records = (JSON.parse(readFileSync(out, 'utf8')) as { profile: { username: string } }[]).map(
      (r) => r.profile.username,
    );
    const reference = join(w.dir, 'reference.json');
    latency('');
    const clean = await spawnCli([...args.slice(0, -1), reference, '--no-store'], w.env, undefined, 60_000);
    expect(clean.code, clean.stderr).toBe(0);
    expect(records).toEqual(
      (JSON.parse(readFileSync(reference, 'utf8')) as { profile: { username: string } }[]).map(
        (r) => r.profile.username,
      ),
    );
    expect(new Set(records).size).toBe(300);
  }, 120_000);

  it('bulk enrichment: a creator the store held at a kill is never charged again; only rows in flight at a kill are paid twice; the re-run completes the file', async () => {
    const w = world();
    const handles = creatorHandles(sb.get(), 64, 100);
    const input = join(w.dir, 'in.csv');
    const out = join(w.dir, 'out.csv');
    writeInput(input, handles);
    const CONCURRENCY = 4;
    const args = enrichArgs(input, out, '--concurrency', String(CONCURRENCY));
    latency('enrich=60ms');
    const ledger = ledgerFrom();
    const held = new Map<string, number>();
    const kills: string[] = [];
    let charges = 0;
    for (let i = 0; i < 4 && held.size < handles.length - 8; i++) {
      const before = ledger.charges().length;
      const run = start(args, w.env);
      let exited = false;
      void run.done.then(() => (exited = true));
      await until('the sandbox to charge a row', () => ledger.charges().length > before || exited);
      const wait = 100 + Math.floor(Math.random() * 600);
      await sleep(wait);
      run.kill('SIGKILL');
      const res = await run.done;
      const thisRun = ledger
        .charges()
        .slice(before)
        .map((c) => c.note.replace(/^raw instagram:/, ''));
      charges += thisRun.length;
      const answers = (await stored(w.store)).filter((a) => a.kind === 'creator');
      for (const [h, at] of held)
        expect(answers.find((a) => a.subject === h)?.boughtAt, `${h} after kill ${i}`).toBe(at);
      const context = `kill ${i} after ${wait} ms (${res.signal ?? res.code}): ${thisRun.length} charged, ${answers.length} in the store`;
      kills.push(context);
      // Nothing the store held was bought again; what was bought and not kept was in flight at the kill.
      expect(
        thisRun.filter((h) => held.has(h)),
        context,
      ).toEqual([]);
      const lost = thisRun.filter((h) => !answers.some((a) => a.subject === h));
      expect(lost.length, context).toBeLessThanOrEqual(CONCURRENCY);
      for (const a of answers) if (!held.has(a.subject as string)) held.set(a.subject as string, a.boughtAt);
    }
    expect(held.size, kills.join('\n')).toBeGreaterThan(0);
    const before = ledger.charges().length;
    const done = await spawnCli(args, w.env, undefined, 60_000);
    expect(done.code, `${kills.join('\n')}\n${done.stderr}`).toBe(0);
    expect(done.stderr).toContain(`${held.size} of 64 rows from the store`);
    const rows = expectComplete(out, handles);
    expect(
      rows
        .filter((r) => r.source === 'store')
        .map((r) => r.handle)
        .sort(),
    ).toEqual([...held.keys()].sort());
    // The completing run paid exactly for the creators no run had kept.
    expect(
      ledger
        .charges()
        .slice(before)
        .map((c) => c.note.replace(/^raw instagram:/, ''))
        .sort(),
    ).toEqual(handles.filter((h) => !held.has(h)).sort());
    const per = ledger.perHandle();
    expect(handles.every((h) => (per.get(h) ?? 0) >= 1)).toBe(true);
    expect(ledger.charges().length - handles.length, kills.join('\n')).toBeLessThanOrEqual(CONCURRENCY * kills.length);
    expect(charges + handles.length - held.size).toBe(ledger.charges().length);
  }, 120_000);
});

describe('re-runs pay for nothing already bought', () => {
  it('touch in.csv, an identical input written anew, another -o: every re-run charges nothing and writes the whole file', async () => {
    const w = world();
    const handles = creatorHandles(sb.get(), 20, 200);
    const input = join(w.dir, 'in.csv');
    writeInput(input, handles);
    const ledger = ledgerFrom();
    const first = await spawnCli(enrichArgs(input, join(w.dir, 'out.csv')), w.env);
    expect(first.code, first.stderr).toBe(0);
    expect(ledger.perHandle()).toEqual(new Map(handles.map((h) => [h, 1])));
    const paid = ledger.charges().length;

    const later = new Date(Date.now() + 3600_000);
    const reruns: [string, () => void, string][] = [
      ['touch', () => utimesSync(input, later, later), 'out.csv'],
      [
        'regenerated',
        () => {
          rmSync(input);
          writeInput(input, handles);
        },
        'out.csv',
      ],
      ['another -o', () => undefined, 'elsewhere.csv'],
    ];
    for (const [what, change, outName] of reruns) {
      change();
      const r = await spawnCli(enrichArgs(input, join(w.dir, outName)), w.env);
      expect(r.code, `${what}: ${r.stderr}`).toBe(0);
      expect(r.stderr, what).toContain(
        '20 of 20 rows from the store (bought within 14 days): 0 credits; --max-age 0 buys fresh.',
      );
      const rows = expectComplete(join(w.dir, outName), handles);
      expect(
        rows.every((row) => row.source === 'store' && row.credits_cost === '0'),
        what,
      ).toBe(true);
      expect(ledger.charges().length, what).toBe(paid);
    }
    // The answers are the ones bought: the file a re-run writes is the first run's, source column aside.
    const strip = (file: string) =>
      csvObjects(readFileSync(join(w.dir, file), 'utf8')).map(({ source: _s, credits_cost: _c, ...rest }) => rest);
    expect(strip('elsewhere.csv')).toEqual(strip('out.csv'));
  }, 60_000);

  it('an input naming a creator several times (spelled differently) pays for it once, even with the rows in flight together', async () => {
    const w = world();
    const [a, b] = creatorHandles(sb.get(), 2, 280);
    const handles = [a, `@${(a as string).toUpperCase()}`, b, a, `https://www.instagram.com/${b}/`, b] as string[];
    const input = join(w.dir, 'in.csv');
    const out = join(w.dir, 'out.csv');
    writeInput(input, handles);
    latency('enrich=150ms');
    const ledger = ledgerFrom();
    const r = await spawnCli(enrichArgs(input, out, '--concurrency', '6'), w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(ledger.perHandle()).toEqual(
      new Map([
        [a, 1],
        [b, 1],
      ]),
    );
    const rows = csvObjects(readFileSync(out, 'utf8'));
    expect(rows.map((row) => row['result.instagram.username'])).toEqual([a, a, b, a, b, b]);
    expect(rows.filter((row) => row.source === 'api')).toHaveLength(2);
  });

  it('an input with 2 of 20 handles changed: the re-run charges exactly the 2 new creators', async () => {
    const w = world();
    const handles = creatorHandles(sb.get(), 20, 240);
    const input = join(w.dir, 'in.csv');
    const out = join(w.dir, 'out.csv');
    writeInput(input, handles);
    const first = await spawnCli(enrichArgs(input, out), w.env);
    expect(first.code, first.stderr).toBe(0);
    const edited = [...handles];
    const [a, b] = creatorHandles(sb.get(), 2, 270);
    edited[3] = a as string;
    edited[17] = b as string;
    writeInput(input, edited);
    const ledger = ledgerFrom();
    const r = await spawnCli(enrichArgs(input, out), w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('18 of 20 rows from the store');
    expect(ledger.perHandle()).toEqual(
      new Map([
        [a, 1],
        [b, 1],
      ]),
    );
    const rows = expectComplete(out, edited);
    expect(rows.filter((row) => row.source === 'api').map((row) => row.handle)).toEqual([a, b]);
  }, 60_000);
});

describe('processes at once, one store', () => {
  it('eight processes enriching overlapping inputs at once: every creator charged exactly once', async () => {
    const w = world();
    const pool = creatorHandles(sb.get(), 30, 300);
    latency('enrich=80ms');
    // Each input: 12 of the 30, in its own order (a fixed shuffle), so every creator is wanted by several.
    const inputs = Array.from({ length: 8 }, (_, p) => {
      const picked = pool.filter((_, i) => (i * 7 + p * 5) % 30 < 12);
      const order = picked
        .map((h, i) => [(i * 11 + p * 3) % picked.length, h] as const)
        .sort((x, y) => x[0] - y[0])
        .map(([, h]) => h);
      const file = join(w.dir, `in${p}.csv`);
      writeInput(file, order);
      return { file, out: join(w.dir, `out${p}.csv`), handles: order };
    });
    const wanted = new Set(inputs.flatMap((i) => i.handles));
    expect(wanted.size).toBeGreaterThan(20);
    const ledger = ledgerFrom();
    const runs = inputs.map((i) => start(enrichArgs(i.file, i.out), w.env));
    const results = await Promise.all(runs.map((r) => r.done));
    results.forEach((r, p) => expect(r.code, `process ${p}: ${r.stderr}`).toBe(0));
    inputs.forEach((i) => expectComplete(i.out, i.handles));
    expect(ledger.perHandle()).toEqual(new Map([...wanted].map((h) => [h, 1])));
    expect(ledger.charges()).toHaveLength(wanted.size);
  }, 90_000);

  it('daily-budget 1 and two processes whose worst cases are 0.8 each: exactly one is refused (exit 5) before sending', async () => {
    const w = world();
    const set = await spawnCli(['config', 'set', 'daily-budget', '1'], w.env);
    expect(set.code, set.stderr).toBe(0);
    // Answers take a while, so both runs are live together: the second sees the first's reservation.
    latency('enrich=700ms');
    const [a, b] = creatorHandles(sb.get(), 2, 330);
    const ledger = ledgerFrom();
    const runs = [a, b].map((h) =>
      start(['enrich', 'handle', h as string, '--platform', 'instagram', '--mode', 'analytics', '--json'], w.env),
    );
    const results = await Promise.all(runs.map((r) => r.done));
    const codes = results.map((r) => r.code).sort();
    expect(codes, results.map((r) => r.stderr).join('\n')).toEqual([0, 5]);
    const refused = results.find((r) => r.code === 5) as SpawnResult;
    const passed = results.indexOf(results.find((r) => r.code === 0) as SpawnResult);
    expect(refused.stderr).toMatch(
      /This run could cost up to 0\.8 credits, over the daily-budget of 1: .*nothing was sent\./,
    );
    expect(refused.stdout).toBe('');
    expect(ledger.charges().map((c) => [c.note, c.milli])).toEqual([[`analytics instagram:${[a, b][passed]}`, 800]]);

    // The creator bought is in the store: asking again costs nothing, so the budget (0.2 left) lets it through.
    latency('');
    const winner = [
      'enrich',
      'handle',
      [a, b][passed] as string,
      '--platform',
      'instagram',
      '--mode',
      'analytics',
      '--json',
    ];
    const plan = await spawnCli([...winner, '--dry-run'], w.env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      worst_case_credits: 0,
      cost_basis: '1 handle from the store at 0 credits',
    });
    const again = await spawnCli(winner, w.env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).result).toEqual(JSON.parse(results[passed]?.stdout as string).result);
    const loser = await spawnCli(
      ['enrich', 'handle', [a, b][1 - passed] as string, '--platform', 'instagram', '--mode', 'analytics', '--json'],
      w.env,
    );
    expect(loser.code, loser.stderr).toBe(5);
    expect(ledger.charges()).toHaveLength(1);
  }, 60_000);

  it("four processes share the account's pace: no 429, never above the limit, and together about the whole rate", async () => {
    const arrivals: number[] = [];
    let throttled = 0;
    const LIMIT = 120;
    const paced = await startSandbox({
      port: 0,
      seed: 24,
      rateLimit: LIMIT,
      log: (line) => {
        const m = /^POST \/public\/v1\/creators\/enrich\/\S+ (\d{3}) (\d+)ms$/.exec(line);
        if (!m) return;
        if (m[1] === '429') throttled++;
        arrivals.push(Date.now() - Number(m[2]));
      },
    });
    try {
      const dir = tempDir('creators-baddays-pace-');
      const env = {
        ...sandboxEnv(paced),
        CREATORS_CONFIG_DIR: join(dir, 'config'),
        CREATORS_RATE_LIMIT: String(LIMIT),
      };
      const handles = creatorHandles(paced, 12);
      const runs = [0, 1, 2, 3].map((p) => {
        const file = join(dir, `in${p}.csv`);
        writeInput(file, handles.slice(p * 3, p * 3 + 3));
        return start(enrichArgs(file, join(dir, `out${p}.csv`)), env);
      });
      const results = await Promise.all(runs.map((r) => r.done));
      results.forEach((r, p) => expect(r.code, `process ${p}: ${r.stderr}`).toBe(0));
      expect(arrivals).toHaveLength(12);
      expect(throttled).toBe(0);
      // The pacer's schedule (lib/http/pacer.ts): a burst of 5, then one every 60000 / (120 - 4) x 1.02 ms.
      const interval = (60_000 / (LIMIT - 4)) * 1.02;
      const times = [...arrivals].sort((x, y) => x - y);
      const span = (times.at(-1) as number) - (times[0] as number);
      // Any n requests in a row take at least (n - 5) intervals, whoever sent them; four separate paces
      // would send all 12 within moments (3 each, inside each one's burst). The slack is how late this
      // test's own busy event loop may see an arrival.
      const SLACK = 300;
      for (let i = 0; i < times.length; i++) {
        for (let j = i + 5; j < times.length; j++) {
          expect(
            (times[j] as number) - (times[i] as number),
            `requests ${i}..${j} of ${times.map((t) => t - (times[0] as number)).join(', ')}`,
          ).toBeGreaterThanOrEqual((j - i - 4) * interval - SLACK);
        }
      }
      // Together they keep close to the schedule (start-up of four processes aside).
      expect(span).toBeLessThan((12 - 5) * interval + 3000);
    } finally {
      await paced.close();
    }
  }, 60_000);
});
