import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvLineEncoder, tabLine } from '../../../src/lib/output/delimited.js';

/** Random rows of cells made from the characters that matter to a delimited format. */
function randomRows(count: number): string[][] {
  const alphabet = ['a', ' ', ',', '"', '\n', '\r', '\r\n', '\t', ';', '=', 'é', '😀', "'", '\\'];
  let seed = 7;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  return Array.from({ length: count }, () =>
    // At least one non-empty cell: a row of one empty cell is a blank line, which readers skip.
    Array.from(
      { length: 1 + rnd(4) },
      (_, i) => (i === 0 ? 'x' : '') + Array.from({ length: rnd(6) }, () => alphabet[rnd(alphabet.length)]).join(''),
    ),
  );
}

describe('csv and tsv lines through csv-stringify', () => {
  it.each([
    ['csv', ','],
    ['tsv', '\t'],
  ] as const)('%s reads back exactly with a CSV reader given its delimiter', async (format, delimiter) => {
    const encode = await csvLineEncoder(format);
    const rows = randomRows(2000);
    const text = rows.map((row) => encode(row)).join('');
    expect(parse(text, { delimiter, relax_column_count: true })).toEqual(rows);
  });

  it('quotes a comma, a quote, a newline and a lone carriage return (RFC 4180); plain cells as they are', async () => {
    const csv = await csvLineEncoder('csv');
    expect(csv(['a,b', 'say "hi"', 'l1\nl2', 'x\ry', '', 'tab\there', 'plain'])).toBe(
      '"a,b","say ""hi""","l1\nl2","x\ry",,tab\there,plain\n',
    );
  });

  it('tsv is csv with a tab delimiter: tabs, quotes and line breaks are quoted, commas are not', async () => {
    const tsv = await csvLineEncoder('tsv');
    expect(tsv(['a,b', 'say "hi"', 'tab\there', 'l1\r\nl2', 'plain'])).toBe(
      'a,b\t"say ""hi"""\t"tab\there"\t"l1\r\nl2"\tplain\n',
    );
  });

  it('writes raw values: numbers as is, booleans as true/false, null an empty cell, an empty row a line end', async () => {
    const csv = await csvLineEncoder('csv');
    expect(csv([12345, 2.5, -0.03, true, false, null, ''])).toBe('12345,2.5,-0.03,true,false,,\n');
    expect(csv([null, 1, null])).toBe(',1,\n');
    expect(csv([])).toBe('\n');
  });

  it('one stringifier serves a whole output: long rows (beyond its buffer) come back whole and in step', async () => {
    const csv = await csvLineEncoder('csv');
    const long = 'x'.repeat(100_000);
    expect(csv([long, 'a,b'])).toBe(`${long},"a,b"\n`);
    expect(csv(['next'])).toBe('next\n');
  });
});

describe('plain tab-separated lines (piped --format table)', () => {
  it('are not csv: tabs and line breaks become spaces, nothing is quoted', () => {
    expect(tabLine(['a,b', 'say "hi"', 12345, true, null, 'tab\there', 'l1\r\nl2', 'x\ry', ''])).toBe(
      'a,b\tsay "hi"\t12345\ttrue\t\ttab here\tl1 l2\tx y\t\n',
    );
    expect(tabLine([])).toBe('\n');
  });
});

describe('--csv-safe and --bom', () => {
  it("csv-safe prefixes cells starting with = + - @ tab or CR with ', then quotes as usual; numbers are left alone", async () => {
    const csv = await csvLineEncoder('csv', { csvSafe: true });
    expect(csv(['=1+1', '+x', '-x', '@x', '\tx', '\rx', 'a=b', -5, 'plain'])).toBe(
      `'=1+1,'+x,'-x,'@x,'\tx,"'\rx",a=b,-5,plain\n`,
    );
  });

  it('bom writes a UTF-8 byte order mark once, before the first line; neither is on by default', async () => {
    const bom = await csvLineEncoder('tsv', { bom: true });
    expect(bom(['a', 'b'])).toBe('\uFEFFa\tb\n');
    expect(bom(['c', 'd'])).toBe('c\td\n');
    expect((await csvLineEncoder('csv'))(['=x'])).toBe('=x\n');
  });
});

describe('the plain records written without csv-stringify', () => {
  it.each([
    ['csv', false, false],
    ['tsv', false, false],
    ['csv', true, false],
    ['csv', false, true],
    ['tsv', true, true],
  ] as const)(
    '%s (bom %s, csv-safe %s): every line is the one csv-stringify writes for the same records',
    async (format, bom, csvSafe) => {
      let seed = 3;
      const rnd = (n: number): number => (
        (seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor(seed / 65536) % n
      );
      const strings = [
        '',
        'a',
        ' b ',
        ',',
        '\t',
        '"',
        'say "hi"',
        '\n',
        '\r',
        '\r\n',
        '=1',
        '-x',
        '+',
        '@',
        'é😀',
        "'",
        '\\',
        '0',
      ];
      const cell = (): unknown => {
        switch (rnd(8)) {
          case 0:
            return null;
          case 1:
            return undefined;
          case 2:
            return [0, -0, -5, 2.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY, 12345678901234567890][rnd(8)];
          case 3:
            return rnd(2) === 0;
          case 4:
            return { a: 1, b: 'x,"y"' };
          default:
            return Array.from({ length: rnd(4) }, () => strings[rnd(strings.length)]).join('');
        }
      };
      const rows = Array.from({ length: 3000 }, () => Array.from({ length: 1 + rnd(6) }, cell));
      const options = {
        delimiter: format === 'csv' ? ',' : '\t',
        record_delimiter: 'unix',
        eof: true,
        quote_record_delimiter: true,
        bom,
        escape_formulas: csvSafe,
        cast: { boolean: (value: boolean) => String(value) },
      } as const;
      const encode = await csvLineEncoder(format, { bom, csvSafe });
      const ours = rows.map((row) => encode(row as never)).join('');
      expect(ours).toBe(stringify(rows, options));
    },
  );
});
