import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/lib/exact-json.js';
import { jsonText, OrderedJson, orderedJsonText } from '../../../src/lib/output/json-text.js';

// Values of every kind jsonText meets: nesting, arrays, null, an exact big number, a C1 control, a lone surrogate, quotes.
const VALUES: [string, unknown][] = [
  ['a', 'plain'],
  ['nested', { x: [1, { y: null }], empty: {}, list: [] }],
  ['big', parseJson('{"n":6789012345678901234}')],
  ['text', 'quote " backslash \\ line\nbreak \u0085 \u009b \ud800 tab\t'],
  ['none', null],
  ['skipped', undefined],
  ['flag', true],
  ['unicode', 'é 😀'],
];

describe('orderedJsonText', () => {
  it('writes exactly the bytes jsonText writes for an object with the same keys in the same order', () => {
    const plain = Object.fromEntries(VALUES);
    const ordered = new OrderedJson(VALUES);
    for (const indent of [undefined, 2, 4]) expect(orderedJsonText(ordered, indent)).toBe(jsonText(plain, indent));
    // Nested ordered objects too, at any depth.
    const deep = new OrderedJson([
      [
        'outer',
        new OrderedJson([
          ['inner', ordered],
          ['n', 1],
        ]),
      ],
      ['tail', [1, 2]],
    ]);
    const deepPlain = { outer: { inner: plain, n: 1 }, tail: [1, 2] };
    for (const indent of [undefined, 2]) expect(orderedJsonText(deep, indent)).toBe(jsonText(deepPlain, indent));
    expect(orderedJsonText(new OrderedJson([]), 2)).toBe('{}');
    expect(orderedJsonText(new OrderedJson([['x', new OrderedJson([])]]), 2)).toBe('{\n  "x": {}\n}');
  });

  it('keeps integer-like keys where they were given (a JS object would move them first) and any key name', () => {
    const text = orderedJsonText(
      new OrderedJson([
        ['handle', 'a'],
        ['2024', 'b'],
        ['10', 'c'],
        ['__proto__', 'd'],
        ['', 'e'],
        ['k\u0085"', 'f'],
      ]),
    );
    expect(text).toBe('{"handle":"a","2024":"b","10":"c","__proto__":"d","":"e","k\\u0085\\"":"f"}');
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['10', '2024', 'handle', '__proto__', '', 'k\u0085"']);
    expect(
      orderedJsonText(
        new OrderedJson([
          ['b', 1],
          ['1', 2],
        ]),
        2,
      ),
    ).toBe('{\n  "b": 1,\n  "1": 2\n}');
  });
});
