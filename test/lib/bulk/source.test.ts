import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openBulkSource, type SourcePorts } from '../../../src/lib/bulk/source.js';
import { BULK_NAMES } from '../../../src/commands/enrich/bulk-flags.js';
import { tempDir } from '../../helpers/temp.js';

function ports(o: { cwd?: string; stdin?: string } = {}): SourcePorts & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    cwd: o.cwd ?? tmpdir(),
    stdin: Readable.from([Buffer.from(o.stdin ?? '')]),
    stdinIsTTY: false,
    warn: (m) => warnings.push(m),
    warnings,
  };
}

async function all(rows: AsyncIterable<string[]>): Promise<string[][]> {
  const out: string[][] = [];
  for await (const r of rows) out.push(r);
  return out;
}

describe('openBulkSource', () => {
  it('arguments: cut by --max-rows with a warning, blank values not counted', async () => {
    const p = ports();
    const source = await openBulkSource(p, {
      values: ['', 'a', 'b'],
      kind: 'handle',
      maxRows: 2,
      needCount: false,
      named: BULK_NAMES,
    });
    expect(source).toMatchObject({ header: ['handle'], valueIndex: 0, count: 1, firstValue: 'a', fromFile: false });
    expect(await all(source.rows)).toEqual([[''], ['a']]);
    expect(p.warnings).toEqual(['--max-rows 2: 1 of 3 values was not enriched.']);
  });

  it('--max-rows: the verb agrees with the count left out', async () => {
    const p = ports();
    await openBulkSource(p, {
      values: ['a', 'b', 'c'],
      kind: 'handle',
      maxRows: 1,
      needCount: false,
      named: BULK_NAMES,
    });
    expect(p.warnings).toEqual(['--max-rows 1: 2 of 3 values were not enriched.']);
  });

  it('a file relative to the ports cwd: counted, the column guessed with a warning', async () => {
    const dir = tempDir('creators-source-');
    writeFileSync(join(dir, 'in.csv'), 'who,n\nann,1\nbob,2\n,3\n');
    const p = ports({ cwd: dir });
    const source = await openBulkSource(p, {
      values: [],
      input: 'in.csv',
      kind: 'handle',
      needCount: false,
      named: BULK_NAMES,
    });
    const seen: string[][] = [];
    await source.countPass(async (values) => void seen.push(values));
    expect(seen).toEqual([['ann', 'bob']]);
    expect(source).toMatchObject({ header: ['who', 'n'], valueIndex: 0, count: 2, firstValue: 'ann', fromFile: true });
    expect(p.warnings).toEqual([
      "No handle column recognised in in.csv: using the first column, 'who'. Name the right one with --column.",
    ]);
    await source.cleanup();
  });

  it('stdin that must be counted is spooled to a private file, removed by cleanup', async () => {
    const p = ports({ stdin: 'email\nann@example.com\nbob@example.com\n' });
    const source = await openBulkSource(p, {
      values: [],
      input: '-',
      kind: 'email',
      needCount: true,
      named: BULK_NAMES,
    });
    await source.countPass();
    expect(source.count).toBe(2);
    expect(await all(source.rows)).toEqual([['ann@example.com'], ['bob@example.com']]);
    await source.cleanup();
    expect(p.warnings).toEqual([]);
  });

  it('stdin read once when nothing needs the count', async () => {
    const source = await openBulkSource(ports({ stdin: 'email\nann@example.com\n' }), {
      values: [],
      input: '-',
      kind: 'email',
      needCount: false,
      named: BULK_NAMES,
    });
    expect(source.count).toBeUndefined();
    expect(await all(source.rows)).toEqual([['ann@example.com']]);
  });

  it('the count pass reads the whole file but hands on only the values of the rows --max-rows lets through', async () => {
    const dir = tempDir('creators-source-');
    writeFileSync(join(dir, 'in.csv'), 'handle,n\nann,1\n,2\nbob,3\ncid,4\n');
    const source = await openBulkSource(ports({ cwd: dir }), {
      values: [],
      input: 'in.csv',
      kind: 'handle',
      maxRows: 3,
      needCount: false,
      named: BULK_NAMES,
    });
    const seen: string[] = [];
    await source.countPass(async (values) => void seen.push(...values));
    expect(seen).toEqual(['ann', 'bob']);
    expect(source.count).toBe(3);
    writeFileSync(join(dir, 'bad.csv'), `handle,n\n${'ann,1\n'.repeat(8)}cid,3,4\n`);
    const bad = await openBulkSource(ports({ cwd: dir }), {
      values: [],
      input: 'bad.csv',
      kind: 'handle',
      maxRows: 1,
      needCount: false,
      named: BULK_NAMES,
    });
    await expect(bad.countPass()).rejects.toThrow(/line 10 has 3 values/);
    expect(source.header).toEqual(['handle', 'n']);
  });
  it('a file the plain scan gives up on midway (a row over 1 MB) is counted by csv-parse, each value handed on once', async () => {
    const dir = tempDir('creators-source-');
    const before = Array.from({ length: 2500 }, (_, i) => `h${i},"n ${i}"\n`).join('');
    const after = Array.from({ length: 10 }, (_, i) => `t${i},x\n`).join('');
    writeFileSync(join(dir, 'in.csv'), `handle,n\n${before}long,"${'y'.repeat(1100 * 1024)}"\n${after}`);
    const source = await openBulkSource(ports({ cwd: dir }), {
      values: [],
      input: 'in.csv',
      kind: 'handle',
      needCount: false,
      named: BULK_NAMES,
    });
    const seen: string[] = [];
    await source.countPass(async (values) => void seen.push(...values));
    expect(seen).toEqual([
      ...Array.from({ length: 2500 }, (_, i) => `h${i}`),
      'long',
      ...Array.from({ length: 10 }, (_, i) => `t${i}`),
    ]);
    expect(source.count).toBe(2511);
    await source.cleanup();
  });
  async function runsOf(source: { runs?: AsyncIterable<readonly string[][]> | undefined }): Promise<string[][]> {
    const out: string[][] = [];
    for await (const run of source.runs ?? []) out.push(...run);
    return out;
  }

  it('a file found plain before the gate is run through the plain scan: the rows csv-parse gives, in runs', async () => {
    const dir = tempDir('creators-source-');
    const body = Array.from({ length: 3000 }, (_, i) => `h${i},"n, ""${i}""",\r\n`).join('');
    writeFileSync(join(dir, 'in.csv'), `handle,n,empty\r\n${body}\n\nlast,"a\nb",z`);
    const open = () =>
      openBulkSource(ports({ cwd: dir }), {
        values: [],
        input: 'in.csv',
        kind: 'handle',
        needCount: false,
        named: BULK_NAMES,
      });
    const parsed = await open();
    const byCsvParse = await runsOf(parsed);
    const plain = await open();
    await plain.countPass(async () => {});
    const byScan = await runsOf(plain);
    expect(byCsvParse).toHaveLength(3001);
    expect(byCsvParse[1]).toEqual(['h1', 'n, "1"', '']);
    expect(byCsvParse[3000]).toEqual(['last', 'a\nb', 'z']);
    expect(byScan).toEqual(byCsvParse);
    await parsed.cleanup();
    await plain.cleanup();
  });

  it('a plain file changed after the gate (no longer plain) is read by csv-parse, no row handed twice', async () => {
    const dir = tempDir('creators-source-');
    const file = join(dir, 'in.csv');
    const rows = Array.from({ length: 5000 }, (_, i) => `h${i},n${i}\n`);
    writeFileSync(file, `handle,n\n${rows.join('')}`);
    const source = await openBulkSource(ports({ cwd: dir }), {
      values: [],
      input: 'in.csv',
      kind: 'handle',
      needCount: false,
      named: BULK_NAMES,
    });
    await source.countPass(async () => {});
    // A quote inside a bare field on line 4002: the plain scan gives up there, csv-parse refuses it naming the line.
    rows[4000] = 'h4000,n"4000\n';
    writeFileSync(file, `handle,n\n${rows.join('')}`);
    const got: string[][] = [];
    let failure: unknown;
    try {
      for await (const run of source.runs ?? []) got.push(...run);
    } catch (err) {
      failure = err;
    }
    expect((failure as Error).message).toMatch(/line 4002, field 2: a quote inside an unquoted value/);
    expect(got.length).toBeLessThanOrEqual(4000);
    expect(got.length).toBeGreaterThan(1000);
    expect(got).toEqual(Array.from({ length: got.length }, (_, i) => [`h${i}`, `n${i}`]));
    await source.cleanup();
  });
});
