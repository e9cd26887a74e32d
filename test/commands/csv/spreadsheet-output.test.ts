import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp.js';

/** Records written by strangers: a creator name that is a formula, a bio that is a sum, a handle that is a mention. */
const RECORDS = [
  { name: '=HYPERLINK("http://x.example","win")', bio: '-2+3', handle: '@ann', note: '\tindent', n: -5, ok: true },
  { name: 'Plain Name', bio: 'a=b', handle: 'bob', note: '\rx', n: 3, ok: false },
];

function api(times: number) {
  const { agent, pool, env } = mockApi();
  pool.intercept({ path: '/public/v1/things/', method: 'GET' }).reply(200, RECORDS, JSON_HEADERS).times(times);
  return { agent, env };
}

describe('--csv-safe and --bom (spreadsheet safety, opt-in)', () => {
  it('off by default: cells are written exactly, no byte order mark', async () => {
    const { agent, env } = api(1);
    const res = await runCli(['api', 'things', '--format', 'csv'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith('name,')).toBe(true);
    expect(parse(res.stdout, { columns: true })[0]).toMatchObject({
      name: RECORDS[0]?.name,
      bio: '-2+3',
      handle: '@ann',
      note: '\tindent',
      n: '-5',
    });
  });

  it("--csv-safe prefixes cells starting with = + - @ tab or CR with ' (not negative numbers); --bom starts the file with a UTF-8 BOM", async () => {
    const { agent, env } = api(2);
    const out = join(tempDir(), 'creators.csv');
    const res = await runCli(['api', 'things', '--csv-safe', '--bom', '-o', out], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    const bytes = readFileSync(out);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Exactly one BOM, then csv whose cells carry the prefix.
    const text = bytes.subarray(3).toString('utf8');
    expect(text.startsWith('name,')).toBe(true);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({
      name: `'${RECORDS[0]?.name}`,
      bio: "'-2+3",
      handle: "'@ann",
      note: "'\tindent",
      n: '-5',
      ok: 'true',
    });
    expect(rows[1]).toMatchObject({ name: 'Plain Name', bio: 'a=b', handle: 'bob', note: "'\rx", n: '3' });
    // tsv: the same rules with a tab delimiter.
    const tsv = await runCli(['api', 'things', '--format', 'tsv', '--csv-safe'], { env, dispatcher: agent });
    expect(tsv.code).toBe(0);
    expect(parse(tsv.stdout, { columns: true, delimiter: '\t' })[0]).toMatchObject({
      handle: "'@ann",
      note: "'\tindent",
    });
  });

  it('the profile settings csv-safe and bom do the same; only true or false is accepted', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'csv-safe', 'true'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'set', 'bom', 'true'], { configDir })).code).toBe(0);
    const bad = await runCli(['config', 'set', 'bom', 'yes'], { configDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must be true or false');
    const { agent, env } = api(1);
    const res = await runCli(['api', 'things', '--format', 'csv'], { env, dispatcher: agent, configDir });
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith('\uFEFFname,')).toBe(true);
    expect(parse(res.stdout.slice(1), { columns: true })[0]).toMatchObject({ handle: "'@ann" });
  });

  it('--no-csv-safe and --no-bom turn the profile settings off for one run (the flag wins over the profile)', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'csv-safe', 'true'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'set', 'bom', 'true'], { configDir })).code).toBe(0);
    const { agent, env } = api(3);
    const exact = await runCli(['api', 'things', '--format', 'csv', '--no-csv-safe', '--no-bom'], {
      env,
      dispatcher: agent,
      configDir,
    });
    expect(exact.code).toBe(0);
    expect(exact.stdout.startsWith('name,')).toBe(true);
    expect(parse(exact.stdout, { columns: true })[0]).toMatchObject({
      name: RECORDS[0]?.name,
      handle: '@ann',
      note: '\tindent',
    });
    // Each one alone leaves the other setting in force.
    const noBom = await runCli(['api', 'things', '--format', 'csv', '--no-bom'], { env, dispatcher: agent, configDir });
    expect(noBom.stdout.startsWith('name,')).toBe(true);
    expect(parse(noBom.stdout, { columns: true })[0]).toMatchObject({ handle: "'@ann" });
    const unsafe = await runCli(['api', 'things', '--format', 'csv', '--no-csv-safe'], {
      env,
      dispatcher: agent,
      configDir,
    });
    expect(unsafe.stdout.startsWith('\uFEFFname,')).toBe(true);
    expect(parse(unsafe.stdout.slice(1), { columns: true })[0]).toMatchObject({ handle: '@ann' });
  });

  it('json keeps the data exactly whatever the settings', async () => {
    const { agent, env } = api(1);
    const res = await runCli(['api', 'things', '--json', '--csv-safe', '--bom'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.json()).toEqual(RECORDS);
  });
});
