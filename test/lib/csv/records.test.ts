import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it, vi } from 'vitest';
import { CSV_NAMES } from '../../../src/commands/csv-flags.js';
import { csvRecords, detectDelimiter, readCsv, type CsvStreamOptions } from '../../../src/lib/csv/read.js';
import { scanUtf8 } from '../../../src/lib/csv/decode.js';
import { UsageError } from '../../../src/lib/errors.js';

/** Records of `pieces` (strings as UTF-8 bytes) read through the one reader. */
async function read(pieces: (string | Buffer)[], options?: CsvStreamOptions): Promise<string[][]> {
  const out: string[][] = [];
  for await (const r of csvRecords(
    Readable.from(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))),
    'in.csv',
    options,
  ))
    out.push(r);
  return out;
}
const readAll = (text: string, options?: CsvStreamOptions) => read([text], { relaxColumns: true, ...options });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

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

describe('csvRecords (csv-parse)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', async () => {
    expect(await readAll('a,"b,c","say ""hi""","two\nlines"\n')).toEqual([['a', 'b,c', 'say "hi"', 'two\nlines']]);
  });

  it('ends records at \\n, \\r\\n or a lone \\r, mixed in one file, with or without a final break', async () => {
    expect(await readAll('a,b\r\nc,d\ne,f\rg,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('skips empty lines but keeps a line of one quoted empty value', async () => {
    expect(await readAll('a\n\n""\n\r\nb\n')).toEqual([['a'], [''], ['b']]);
  });

  it('gives the same records however the bytes are cut into pieces (every cut point, a character split too)', async () => {
    const text = Buffer.from('h,"x\r\ny"\r\n😀é,"q""q"\rlast,1');
    const whole = await read([text]);
    expect(whole).toEqual([
      ['h', 'x\r\ny'],
      ['😀é', 'q"q'],
      ['last', '1'],
    ]);
    for (let cut = 1; cut < text.length; cut++)
      expect(await read([text.subarray(0, cut), text.subarray(cut)]), `cut ${cut}`).toEqual(whole);
  });

  it('round-trips random records written by csv-stringify, in random pieces', async () => {
    for (let seed = 1; seed <= 100; seed++) {
      const rand = random(seed);
      const records = randomRecords(rand);
      const text = Buffer.from(stringify(records));
      const pieces: Buffer[] = [];
      for (let at = 0; at < text.length; ) {
        const n = 1 + Math.floor(rand() * 7);
        pieces.push(text.subarray(at, at + n));
        at += n;
      }
      expect(await read(pieces, { relaxColumns: true, delimiter: ',' }), `seed ${seed}`).toEqual(records);
    }
  });

  it('refuses a quote inside an unquoted value, naming the line and field (code bad_csv)', async () => {
    const err = await failure(readAll('a,b\nc,d"e\n'));
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).code).toBe('bad_csv');
    expect(err?.message).toBe(
      `'in.csv' is not valid CSV: line 2, field 2: a quote inside an unquoted value; put the whole value in quotes and double each quote inside it, like "a ""b"" c".`,
    );
  });

  it('refuses text after a closing quote, and an unclosed quote naming where the input ends', async () => {
    expect((await failure(readAll('x\n"a"b,c\n')))?.message).toMatch(
      /line 2: a closing quote is followed by other text instead of a comma/,
    );
    expect((await failure(readAll('a\nb\n"open\nstill\n')))?.message).toMatch(
      /a quote is never closed \(the input ends on line 4\)/,
    );
  });

  it('counts lines inside quoted values, whatever their breaks, so later errors name the right line', async () => {
    expect((await failure(readAll('"one\ntwo\nthree",x\nbad"quote,y\n')))?.message).toMatch(/line 4, field 1/);
    expect((await failure(readAll('"a\nb"\r\n"\r""\n",z\r\nbad"\r\n')))?.message).toMatch(/line 6, field 1/);
  });

  it('hands the parser bytes from two buffers, not a new Buffer a chunk (they piled up over a long run)', async () => {
    const line = 'creator_1,Creator Number 1,"New York, NY",é\n';
    const pieces = Array.from({ length: 64 }, () => Buffer.from(line.repeat(350)));
    const from = vi.spyOn(Buffer, 'from');
    let records = 0;
    try {
      for await (const _ of csvRecords(Readable.from(pieces), 'in.csv')) records++;
      expect(from.mock.calls.filter(([v]) => typeof v === 'string' && v.length >= 4096).length).toBe(0);
    } finally {
      from.mockRestore();
    }
    expect(records).toBe(64 * 350);
  });

  it('a reader that stops early closes the input and does not wait for the rest', async () => {
    let closed = false;
    const source = (async function* () {
      try {
        for (let i = 0; i < 1000; i++) yield Buffer.from(`h${i}\n${'v\n'.repeat(5000)}`);
      } finally {
        closed = true;
      }
    })();
    for await (const record of csvRecords(source, 'in.csv')) {
      expect(record).toEqual(['h0']);
      break;
    }
    expect(closed).toBe(true);
  });

  it('a read error is a usage error naming the file, not a CSV error', async () => {
    const failing = new Readable({
      read() {
        this.destroy(Object.assign(new Error('input/output error'), { code: 'EIO' }));
      },
    });
    await expect(csvRecords(failing, 'in.csv').next()).rejects.toThrow(/^Cannot read 'in.csv': input\/output error\.$/);
  });
});

