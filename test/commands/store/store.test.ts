/**
 * `creators store path|stats|list|export` against the sandbox: what was bought is listed (every format,
 * filters by platform, kind and age), counted and exported with its exact bodies; a machine without a
 * store gets empty answers and no file.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/lib/store/schema.js';
import { openSqliteStore } from '../../../src/lib/store/sqlite.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';
import { snapshotTree } from '../../helpers/tree-snapshot.js';
import { useTimeZone } from '../../helpers/time-zone.js';

const sb = useSandbox();

// Terminal tables show local times: read in UTC here.
useTimeZone('UTC');

const T0 = Date.parse('2026-11-22T10:00:00Z');
const HOUR = 3_600_000;
const at = (ms: number) => () => ms;

type Row = Record<string, unknown> & {
  kind: string;
  subject: string | null;
  records: number;
  credits: number;
  bought_at: string;
};

/** A profile that bought noah_paws (raw, at T0) and one Discovery page of 5 (at T0 + 1 h). */
async function boughtTwo(): Promise<{ env: Record<string, string>; configDir: string }> {
  const env = sandboxEnv(sb.get());
  const configDir = tempConfigDir();
  const enriched = await runCli(
    ['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--mode', 'raw', '--json'],
    { env, configDir, now: at(T0) },
  );
  expect(enriched.code, enriched.stderr).toBe(0);
  const searched = await runCli(['search', '--platform', 'instagram', '--limit', '5', '--json'], {
    env,
    configDir,
    now: at(T0 + HOUR),
  });
  expect(searched.code, searched.stderr).toBe(0);
  return { env, configDir };
}

describe('creators store without a store', () => {
  it('path names the file, and list, export and stats answer empty without creating it', async () => {
    const env = sandboxEnv(sb.get());
    const configDir = tempConfigDir();
    const file = join(configDir, 'store', 'default.db');

    const path = await runCli(['store', 'path'], { env, configDir });
    expect(path).toMatchObject({ code: 0, stdout: `${file}\n` });
    const other = await runCli(['--profile', 'staging', 'store', 'path'], { env, configDir });
    expect(other.stdout).toBe(`${join(configDir, 'store', 'staging.db')}\n`);
    const chosen = join(tempDir('creators-store-'), 'team.db');
    expect((await runCli(['store', 'path'], { env: { ...env, CREATORS_STORE: chosen }, configDir })).stdout).toBe(
      `${chosen}\n`,
    );

    const list = await runCli(['store', 'list', '--json'], { env, configDir });
    expect(list).toMatchObject({ code: 0, stdout: '[]\n' });
    const piped = await runCli(['store', 'list'], { env, configDir });
    expect(piped.code).toBe(0);
    expect(piped.json()).toEqual([]);
    const jsonl = await runCli(['store', 'export', '--format', 'jsonl'], { env, configDir });
    expect(jsonl).toMatchObject({ code: 0, stdout: '' });
    const table = await runCli(['store', 'list'], { env, configDir, tty: true });
    expect(table).toMatchObject({ code: 0, stdout: '' });
    expect(table.stderr).toContain("Nothing bought yet with profile 'default'.");

    const stats = await runCli(['store', 'stats', '--json'], { env, configDir });
    expect(stats.code).toBe(0);
    expect(stats.json()).toMatchObject({
      engine: 'sqlite',
      location: file,
      exists: false,
      schema_version: null,
      size_bytes: 0,
      answers: { creator: { count: 0 }, page: { count: 0 } },
      spend: { entries: 0, credits: 0 },
    });
    expect(stats.stderr).toContain(`No store yet at ${file}`);

    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(configDir, 'store'))).toBe(false);

    // An empty file (a first run stopped before the schema was written) holds nothing: read as no store.
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
    expect((await runCli(['store', 'list', '--json'], { env, configDir })).stdout).toBe('[]\n');
    expect((await runCli(['store', 'stats', '--json'], { env, configDir })).json()).toMatchObject({ exists: false });
    expect(statSync(file).size).toBe(0);
  });
});

