import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { printItem, printList } from '../../../src/lib/output/printers.js';
import type { ColumnSpec, DataRecord } from '../../../src/lib/output/types.js';
import { columns, creators, settings, slowly } from './fixtures.js';
import { memoryTerminal } from '../../helpers/terminal.js';
import { tempDir } from '../../helpers/temp.js';

const ESC = '\x1b[';

describe('printList table', () => {
  it('renders a bordered, humanised table on a terminal', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true, columns: 80 });
    expect(await printList(io, settings('table'), creators, columns)).toBe(2);
    expect(io.out()).toBe(
      [
        '┌──────────┬───────────┬───────┐',
        '│ USERNAME │ FOLLOWERS │    ER │',
        '├──────────┼───────────┼───────┤',
        '│ alice    │     12.3k │ 3.46% │',
        '│ bob      │      1.2M │  0.5% │',
        '└──────────┴───────────┴───────┘',
        '',
      ].join('\n'),
    );
  });

  it('truncates long text so the table fits the terminal width', async () => {
    const long = { name: 'n', bio: 'lorem ipsum '.repeat(20), note: 'x'.repeat(50) };
    const cols: ColumnSpec[] = [{ path: 'name' }, { path: 'bio' }, { path: 'note' }];
    const io = memoryTerminal({ stdoutIsTTY: true, columns: 60 });
    await printList(io, settings('table'), [long], cols);
    const lines = io.out().trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
    expect(lines[3]).toContain('…');
    expect(lines[3]?.startsWith('│ n    │ lorem ipsum')).toBe(true);
    const wide = memoryTerminal({ stdoutIsTTY: true }); // default width 100
    await printList(wide, settings('table'), [long], cols);
    for (const line of wide.out().trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
  });

  it('uses --fields as the table columns, keeping kinds of matching specs', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    await printList(io, settings('table', { fields: ['user_id', 'profile.followers'] }), creators, columns);
    expect(io.out()).toBe(
      [
        '┌─────────┬───────────────────┐',
        '│ user_id │ profile.followers │',
        '├─────────┼───────────────────┤',
        '│ u1      │             12.3k │',
        '│ u2      │              1.2M │',
        '└─────────┴───────────────────┘',
        '',
      ].join('\n'),
    );
  });

  it('has no ANSI codes without colour, and has them with colour', async () => {
    const plain = memoryTerminal({ stdoutIsTTY: true });
    await printList(plain, settings('table', { color: false }), creators, columns);
    expect(plain.out()).not.toContain(ESC);
    const colored = memoryTerminal({ stdoutIsTTY: true });
    await printList(colored, settings('table', { color: true }), creators, columns);
    expect(colored.out()).toContain(ESC);
    expect(colored.out()).toContain('\x1b[36mUSERNAME\x1b[39m');
  });

  it('prints nothing for an empty list on a terminal', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    expect(await printList(io, settings('table'), slowly([]), columns)).toBe(0);
    expect(io.out()).toBe('');
  });

  it('prints raw tab-separated rows without header when piped', async () => {
    const io = memoryTerminal({ stdoutIsTTY: false });
    await printList(io, settings('table'), creators, columns);
    expect(io.out()).toBe('alice\t12345\t3.456\nbob\t1234567\t0.5\n');
    const fields = memoryTerminal();
    await printList(fields, settings('table', { fields: ['user_id', 'profile.full_name'] }), creators, columns);
    expect(fields.out()).toBe('u1\tAlice, "Al" Smith\nu2\tBob Jones\n');
  });

  it('prints plain rows to a file even when stdout is a terminal', async () => {
    const dir = tempDir('creators-print-');
    try {
      const target = path.join(dir, 'out.txt');
      const io = memoryTerminal({ stdoutIsTTY: true });
      await printList(io, settings('table', { outputPath: target }), creators, columns);
      expect(fs.readFileSync(target, 'utf8')).toBe('alice\t12345\t3.456\nbob\t1234567\t0.5\n');
      expect(io.out()).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('printItem', () => {
  const record = creators[0] as DataRecord;

  it('prints pretty JSON, or one line for jsonl', async () => {
    const json = memoryTerminal();
    await printItem(json, settings('json'), record, columns);
    expect(json.out()).toBe(`${JSON.stringify(record, null, 2)}\n`);
    const jsonl = memoryTerminal();
    await printItem(jsonl, settings('jsonl', { fields: ['user_id'] }), record, columns);
    expect(jsonl.out()).toBe('{"user_id":"u1"}\n');
  });

  it('prints a header and one row for csv/tsv', async () => {
    const csv = memoryTerminal();
    await printItem(csv, settings('csv', { fields: ['user_id', 'profile.full_name'] }), record);
    expect(csv.out()).toBe('user_id,profile.full_name\nu1,"Alice, ""Al"" Smith"\n');
    const tsv = memoryTerminal();
    await printItem(tsv, settings('tsv'), { a: 1, b: { c: null } });
    expect(tsv.out()).toBe('a\tb.c\n1\t\n');
  });

  it('prints a key/value table on a terminal', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    await printItem(io, settings('table'), record, columns);
    expect(io.out()).toBe(
      [
        '┌───────────┬───────┐',
        '│ USERNAME  │ alice │',
        '│ FOLLOWERS │ 12.3k │',
        '│ ER        │ 3.46% │',
        '└───────────┴───────┘',
        '',
      ].join('\n'),
    );
    const all = memoryTerminal({ stdoutIsTTY: true });
    await printItem(all, settings('table'), { id: 7, nested: { ok: true } });
    expect(all.out()).toBe(
      ['┌───────────┬──────┐', '│ id        │ 7    │', '│ nested.ok │ true │', '└───────────┴──────┘', ''].join('\n'),
    );
  });

  it('prints key<TAB>value lines when piped, raw, honouring --fields', async () => {
    const io = memoryTerminal();
    await printItem(io, settings('table'), record);
    expect(io.out()).toBe(
      'user_id\tu1\nprofile.username\talice\nprofile.full_name\tAlice, "Al" Smith\n' +
        'profile.followers\t12345\nprofile.engagement_percent\t3.456\ntags\tfitness; travel\n',
    );
    const fields = memoryTerminal();
    await printItem(fields, settings('table', { fields: ['profile.followers', 'user_id'] }), record, columns);
    expect(fields.out()).toBe('profile.followers\t12345\nuser_id\tu1\n');
  });
});

describe('printItem key/value table wrapping', () => {
  const url = `https://example.com/${'segment/'.repeat(12)}end?x=1`;
  const summary =
    'The campaign reached many creators across three platforms and most of them posted twice in the first week.';

  it.each([60, 100, 200])(
    'at %i columns: words wrapped at spaces, no ellipsis; a URL never split inside the box',
    async (columns) => {
      const io = memoryTerminal({ stdoutIsTTY: true, columns });
      await printItem(io, settings('table'), { report: { summary }, event_value: { url }, id: 'e1' });
      const all = io.out().trimEnd().split('\n');
      const end = all.findIndex((line) => line.startsWith('└'));
      const lines = all.slice(0, end + 1);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
      expect(io.out()).not.toContain('…');
      const cells = lines.flatMap((line) => /^│ (.*?) +│ (.*?) *│$/u.exec(line)?.slice(1, 3) ?? []);
      const value = (label: string, join: string): string => {
        const out: string[] = [];
        let on = false;
        for (let i = 0; i < cells.length; i += 2) {
          const key = (cells[i] ?? '').trim();
          if (key !== '') on = key === label;
          if (on) out.push(cells[i + 1] ?? '');
        }
        return out.join(join);
      };
      // The URL (123 characters) fits one line of the box only at 200 columns; else it is printed whole under it.
      if (columns === 200) {
        expect(value('event_value.url', '')).toBe(url);
        expect(all.slice(end + 1)).toEqual([]);
      } else {
        expect(value('event_value.url', '')).toBe('(link below)');
        // Label and URL do not fit one line together: the URL has a line of its own.
        expect(all.slice(end + 1)).toEqual(['event_value.url:', url]);
      }
      expect(value('report.summary', ' ')).toBe(summary);
      expect(value('id', '')).toBe('e1');
    },
  );

  it("keeps a value's line breaks as lines, and prints key<TAB>value unchanged when piped", async () => {
    const io = memoryTerminal({ stdoutIsTTY: true, columns: 60 });
    await printItem(io, settings('table'), { caption: 'first line\nsecond line' });
    expect(io.out()).toBe(
      [
        '┌─────────┬─────────────┐',
        '│ caption │ first line  │',
        '│         │ second line │',
        '└─────────┴─────────────┘',
        '',
      ].join('\n'),
    );
    const piped = memoryTerminal();
    await printItem(piped, settings('table'), { event_value: { url }, caption: 'a\tb' });
    expect(piped.out()).toBe(`event_value.url\t${url}\ncaption\ta b\n`);
  });
});

describe('values of no declared kind on a terminal', () => {
  const record = {
    id: 123456,
    user_id: 987654,
    pk: 55555,
    campaign: { reach_total: 1234567, year: 2026, budget_id: 424242 },
    created_at: '2026-11-24T09:13:00.000Z',
    date_occurance: '2026-11-24T09:13:00+02:00',
    day: '2026-11-24',
    followers_text: '1234567',
    note: 'not a time 2026-11-24T09:13:00Z',
  };

  it('shows ISO date-times as local times with the zone, and large integers with separators except ids', async () => {
    const previous = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      const io = memoryTerminal({ stdoutIsTTY: true, columns: 100 });
      await printItem(io, settings('table'), record);
      const rows = new Map(
        io
          .out()
          .split('\n')
          .flatMap((line) => {
            const cells = /^│ (.*?) +│ (.*?) *│$/u.exec(line);
            return cells ? [[cells[1] ?? '', cells[2] ?? ''] as const] : [];
          }),
      );
      expect(rows.get('created_at')).toBe('2026-11-24 09:13 UTC');
      expect(rows.get('date_occurance')).toBe('2026-11-24 07:13 UTC');
      expect(rows.get('day')).toBe('2026-11-24');
      expect(rows.get('campaign.reach_total')).toBe('1,234,567');
      expect(rows.get('campaign.year')).toBe('2026');
      expect(rows.get('id')).toBe('123456');
      expect(rows.get('user_id')).toBe('987654');
      expect(rows.get('pk')).toBe('55555');
      expect(rows.get('campaign.budget_id')).toBe('424242');
      expect(rows.get('followers_text')).toBe('1234567');
      expect(rows.get('note')).toBe(record.note);

      // A generic list table: times humanised, numbers as they are.
      const list = memoryTerminal({ stdoutIsTTY: true, columns: 200 });
      await printList(list, settings('table'), [record], []);
      expect(list.out()).toContain('2026-11-24 09:13 UTC');
      expect(list.out()).toContain('1234567');
      expect(list.out()).not.toContain('2026-11-24T09:13:00.000Z');
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });

  it('leaves machine formats and piped tables exactly as sent', async () => {
    const piped = memoryTerminal();
    await printItem(piped, settings('table'), record);
    expect(piped.out()).toContain('created_at\t2026-11-24T09:13:00.000Z\n');
    expect(piped.out()).toContain('campaign.reach_total\t1234567\n');
    const json = memoryTerminal({ stdoutIsTTY: true });
    await printItem(json, settings('json'), record);
    expect(JSON.parse(json.out())).toEqual(record);
  });
});
