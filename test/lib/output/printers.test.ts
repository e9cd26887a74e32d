import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';

import { printList, printRows } from '../../../src/lib/output/printers.js';
import type { DataRecord } from '../../../src/lib/output/types.js';
import { columns, creators, settings, slowly } from './fixtures.js';
import { memoryTerminal } from '../../helpers/terminal.js';

describe('printList json and jsonl', () => {
  it('streams a JSON array identical to a pretty-printed one', async () => {
    const io = memoryTerminal();
    const count = await printList(io, settings('json'), slowly(creators), columns);
    expect(count).toBe(2);
    expect(io.out()).toBe(`${JSON.stringify(creators, null, 2)}\n`);
    expect(JSON.parse(io.out())).toEqual(creators);
  });

  it('prints [] for an empty list', async () => {
    const io = memoryTerminal();
    expect(await printList(io, settings('json'), [], columns)).toBe(0);
    expect(io.out()).toBe('[]\n');
  });

  it('prints one compact record per line for jsonl', async () => {
    const io = memoryTerminal();
    await printList(io, settings('jsonl'), creators, columns);
    const lines = io.out().split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(creators);
  });

  it('applies --fields to json and jsonl, rebuilding nesting', async () => {
    const fields = ['profile.username', 'user_id', 'nope'];
    const json = memoryTerminal();
    await printList(json, settings('json', { fields }), creators, columns);
    expect(JSON.parse(json.out())).toEqual([
      { profile: { username: 'alice' }, user_id: 'u1' },
      { profile: { username: 'bob' }, user_id: 'u2' },
    ]);
    const jsonl = memoryTerminal();
    await printList(jsonl, settings('jsonl', { fields }), creators, columns);
    expect(jsonl.out()).toBe(
      '{"profile":{"username":"alice"},"user_id":"u1"}\n{"profile":{"username":"bob"},"user_id":"u2"}\n',
    );
  });
});

describe('printList csv and tsv', () => {
  it('writes a header and flattened rows with RFC 4180 quoting', async () => {
    const io = memoryTerminal();
    await printList(io, settings('csv'), creators, columns);
    expect(io.out()).toBe(
      'user_id,profile.username,profile.full_name,profile.followers,profile.engagement_percent,tags\n' +
        'u1,alice,"Alice, ""Al"" Smith",12345,3.456,fitness; travel\n' +
        'u2,bob,"Bob\nJones",1234567,0.5,\n',
    );
  });

  it('writes tsv as csv with a tab delimiter: values holding tabs or line breaks are quoted, kept exactly', async () => {
    const io = memoryTerminal();
    await printList(io, settings('tsv'), [{ a: 'x\ty', b: 'line1\r\nline2', c: true }], columns);
    expect(io.out()).toBe('a\tb\tc\n"x\ty"\t"line1\r\nline2"\ttrue\n');
  });

  it('uses --fields as the columns, in order, including missing ones', async () => {
    const io = memoryTerminal();
    await printList(
      io,
      settings('csv', { fields: ['profile.followers', 'user_id', 'nope', 'tags'] }),
      creators,
      columns,
    );
    expect(io.out()).toBe('profile.followers,user_id,nope,tags\n12345,u1,,fitness; travel\n1234567,u2,,\n');
    const tsv = memoryTerminal();
    await printList(tsv, settings('tsv', { fields: ['user_id'] }), creators, columns);
    expect(tsv.out()).toBe('user_id\nu1\nu2\n');
  });

  it('takes the columns from the union of the first 100 records and warns about later keys', async () => {
    const records: DataRecord[] = [{ a: 1 }, { b: 2 }];
    for (let i = 0; i < 100; i++) records.push({ a: i, late: i === 99 ? 'x' : null });
    const io = memoryTerminal();
    expect(await printList(io, settings('csv'), records, [])).toBe(102);
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0]).toBe('a,b,late');
    expect(lines[1]).toBe('1,,');
    expect(lines[2]).toBe(',2,');
    expect(lines).toHaveLength(103);
    expect(io.err()).toBe(''); // `late` was in the sample (as null)

    const later: DataRecord[] = Array.from({ length: 101 }, (_, i) => (i === 100 ? { a: i, extra: 'x' } : { a: i }));
    const warned = memoryTerminal();
    await printList(warned, settings('csv'), later, []);
    expect(warned.out().split('\n')[0]).toBe('a');
    expect(warned.err()).toMatch(/^warning: .*left out: extra;/);
    const quiet = memoryTerminal();
    await printList(quiet, settings('csv', { quiet: true }), later, []);
    expect(quiet.err()).toBe('');
  });

  it('prints the column spec as header for an empty list (nothing without a spec), and --fields when given', async () => {
    const io = memoryTerminal();
    expect(await printList(io, settings('csv'), [], columns)).toBe(0);
    expect(io.out()).toBe(`${columns.map((c) => c.path).join(',')}\n`);
    const bare = memoryTerminal();
    await printList(bare, settings('csv'), [], []);
    expect(bare.out()).toBe('');
    const withFields = memoryTerminal();
    await printList(withFields, settings('csv', { fields: ['a', 'b'] }), [], columns);
    expect(withFields.out()).toBe('a,b\n');
  });
});