describe('creators store list', () => {
  it('lists one row per paid answer, newest first, in every format', async () => {
    const { env, configDir } = await boughtTwo();
    const list = await runCli(['store', 'list', '--json'], { env, configDir, now: at(T0 + 2 * HOUR) });
    expect(list.code, list.stderr).toBe(0);
    const rows = list.json<Row[]>();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      bought_at: new Date(T0 + HOUR).toISOString(),
      kind: 'page',
      platform: 'instagram',
      subject: null,
      route: 'discovery',
      status: 'ok',
      records: 5,
      credits: 0.05,
      profile: 'default',
      base_url: `${sb.get().url}/`,
    });
    expect(rows[1]).toMatchObject({
      bought_at: new Date(T0).toISOString(),
      kind: 'creator',
      platform: 'instagram',
      subject: 'noah_paws',
      route: 'creators/enrich/handle/raw',
      status: 'ok',
      records: 1,
      credits: 0.03,
    });
    expect(rows[1]?.key).toMatch(/^[0-9a-f]{32}$/);

    const jsonl = await runCli(['store', 'list', '--format', 'jsonl'], { env, configDir });
    expect(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(rows);
    const csv = await runCli(['store', 'list', '--format', 'csv'], { env, configDir });
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('bought_at,kind,platform,subject,route,status,records,credits,profile,base_url,key');
    expect(lines[2]).toContain(',creator,instagram,noah_paws,creators/enrich/handle/raw,ok,1,0.03,default,');
    const tsv = await runCli(['store', 'list', '--format', 'tsv'], { env, configDir });
    expect(tsv.stdout.split('\n')[2]?.split('\t').slice(1, 5)).toEqual([
      'creator',
      'instagram',
      'noah_paws',
      'creators/enrich/handle/raw',
    ]);

    // Piped, an explicit table is the terminal's columns as tab-separated rows, no header.
    const pipedTable = await runCli(['store', 'list', '--format', 'table'], { env, configDir });
    expect(pipedTable.stdout).toBe(
      `${new Date(T0 + HOUR).toISOString()}\tpage\tinstagram\t\tdiscovery\t5\t0.05\n${new Date(T0).toISOString()}\tcreator\tinstagram\tnoah_paws\tcreators/enrich/handle/raw\t1\t0.03\n`,
    );
    const table = await runCli(['store', 'list', '--no-color'], { env, configDir, tty: true, columns: 120 });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/│ Bought\s+│ Kind\s+│ Platform\s+│ Creator\s+│ Route\s+│ Records │ Credits │/);
    expect(table.stdout).toMatch(
      /│ 2026-11-22 10:00 UTC │ creator │ instagram │ noah_paws │ creators\/enrich\/handle\/raw │\s+1 │\s+0.03 │/,
    );
    expect(table.stderr).toBe('');
  });

  it('filters by platform, kind and age', async () => {
    const { env, configDir } = await boughtTwo();
    const now = at(T0 + 2 * HOUR);
    const subjects = async (...flags: string[]): Promise<Array<string | null>> => {
      const res = await runCli(['store', 'list', '--json', ...flags], { env, configDir, now });
      expect(res.code, res.stderr).toBe(0);
      return res.json<Row[]>().map((r) => (r.kind === 'page' ? 'page' : r.subject));
    };
    expect(await subjects('--kind', 'creator')).toEqual(['noah_paws']);
    expect(await subjects('--kind', 'page')).toEqual(['page']);
    expect(await subjects('--platform', 'Instagram')).toEqual(['page', 'noah_paws']);
    expect(await subjects('--platform', 'youtube')).toEqual([]);
    // Bought 2 h and 1 h before `now`.
    expect(await subjects('--newer-than', '90m')).toEqual(['page']);
    expect(await subjects('--older-than', '90m')).toEqual(['noah_paws']);
    expect(await subjects('--newer-than', '3h', '--older-than', '30m')).toEqual(['page', 'noah_paws']);
    expect(await subjects('--older-than', '3h')).toEqual([]);

    const empty = await runCli(['store', 'list', '--platform', 'youtube'], { env, configDir, tty: true });
    expect(empty.stderr).toContain('Nothing in the store matches.');
    for (const [flags, message] of [
      [['--kind', 'post'], /Allowed choices are creator, page/],
      [['--platform', 'myspace'], /Unknown platform 'myspace'/],
      [['--older-than', 'soon'], /Invalid --older-than 'soon'/],
      [
        ['--newer-than', '1h', '--older-than', '2h'],
        /^error: --newer-than 1h and --older-than 2h leave no time between them\.\n.*--newer-than must be the longer of the two: --newer-than 30d --older-than 7d is what was bought 7 to 30 days ago\.\n$/,
      ],
    ] as const) {
      const bad = await runCli(['store', 'list', ...flags], { env, configDir });
      expect(bad.code, flags.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(message);
    }
  });
});

