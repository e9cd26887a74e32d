import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CSV_NAMES } from '../../../src/commands/csv-flags.js';
import { countValues, readCsv, spoolStdin } from '../../../src/lib/csv/read.js';
import { tempDir } from '../../helpers/temp.js';

const stream = (text: string) => Readable.from([Buffer.from(text)]);

async function all(rows: AsyncIterable<string[]>): Promise<string[][]> {
  const out: string[][] = [];
  for await (const r of rows) out.push(r);
  return out;
}

describe('readCsv', () => {
  it('takes the first row as the header, keeps quoted newlines; relaxed, pads short rows and cuts long ones', async () => {
    const input = await readCsv(stream('\uFEFFa,b,c\n1,"x\ny",3\n4\n5,6,7,8\n'), 'in.csv', { relaxColumns: true });
    expect(input.header).toEqual(['a', 'b', 'c']);
    expect(input.headerSynthesized).toBe(false);
    expect(await all(input.rows)).toEqual([
      ['1', 'x\ny', '3'],
      ['4', '', ''],
      ['5', '6', '7'],
    ]);
  });

  it('names repeated or blank header cells uniquely', async () => {
    const input = await readCsv(stream('name,name,\n1,2,3\n'), 'in.csv');
    expect(input.header).toEqual(['name', 'name_2', 'column3']);
  });

  it('never renames a repeated header cell to a name the header already has', async () => {
    const cases: [string, string[]][] = [
      ['note,note,note_2', ['note', 'note_3', 'note_2']],
      ['note_2,note,note', ['note_2', 'note', 'note_3']],
      ['a,a,a_2,a_3,a', ['a', 'a_4', 'a_2', 'a_3', 'a_5']],
      ['a,a_2,a_2', ['a', 'a_2', 'a_2_2']],
      ['x,,column2', ['x', 'column2', 'column2_2']],
    ];
    for (const [line, header] of cases) {
      const input = await readCsv(
        stream(
          `${line}\n${line
            .split(',')
            .map((_, i) => i)
            .join(',')}\n`,
        ),
        'in.csv',
      );
      expect(input.header, line).toEqual(header);
      expect(new Set(input.header).size, line).toBe(header.length);
    }
  });

  it('treats a first row of data (email, @handle, URL) as data, naming a single column by the kind', async () => {
    const emails = await readCsv(stream('a@b.co\nc@d.co\n'), '-', { kindHint: 'email' });
    expect(emails.header).toEqual(['email']);
    expect(emails.headerSynthesized).toBe(true);
    expect(await all(emails.rows)).toEqual([['a@b.co'], ['c@d.co']]);
    const two = await readCsv(stream('@ann,x\n@bob,y\n'), '-', { kindHint: 'handle' });
    expect(two.header).toEqual(['column1', 'column2']);
  });

  it('streams: the sample is the first rows and the rest is read on demand', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `h${i}`).join('\n');
    const input = await readCsv(stream(`handle\n${lines}\n`), 'big.csv');
    expect(input.sample).toHaveLength(5);
    let n = 0;
    for await (const _ of input.rows) n++;
    expect(n).toBe(50_000);
  });

  it('a plain TSV (quotes that are not CSV quotes) is read without quoting, and says so once', async () => {
    const notices: string[] = [];
    const text = 'handle\ttitle\nnoah_paws\tHe said "hi"\neva_khan\t"Best of" 2026\nhannah\t"quoted"\n';
    const input = await readCsv(stream(text), 'export.tsv', { notice: (m) => notices.push(m), named: CSV_NAMES });
    expect(input.header).toEqual(['handle', 'title']);
    expect(await all(input.rows)).toEqual([
      ['noah_paws', 'He said "hi"'],
      ['eva_khan', '"Best of" 2026'],
      ['hannah', '"quoted"'],
    ]);
    expect(notices).toEqual([
      "Reading 'export.tsv' as plain tab-separated values: its quotes are not CSV quotes and are kept in the values (tab from its header line; --delimiter to choose another).",
    ]);
    // --delimiter tab: the same, the notice about the quotes only.
    const forced: string[] = [];
    const again = await readCsv(stream(text), 'export.tsv', { delimiter: '\t', notice: (m) => forced.push(m) });
    expect((await all(again.rows))[0]).toEqual(['noah_paws', 'He said "hi"']);
    expect(forced).toEqual([
      "Reading 'export.tsv' as plain tab-separated values: its quotes are not CSV quotes and are kept in the values.",
    ]);
  });

  it('a TSV quoted as CSV (our own tsv output) keeps its CSV quoting; a comma file with a stray quote is still refused', async () => {
    const notices: string[] = [];
    const quoted = await readCsv(stream('handle\tnote\nnoah_paws\t"a\tb ""c"""\n'), 'ours.tsv', {
      notice: (m) => notices.push(m),
      named: CSV_NAMES,
    });
    expect(await all(quoted.rows)).toEqual([['noah_paws', 'a\tb "c"']]);
    expect(notices).toEqual([
      "Reading 'ours.tsv' as tab-separated (from its header line; --delimiter to choose another).",
    ]);
    await expect(readCsv(stream('handle,title\nnoah,He said "hi"\n'), 'in.csv')).rejects.toThrow(
      /in\.csv' is not valid CSV: line 2, field 2: a quote inside an unquoted value/,
    );
  });

  it('an empty input or malformed CSV is a usage error', async () => {
    await expect(readCsv(stream(''), 'empty.csv')).rejects.toThrow(/holds no rows/);
    await expect(readCsv(stream('a\n"oops\n'), 'bad.csv')).rejects.toThrow(/'bad.csv' is not valid CSV/);
    // Past the sample, the error surfaces while the rows are read.
    const late = await readCsv(stream(`a\n${'x\n'.repeat(20)}"oops\n`), 'late.csv');
    await expect(all(late.rows)).rejects.toThrow(/'late.csv' is not valid CSV/);
  });
});

describe('countValues and spoolStdin (through the one input opener)', () => {
  const ports = (cwd: string, stdin = '') => ({ cwd, stdin: Readable.from([Buffer.from(stdin)]), stdinIsTTY: false });

  it('counts rows and non-blank values of a column, the path taken from the ports cwd', async () => {
    const dir = tempDir('creators-csv-');
    writeFileSync(join(dir, 'in.csv'), 'a,b\n1,x\n2,\n3,y\n');
    expect(await countValues(ports(dir), 'in.csv', '--input', 1)).toEqual({ rows: 3, values: 2 });
    await expect(countValues(ports(dir), 'nope.csv', '--input', 0)).rejects.toThrow(
      "Cannot read --input file 'nope.csv'",
    );
  });

  it('spools stdin to a private file that cleanup removes', async () => {
    const spooled = await spoolStdin(ports(tmpdir(), 'h\nann\n'), '--input');
    expect(readFileSync(spooled.path, 'utf8')).toBe('h\nann\n');
    expect(statSync(spooled.path).mode & 0o777).toBe(0o600);
    await spooled.cleanup();
    expect(existsSync(spooled.path)).toBe(false);
  });

  it('refuses a terminal on stdin', async () => {
    await expect(spoolStdin({ cwd: tmpdir(), stdin: Readable.from([]), stdinIsTTY: true }, '--input')).rejects.toThrow(
      "--input '-' reads standard input, but it is a terminal.",
    );
  });
});