/** Lets the event loop go round `n` times (each turn runs what setImmediate queued): a count, not a time. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('streaming to a reader that waits', () => {
  it.each(['jsonl', 'csv'] as const)(
    '%s: a record is written out while the source waits for the next (lines are batched only in bursts)',
    async (format) => {
      const io = memoryTerminal();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let waiting!: () => void;
      const sourceWaits = new Promise<void>((resolve) => (waiting = resolve));
      async function* source(): AsyncGenerator<DataRecord> {
        yield { id: 1 };
        waiting();
        await gate;
        yield { id: 2 };
      }
      const done = printList(io, settings(format, { fields: ['id'] }), source(), []);
      // Once the printer asks for the next record, the first is due out within a few turns of an idle loop,
      // however slow the machine; held until the next record, it would never come out here.
      await sourceWaits;
      await turns(10);
      expect(io.out()).toContain('1');
      expect(io.out()).not.toContain('2');
      release();
      expect(await done).toBe(2);
      expect(io.out().trim().split('\n').slice(-2)).toEqual(format === 'jsonl' ? ['{"id":1}', '{"id":2}'] : ['1', '2']);
    },
  );
});

describe('backpressure from a reader that stops reading', () => {
  it.each(['jsonl', 'csv'] as const)(
    '%s: the source is not drained into memory while stdout is full (a pager left open)',
    async (format) => {
      // Nobody reads this stdout until the end: writes fill its small buffers and then wait for 'drain'.
      const stdout = new PassThrough({ highWaterMark: 64 });
      const io = memoryTerminal({ stdout });
      let pulled = 0;
      async function* pages(): AsyncGenerator<DataRecord> {
        for (let i = 0; i < 500; i++) {
          // Each record arrives after a turn of the event loop, like creators from a paged API.
          await new Promise((resolve) => setImmediate(resolve));
          pulled++;
          yield { id: i, name: `creator number ${i}` };
        }
      }
      const done = printList(io, settings(format, { fields: ['id', 'name'] }), pages(), []);
      // Enough turns of the loop for a printer that ignores backpressure to pull all 500 records.
      await turns(1000);
      expect(pulled).toBeLessThan(50);
      let text = '';
      stdout.setEncoding('utf8');
      stdout.on('data', (chunk: string) => (text += chunk));
      expect(await done).toBe(500);
      expect(pulled).toBe(500);
      const lines = text.trim().split('\n');
      expect(lines).toHaveLength(format === 'csv' ? 501 : 500);
      expect(lines.at(-1)).toBe(format === 'csv' ? '499,creator number 499' : '{"id":499,"name":"creator number 499"}');
    },
  );
});

describe('printRows (csv/tsv rows of known columns)', () => {
  const rows = [
    ['alice', 'a,b', 3, null],
    ['bob', 'say "hi"', 1.5, true],
  ];
  it('writes the header then one line per row, csv quoted or tab-separated', async () => {
    const csv = memoryTerminal();
    expect(await printRows(csv, settings('csv') as never, ['name', 'note', 'n', 'flag'], rows, (row) => row)).toBe(2);
    expect(csv.out()).toBe('name,note,n,flag\nalice,"a,b",3,\nbob,"say ""hi""",1.5,true\n');
    const tsv = memoryTerminal();
    await printRows(tsv, settings('tsv') as never, ['name', 'note', 'n', 'flag'], rows, (row) => row);
    expect(tsv.out().split('\n')[2]).toBe('bob\t"say ""hi"""\t1.5\ttrue');
  });

  it('--fields picks and orders columns by name: unknown ones are empty, a repeated name picks the later', async () => {
    const io = memoryTerminal();
    await printRows(
      io,
      settings('csv', { fields: ['status', 'nope', 'name'] }) as never,
      ['name', 'status', 'x', 'status'],
      [['ann', 'input', 'x', 'ok']],
      (row) => row,
    );
    expect(io.out()).toBe('status,nope,name\nok,,ann\n');
  });
});