describe('reading the store changes nothing', () => {
  it('list, export, stats and spend leave the store file as it was (opened read-only)', async () => {
    const { env, configDir } = await boughtTwo();
    const tree = JSON.stringify(snapshotTree(configDir));
    for (const argv of [['store', 'list'], ['store', 'export'], ['store', 'stats'], ['spend'], ['store', 'path']]) {
      const res = await runCli([...argv, '--json'], { env, configDir });
      expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(0);
      expect(JSON.stringify(snapshotTree(configDir)), argv.join(' ')).toBe(tree);
    }
  });

  it('an older store is read as it is: not migrated by a reader', async () => {
    const env = sandboxEnv(sb.get());
    const configDir = tempConfigDir();
    const file = join(configDir, 'store', 'default.db');
    mkdirSync(dirname(file), { recursive: true });
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (f: string) => { exec(sql: string): void; prepare(sql: string): { get(): unknown }; close(): void };
    };
    const db = new Database(file);
    db.exec(MIGRATIONS[0] as string);
    db.exec(
      `INSERT INTO answers VALUES ('k1', '${sb.get().url}/', 'creators/enrich/handle/raw', 'creator', 'instagram', 'noah_paws', '{}', '{"result":{}}', 'ok', 30, 1, ${T0}, 'default')`,
    );
    db.exec('PRAGMA user_version = 1');
    db.close();
    for (const argv of [['store', 'list'], ['store', 'stats'], ['spend']]) {
      const res = await runCli([...argv, '--json'], { env, configDir });
      expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(0);
    }
    expect((await runCli(['store', 'list', '--json'], { env, configDir })).json<Row[]>().map((r) => r.subject)).toEqual(
      ['noah_paws'],
    );
    const check = new Database(file);
    expect(check.prepare('PRAGMA user_version').get()).toMatchObject({ user_version: 1 });
    check.close();
  });
});

