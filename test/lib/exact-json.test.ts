import { describe, expect, it } from 'vitest';
import { ExactNumber, isExactNumber, mayHoldUnsafeNumber, parseJson, stringifyJson } from '../../src/lib/exact-json.js';

describe('parseJson', () => {
  it('keeps an integer beyond 2^53 and a number beyond a double exactly, as their text', () => {
    const data = parseJson(
      '{"userid": 6789012345678901234, "huge": 1e400, "neg": -9007199254740993, "pi": 3.14159265358979323846}',
    ) as Record<string, unknown>;
    for (const [key, text] of [
      ['userid', '6789012345678901234'],
      ['huge', '1e400'],
      ['neg', '-9007199254740993'],
      ['pi', '3.14159265358979323846'],
    ]) {
      expect(isExactNumber(data[key as string])).toBe(true);
      expect(String(data[key as string])).toBe(text);
    }
  });

  it('leaves every number a double holds exactly as a plain number, and strings untouched', () => {
    const text =
      '{"credits_left": "999.50", "total": 1234, "price": 0.01, "pct": 2.5e-3, "big": 9007199254740991, "one": 1.0, "url": "https://x.test/12345678901234567890_n.jpg?e=1e400"}';
    const data = parseJson(text) as Record<string, unknown>;
    expect(data).toEqual(JSON.parse(text));
    expect(Object.values(data).some(isExactNumber)).toBe(false);
  });

  it('uses JSON.parse alone when no number outside a string could lose anything', () => {
    expect(mayHoldUnsafeNumber('{"id": "6789012345678901234", "n": 12, "tag": "1e5"}')).toBe(false);
    expect(mayHoldUnsafeNumber('{"id": 6789012345678901234}')).toBe(true);
    expect(mayHoldUnsafeNumber('[1e400]')).toBe(true);
    expect(mayHoldUnsafeNumber('{"s": "a \\" 12345678901234567 \\\\", "n": 1}')).toBe(false);
    expect(mayHoldUnsafeNumber('1e400')).toBe(true);
    expect(mayHoldUnsafeNumber('[\n  -6789012345678901234]')).toBe(true);
    expect(mayHoldUnsafeNumber('{"url": "https://x.test/a_12345678901234567.jpg", "hex": "a3e4f", "n": 2}')).toBe(
      false,
    );
    // A string that looks like a number after a colon only costs the slower parse; the result is the same.
    const tricky = '{"s": "ratio: 12345678901234567", "n": 2}';
    expect(mayHoldUnsafeNumber(tricky)).toBe(true);
    expect(parseJson(tricky)).toEqual(JSON.parse(tricky));
  });

  it('throws a SyntaxError on invalid JSON on both paths', () => {
    expect(() => parseJson('{"a": 1')).toThrow(SyntaxError);
    expect(() => parseJson('{"a": 67890123456789012345')).toThrow(SyntaxError);
  });
});

describe('ExactNumber', () => {
  it('does arithmetic and comparisons on the nearest double, never throwing', () => {
    const id = new ExactNumber('6789012345678901234');
    const huge = new ExactNumber('1e400');
    expect(Number(id)).toBe(6789012345678901000);
    expect(+huge).toBe(Infinity);
    expect((huge as unknown as number) > 5).toBe(true);
    expect(Math.max(id as unknown as number, 1)).toBe(6789012345678901000);
    expect(`${id}`).toBe('6789012345678901234');
  });

  it('comes out of plain JSON.stringify as its exact text in a string, never as null or a rounded number', () => {
    expect(JSON.stringify({ id: new ExactNumber('6789012345678901234') })).toBe('{"id":"6789012345678901234"}');
  });
});

describe('stringifyJson', () => {
  it('writes exact numbers as bare numbers, byte for byte what JSON.stringify writes otherwise', () => {
    const text = '{"a":[6789012345678901234,{"b":1e400}],"c":"x","d":1.5,"e":null}';
    expect(stringifyJson(parseJson(text))).toBe(text);
    expect(stringifyJson(parseJson('{"a":[6789012345678901234,{"b":1e400}]}'), 2)).toBe(
      '{\n  "a": [\n    6789012345678901234,\n    {\n      "b": 1e400\n    }\n  ]\n}',
    );
    const plain = { a: [1, 2, { b: 'c' }], d: 'é\u0085' };
    expect(stringifyJson(plain, 2)).toBe(JSON.stringify(plain, null, 2));
  });

  it('does not mistake a string in the data for a kept number', () => {
    const data = parseJson('{"id": 6789012345678901234, "s": "6789012345678901234"}');
    expect(stringifyJson(data)).toBe('{"id":6789012345678901234,"s":"6789012345678901234"}');
  });
});