describe('the input rules', () => {
  it('refuses a row wider or narrower than the header with its line, unless relaxed', async () => {
    const wide = await failure(read(['name,handle\nTorres, Noah,noah_paws\n'], { named: CSV_NAMES }));
    expect(wide?.message).toBe(
      `'in.csv' is not valid CSV: line 2 has 3 values where the header has 2 (comma-separated); quote values that hold a comma, or pass --relax-columns to pad or cut rows to the header.`,
    );
    // A verb without the flag (the caller names none) is not told to use it.
    expect((await failure(read(['name,handle\nTorres, Noah,noah_paws\n'])))?.message).toBe(
      `'in.csv' is not valid CSV: line 2 has 3 values where the header has 2 (comma-separated); quote values that hold a comma.`,
    );
    expect((await failure(read(['a,b,c\n1,2,3\n4\n'])))?.message).toMatch(/line 3 has 1 value where the header has 3/);
    expect(await read(['a,b\n1\n'], { relaxColumns: true })).toEqual([['a', 'b'], ['1']]);
  });

  it('detects ; tab | from the header line (outside quotes), says so, and --delimiter forces one', async () => {
    const notices: string[] = [];
    expect(await read(['name;handle\nNoah;noah_paws\n'], { notice: (m) => notices.push(m), named: CSV_NAMES })).toEqual(
      [
        ['name', 'handle'],
        ['Noah', 'noah_paws'],
      ],
    );
    await read(['name;handle\nNoah;noah_paws\n'], { notice: (m) => notices.push(m) });
    expect(notices).toEqual([
      `Reading 'in.csv' as semicolon-separated (from its header line; --delimiter to choose another).`,
      `Reading 'in.csv' as semicolon-separated (from its header line).`,
    ]);
    expect(await read(['"a;b",c\n"x;y",z\n'])).toEqual([
      ['a;b', 'c'],
      ['x;y', 'z'],
    ]);
    expect(await read(['"name";"handle"\n"Noah ""N""";"noah"\n'])).toEqual([
      ['name', 'handle'],
      ['Noah "N"', 'noah'],
    ]);
    expect(await read(['a\tb\n1\t2\n'])).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(await read(['a|b\n1|2\n'])).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(await read(['a;b\n1;2\n'], { delimiter: ',' })).toEqual([['a;b'], ['1;2']]);
    expect(detectDelimiter('handle')).toBe(',');
  });

  it('decodes UTF-16LE and UTF-16BE with a BOM, and drops a UTF-8 BOM', async () => {
    const text = 'handle,name\r\nnoah,Noé 😀\r\n';
    const want = [
      ['handle', 'name'],
      ['noah', 'Noé 😀'],
    ];
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le).swap16();
    expect(await read([le])).toEqual(want);
    expect(await read([be])).toEqual(want);
    // Cut at every early byte, odd cuts included.
    for (let cut = 1; cut < 9; cut++) expect(await read([le.subarray(0, cut), le.subarray(cut)])).toEqual(want);
    expect(await read([Buffer.from([0xef, 0xbb]), Buffer.from([0xbf]), text])).toEqual(want);
  });

  it('refuses invalid UTF-8 naming the line and byte (surrogates and overlong forms at their first byte)', async () => {
    const at = async (bytes: number[]) =>
      (await failure(read([Buffer.from('handle\nok\n'), Buffer.from([0x61, ...bytes, 0x0a])])))?.message;
    expect(await at([0xff])).toBe(`'in.csv' is not valid UTF-8 (line 3, byte 11).`);
    expect(await at([0xed, 0xa0, 0x80])).toBe(`'in.csv' is not valid UTF-8 (line 3, byte 11).`);
    expect(await at([0xe0, 0x80, 0x80])).toBe(`'in.csv' is not valid UTF-8 (line 3, byte 11).`);
    expect(await at([0xc0, 0xaf])).toBe(`'in.csv' is not valid UTF-8 (line 3, byte 11).`);
    expect(scanUtf8(Buffer.from([0x61, 0xf4, 0x90, 0x80, 0x80]))).toEqual({ invalid: 1, tail: 5 });
    expect(scanUtf8(Buffer.from([0x61, 0xe2, 0x82]))).toEqual({ invalid: -1, tail: 1 });
    const latin1 = Buffer.concat([Buffer.from('handle\nok\nJos'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const err = await failure(read([latin1]));
    expect(err?.message).toBe(`'in.csv' is not valid UTF-8 (line 3, byte 13).`);
    expect((err as UsageError).hint).toMatch(/UTF-16 with a byte-order mark/);
  });

  it('refuses a NUL byte naming its line', async () => {
    expect((await failure(read(['handle\nok\nb\0ad\n'])))?.message).toMatch(
      /^'in.csv' holds a NUL byte; .* \(line 3, byte 11\)\.$/,
    );
  });

  it('skips # comment lines only where asked (handle lists), and only at the start of a line', async () => {
    expect(await read(['handle\n# seen\nann#1\n'], { comments: true })).toEqual([['handle'], ['ann#1']]);
    expect(await read(['handle\n# seen\n'])).toEqual([['handle'], ['# seen']]);
  });
});

describe('readCsv: rows in runs', () => {
  const text = `handle,n\n${Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? `h${i}` : `h${i},${i}`)).join('\n')}\n`;
  const pieces = (all: string, size: number) =>
    Readable.from(
      Array.from({ length: Math.ceil(all.length / size) }, (_, k) => Buffer.from(all.slice(k * size, k * size + size))),
    );

  it('hands the same rows as `rows` (the sample first, widths fitted), many to a run', async () => {
    const one = await readCsv(pieces(text, 1000), 'in.csv', { relaxColumns: true });
    const rows: string[][] = [];
    for await (const row of one.rows) rows.push(row);
    const other = await readCsv(pieces(text, 1000), 'in.csv', { relaxColumns: true });
    const runs: string[][][] = [];
    for await (const run of other.runs) runs.push(run);
    expect(rows).toHaveLength(3000);
    expect(rows[0]).toEqual(['h0', '']);
    expect(rows[1]).toEqual(['h1', '1']);
    expect(runs.flat()).toEqual(rows);
    expect(runs.length).toBeLessThan(100);
  });

  it('a malformed line mid-file: the runs before it, then the error naming it', async () => {
    const bad = `handle,n\n${Array.from({ length: 500 }, (_, i) => `h${i},${i}`).join('\n')}\nh,"x"y\nlast,1\n`;
    const got: string[][] = [];
    const err = await failure(
      (async () => {
        const input = await readCsv(pieces(bad, 500), 'in.csv');
        for await (const run of input.runs) got.push(...run);
      })(),
    );
    expect(err).toBeInstanceOf(UsageError);
    expect(err?.message).toMatch(/line 502: a closing quote/);
    expect(got.length).toBeGreaterThan(400);
    expect(got.length).toBeLessThanOrEqual(500);
    expect(got[0]).toEqual(['h0', '0']);
  });
});
