import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { plainScanner } from '../../../src/lib/csv/plain-scan.js';

/** csv-parse as the reader uses it (lib/csv/read.ts): its records, or undefined when it refuses the text. */
function csvParse(text: string, delimiter: string): string[][] | undefined {
  try {
    return parse(text, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      relax_column_count: false,
      max_record_size: 16 * 1024 * 1024,
    }) as string[][];
  } catch {
    return undefined;
  }
}

/** The scanner over `text` cut into pieces at `cuts`: the values it handed, or undefined when it gave up. */
function scanned(
  text: string,
  delimiter: string,
  index: number,
  cuts: number[],
  records?: string[][],
): string[] | undefined {
  const out: string[] = [];
  const record = records && ((cells: string[]) => void records.push(cells));
  const scan = plainScanner({ delimiter, skipFirst: true, index, row: (v) => out.push(v), record });
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < text.length).sort((a, b) => a - b), text.length]) {
    if (!scan.push(text.slice(at, cut))) return undefined;
    at = cut;
  }
  return scan.end() ? out : undefined;
}

function random(seed: number): (n: number) => number {
  let s = seed;
  // The high bits: a power-of-two LCG's low bits repeat with short periods.
  return (n) => ((s = (s * 1103515245 + 12345) % 2147483648), Math.floor(s / 65536) % n);
}

describe('the plain scan of the pass before the money gate', () => {
  it('hands the values csv-parse reads, or gives up; never accepts what csv-parse refuses (random texts, random cuts)', () => {
    const rnd = random(11);
    const pieces = ['a', 'b', ' ', 'é', '😀', ',', ';', '"', '""', '\n', '\r', '\r\n', '\t', 'x"y', '"q"', '"a,b"'];
    let accepted = 0;
    let refused = 0;
    for (let n = 0; n < 4000; n++) {
      const delimiter = rnd(3) === 0 ? ';' : ',';
      // Mostly well-formed rows of a fixed width, with a random piece dropped in.
      const width = 1 + rnd(3);
      const lines: string[] = [];
      for (let r = 0, rows = 1 + rnd(5); r < rows; r++) {
        const cells = Array.from({ length: width }, () => {
          const v = Array.from({ length: rnd(4) }, () => (rnd(4) === 0 ? 'k' : 'v')).join('');
          return rnd(5) === 0 ? `"${v.replace(/"/g, '""')}${rnd(2) ? delimiter : '\n'}"` : v;
        });
        lines.push(cells.join(delimiter));
      }
      let text = lines.join(['\n', '\r\n', '\r'][rnd(3)] as string) + (rnd(2) ? '\n' : '');
      if (rnd(2) === 0) {
        const at = rnd(text.length + 1);
        text = text.slice(0, at) + (pieces[rnd(pieces.length)] as string) + text.slice(at);
      }
      const index = rnd(width);
      const expected = csvParse(text, delimiter);
      const records: string[][] = [];
      const cuts = [rnd(text.length + 1), rnd(text.length + 1), rnd(text.length + 1)];
      const got = scanned(text, delimiter, index, cuts, records);
      // Not asked for whole records, the scan hands the same values.
      expect(scanned(text, delimiter, index, cuts), JSON.stringify(text)).toEqual(got);
      if (got === undefined) {
        refused++;
        continue;
      }
      accepted++;
      expect(expected, JSON.stringify(text)).toBeDefined();
      expect(got, JSON.stringify(text)).toEqual((expected ?? []).slice(1).map((r) => r[index] ?? ''));
      // Whole records (the run's plain read) are csv-parse's.
      expect(records, JSON.stringify(text)).toEqual((expected ?? []).slice(1));
    }
    // Both ways are exercised.
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(100);
  });

  it('reads quoted values with delimiters, line breaks and doubled quotes; skips empty lines', () => {
    const text = 'handle,notes\r\n\r\n"a ""b""","x,\ny"\n\nc,\r"d",e';
    expect(scanned(text, ',', 0, [3, 17, 18])).toEqual(['a "b"', 'c', 'd']);
    expect(scanned(text, ',', 1, [])).toEqual(['x,\ny', '', 'e']);
  });

  it('gives up on a quote inside a bare value, text after a closing quote, another width or a quote left open', () => {
    for (const bad of ['h,n\na"b,c\n', 'h,n\n"a"b,c\n', 'h,n\na,b,c\n', 'h,n\na\n', 'h,n\n"a,b\n']) {
      expect(scanned(bad, ',', 0, []), JSON.stringify(bad)).toBeUndefined();
      expect(csvParse(bad, ',')).toBeUndefined();
    }
  });
});
