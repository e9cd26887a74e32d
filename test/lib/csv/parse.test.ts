import { Readable } from 'node:stream';
import { parse as csvParse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvParser, CsvSyntaxError, type CsvParseOptions } from '../../../src/lib/csv/parse.js';
import { parseBatches } from '../../../src/lib/csv/read.js';
import { csvCell } from '../../../src/lib/output/delimited.js';
import { UsageError } from '../../../src/lib/errors.js';

/** Parses `text` fed in the given pieces. */
function parsePieces(pieces: string[], options?: CsvParseOptions): string[][] {
  const parser = new CsvParser(options);
  const out: string[][] = [];
  for (const piece of pieces) out.push(...parser.push(piece));
  return parser.end(out);
}

const parseAll = (text: string, options?: CsvParseOptions): string[][] => parsePieces([text], options);

/** A seeded generator, so a failure names a case that can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'b', 'Z', '0', ' ', ',', '"', '\n', '\r', '\r\n', 'é', '😀', '\t', "'", ';'];

function randomRecords(rand: () => number): string[][] {
  const records: string[][] = [];
  const rows = 1 + Math.floor(rand() * 20);
  for (let r = 0; r < rows; r++) {
    const width = 1 + Math.floor(rand() * 5);
    const record: string[] = [];
    for (let c = 0; c < width; c++) {
      const len = Math.floor(rand() * 8);
      let cell = '';
      for (let k = 0; k < len; k++) cell += ALPHABET[Math.floor(rand() * ALPHABET.length)];
      record.push(cell);
    }
    // A record of one empty cell is an empty line, which is skipped: not a round-trip case.
    if (record.length === 1 && record[0] === '') record[0] = 'x';
    records.push(record);
  }
  return records;
}

describe('CsvParser', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseAll('a,"b,c","say ""hi""","two\nlines"\n')).toEqual([['a', 'b,c', 'say "hi"', 'two\nlines']]);
  });

  it('ends records at \\n, \\r\\n or a lone \\r, mixed in one file, with or without a final break', () => {
    expect(parseAll('a,b\r\nc,d\ne,f\rg,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
    // A line break inside quotes is part of the value, whatever its kind.
    expect(parseAll('"x\r\ny",z\r\n')).toEqual([['x\r\ny', 'z']]);
  });

  it('skips empty lines but keeps a line of one quoted empty value, and rows of any width', () => {
    expect(parseAll('a\n\n\r\n""\nb,c,d\n,\n')).toEqual([['a'], [''], ['b', 'c', 'd'], ['', '']]);
    expect(parseAll('a,')).toEqual([['a', '']]);
    expect(parseAll('')).toEqual([]);
  });

  it('gives the same records however the text is cut into pieces (every cut point)', () => {
    const text = 'h1,h2\r\n"a ""q"" b","multi\r\nline"\r\nplain,"x"\r\n\r\nlast,row\r';
    const whole = parseAll(text);
    for (let cut = 0; cut <= text.length; cut++) {
      expect(parsePieces([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
    }
    expect(parsePieces([...text])).toEqual(whole);
  });

  it('round-trips random records written with csv quoting, in random pieces, and agrees with csv-parse', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = random(seed);
      const records = randomRecords(rand);
      const text = records.map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
      const pieces: string[] = [];
      for (let at = 0; at < text.length; ) {
        const n = 1 + Math.floor(rand() * 12);
        pieces.push(text.slice(at, at + n));
        at += n;
      }
      expect(parsePieces(pieces), `seed ${seed}`).toEqual(records);
      // csv-parse reads line breaks by the first one it meets; with \n breaks (and \r quoted) the two agree.
      expect(csvParse(text, { relax_column_count: true, skip_empty_lines: true, record_delimiter: '\n' }), `seed ${seed}`).toEqual(records);
    }
  });

  it('refuses a quote inside an unquoted value, naming the line and field, unless quotes are relaxed', () => {
    const err = (() => {
      try {
        parseAll('a,b\nc,d"e\n');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(CsvSyntaxError);
    expect((err as CsvSyntaxError).line).toBe(2);
    expect((err as Error).message).toBe('line 2, field 2: a quote inside an unquoted value (d"...); put the whole value in quotes and double each quote inside it, like "a ""b"" c".');
    expect(parseAll('a,b\nc,d"e\n', { relaxQuotes: true })).toEqual([
      ['a', 'b'],
      ['c', 'd"e'],
    ]);
  });

  it('refuses text after a closing quote; relaxed, the quotes are kept as text', () => {
    expect(() => parseAll('x\n"a"b,c\n')).toThrow(/^line 2, field 1: the closing quote of "a" is followed by "b"/);
    expect(parseAll('"a"b,c\n', { relaxQuotes: true })).toEqual([['"a"b', 'c']]);
  });

  it('names the line where an unclosed quote opened, and bounds a runaway value', () => {
    expect(() => parseAll('a\nb\n"open\nstill\n')).toThrow(/a quote opened on line 3 is never closed/);
    const parser = new CsvParser({ maxFieldLength: 100 });
    parser.push('a\n"');
    expect(() => parser.push('x'.repeat(200))).toThrow(/a quoted value opened on line 2 is longer than 100 characters; is a quote left open\?/);
  });

  it('counts lines inside quoted values, whatever their breaks, so later errors name the right line', () => {
    expect(() => parseAll('"one\ntwo\nthree",x\nbad"quote\n')).toThrow(/^line 4, field 1/);
    expect(() => parseAll('"x\ry"\rq"\r')).toThrow(/^line 3, field 1/);
    expect(() => parseAll('"a\r\nb"\r\n"\r""\n",z\r\nbad"\r\n')).toThrow(/^line 6, field 1/);
    // A \r\n cut between two pieces is still one break.
    expect(() => parsePieces(['"a\r', '\nb"\nbad"\n'])).toThrow(/^line 3, field 1/);
  });
});

describe('parseBatches', () => {
  const chunks = (...parts: (string | Buffer)[]) => Readable.from(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
  async function collect(source: AsyncIterable<Buffer | string>, options?: CsvParseOptions): Promise<string[][]> {
    const out: string[][] = [];
    for await (const batch of parseBatches(source, 'in.csv', options)) out.push(...batch);
    return out;
  }

  it('drops a byte-order mark and decodes a character split across chunks', async () => {
    const smile = Buffer.from('😀');
    const rows = await collect(chunks(Buffer.from([0xef, 0xbb, 0xbf]), 'a,b\nx', smile.subarray(0, 2), smile.subarray(2), ',y\n'));
    expect(rows).toEqual([
      ['a', 'b'],
      ['x😀', 'y'],
    ]);
  });

  it('refuses invalid UTF-8 naming the byte, and malformed CSV naming the file and line (code bad_csv)', async () => {
    await expect(collect(chunks('ok\n', Buffer.from([0x61, 0xff, 0x0a])))).rejects.toThrow(/^'in.csv' is not valid UTF-8 \(byte 4\)\.$/);
    const bad = await collect(chunks('a\n"b\n')).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(UsageError);
    expect((bad as UsageError).message).toBe(`'in.csv' is not valid CSV: a quote opened on line 2 is never closed; close it, or double it ("") if it is part of the value.`);
    expect((bad as UsageError).code).toBe('bad_csv');
  });

  it('a read error is a usage error naming the file, not a CSV error', async () => {
    const failing = new Readable({
      read() {
        this.destroy(Object.assign(new Error('input/output error'), { code: 'EIO' }));
      },
    });
    await expect(collect(failing)).rejects.toThrow(/^Cannot read 'in.csv': input\/output error\.$/);
  });
});
