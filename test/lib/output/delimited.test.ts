import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, rowEncoder, tabLine, valueLineEncoder } from '../../../src/lib/output/delimited.js';

/** The csv encoder quotes cells itself (speed); it must write exactly what csv-stringify writes. */
describe('csv row encoder', () => {
  it('matches csv-stringify on tricky cells', async () => {
    const encode = await rowEncoder('csv');
    const alphabet = ['a', ' ', ',', '"', '\n', '\r', '\t', '=', 'é', '😀', ';', "'", '\\'];
    let seed = 7;
    const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let i = 0; i < 2000; i++) {
      const cells = Array.from({ length: 1 + rnd(4) }, () => Array.from({ length: rnd(6) }, () => alphabet[rnd(alphabet.length)]).join(''));
      expect(encode(cells)).toBe(stringify([cells], { eof: true, record_delimiter: 'unix', quoted_match: /\r/ }));
    }
  });

  it('quotes a comma, a quote, a newline and a lone carriage return (RFC 4180)', () => {
    expect([csvCell('a,b'), csvCell('say "hi"'), csvCell('l1\nl2'), csvCell('x\ry'), csvCell('')]).toEqual(['"a,b"', '"say ""hi"""', '"l1\nl2"', '"x\ry"', '']);
  });
});

describe('value line encoder (rows written straight from raw values)', () => {
  it('writes what the text encoders write for the same cells, for csv and tsv', async () => {
    const values = ['a,b', 'say "hi"', 12345, 2.5, -0.03, true, false, null, 'tab\there', 'l1\r\nl2', '', 'plain'];
    const texts = values.map((v) => (v === null ? '' : String(v)));
    expect(valueLineEncoder('csv')(values)).toBe((await rowEncoder('csv'))(texts));
    expect(valueLineEncoder('tsv')(values)).toBe(tabLine(texts));
    expect(tabLine(texts)).toBe('a,b\tsay "hi"\t12345\t2.5\t-0.03\ttrue\tfalse\t\ttab here\tl1 l2\t\tplain\n');
    expect(valueLineEncoder('csv')([null, 1, null])).toBe(',1,\n');
    expect(valueLineEncoder('tsv')([])).toBe('\n');
  });
});