describe('creators store stats', () => {
  it('counts records by kind, credits, oldest and newest, size, and the spend log', async () => {
    const { env, configDir } = await boughtTwo();
    const res = await runCli(['store', 'stats', '--json'], { env, configDir });
    expect(res.code, res.stderr).toBe(0);
    const stats = res.json<{ size_bytes: number } & Record<string, unknown>>();
    expect(stats).toMatchObject({
      engine: 'sqlite',
      location: join(configDir, 'store', 'default.db'),
      exists: true,
      schema_version: SCHEMA_VERSION,
      answers: {
        creator: {
          count: 1,
          records: 1,
          credits: 0.03,
          oldest: new Date(T0).toISOString(),
          newest: new Date(T0).toISOString(),
        },
        page: {
          count: 1,
          records: 5,
          credits: 0.05,
          oldest: new Date(T0 + HOUR).toISOString(),
          newest: new Date(T0 + HOUR).toISOString(),
        },
      },
      spend: {
        entries: 2,
        credits: 0.08,
        oldest: new Date(T0).toISOString(),
        newest: new Date(T0 + HOUR).toISOString(),
      },
    });
    expect(stats.size_bytes).toBeGreaterThan(4096);

    const table = await runCli(['store', 'stats', '--no-color'], { env, configDir, tty: true });
    expect(table.stdout).toMatch(/│ Creator records\s+│ 1\s+│/);
    expect(table.stdout).toMatch(/│ Pages: creators on them\s+│ 5\s+│/);
    expect(table.stdout).toMatch(/│ Spend log: credits\s+│ 0\.08\s+│/);
    expect(table.stdout).toMatch(/│ Pages: newest\s+│ 2026-11-22 11:00 UTC\s+│/);
    const piped = await runCli(['store', 'stats', '--format', 'table'], { env, configDir });
    expect(piped.stdout).toContain('Creator records: credits\t0.03\n');
    const csv = await runCli(['store', 'stats', '--format', 'csv'], { env, configDir });
    const [header, row] = csv.stdout.trim().split('\n');
    expect(header?.split(',')).toContain('answers.page.records');
    expect(row?.split(',')[header!.split(',').indexOf('answers.page.records')]).toBe('5');
  });
});

describe('creators store export', () => {
  it('exports each answer with its request and its body, numbers exact', async () => {
    const { env, configDir } = await boughtTwo();
    const res = await runCli(['store', 'export', '--kind', 'creator', '--json'], { env, configDir });
    expect(res.code, res.stderr).toBe(0);
    const [row] =
      res.json<
        Array<
          Row & {
            request: { route: string; body: Record<string, unknown> };
            answer: { result: Record<string, unknown> };
          }
        >
      >();
    expect(row).toMatchObject({
      kind: 'creator',
      subject: 'noah_paws',
      request: { route: 'creators/enrich/handle/raw', body: { handle: 'noah_paws', platform: 'instagram' } },
    });
    expect(row?.answer.result).toBeTypeOf('object');
    expect(JSON.stringify(row?.answer)).toContain('noah_paws');

    const csv = await runCli(['store', 'export', '--format', 'csv', '--kind', 'creator'], { env, configDir });
    const header = csv.stdout.split('\n')[0]?.split(',') ?? [];
    expect(header.slice(-2)).toEqual(['request', 'answer']);
    const table = await runCli(['store', 'export'], { env, configDir, tty: true });
    expect(table.stdout).toContain('noah_paws');
    expect(table.stdout).not.toContain('"result"');
    expect(table.stderr).toContain('The bodies are left out of a table');

    // A body with a number a double cannot hold comes out with its digits.
    const store = await openSqliteStore({ file: join(configDir, 'store', 'default.db') });
    await store.commit(
      {
        key: 'k-big',
        baseUrl: `${sb.get().url}/`,
        route: 'creators/enrich/handle/raw',
        kind: 'creator',
        platform: 'youtube',
        subject: 'big',
        request: '{"route":"x"}',
        body: '{"result":{"id":12345678901234567890123,"er":1e400}}',
        status: 'ok',
        creditsMilli: 30,
        records: 1,
        boughtAt: T0,
        profile: 'default',
      },
      ['big'],
      undefined,
    );
    await store.close();
    const big = await runCli(['store', 'export', '--platform', 'youtube', '--format', 'jsonl'], { env, configDir });
    expect(big.stdout).toContain('"answer":{"result":{"id":12345678901234567890123,"er":1e400}}');
    const bigCsv = await runCli(['store', 'export', '--platform', 'youtube', '--format', 'csv'], { env, configDir });
    expect(bigCsv.stdout).toContain('"{""result"":{""id"":12345678901234567890123,""er"":1e400}}"');
  });
});
