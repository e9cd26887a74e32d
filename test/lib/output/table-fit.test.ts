import { describe, expect, it } from 'vitest';
import { fitColumns, renderTable, type ColumnFit } from '../../../src/lib/output/table.js';

const keep: ColumnFit = { floor: Infinity, priority: Infinity, droppable: false };
const text = (priority = 0): ColumnFit => ({ floor: 8, priority, droppable: true });
const whole = (priority = 0): ColumnFit => ({ floor: Infinity, priority, droppable: true });

// n columns cost 3n + 1 of borders and padding.
describe('fitColumns', () => {
  it('keeps natural widths when they fit', () => {
    expect(fitColumns([10, 20], 100, [keep, text()])).toEqual({ widths: [10, 20], shown: [0, 1] });
  });

  it('cuts the widest columns of a priority first', () => {
    expect(fitColumns([10, 30, 20], 50, [text(), text(), text()])).toEqual({ widths: [10, 15, 15], shown: [0, 1, 2] });
  });

  it('cuts the lowest priority to its floor before a higher one, and never a kept column', () => {
    expect(fitColumns([30, 20, 20], 60, [keep, text(), text(-1)])).toEqual({ widths: [30, 12, 8], shown: [0, 1, 2] });
  });

  it('drops the lowest-priority droppable column when floors do not fit, then fits the rest', () => {
    expect(fitColumns([30, 20, 20], 50, [keep, text(), whole(-1)])).toEqual({ widths: [30, 13], shown: [0, 1] });
  });

  it('drops the last of equals first', () => {
    expect(fitColumns([30, 16, 16], 55, [keep, whole(), whole()]).shown).toEqual([0, 1]);
  });

  it('lets kept columns overflow rather than cut them', () => {
    expect(fitColumns([70, 10], 60, [keep, text()])).toEqual({ widths: [70], shown: [0] });
  });
});

describe('renderTable', () => {
  it('names the columns it left out', async () => {
    const dropped: string[][] = [];
    const out = await renderTable({
      head: ['id', 'name', 'created'],
      rows: [['abcdefghijklmnopqrstuvwxyz0123', 'A name', '2026-11-22 10:00']],
      width: 50,
      color: false,
      unicode: true,
      fits: [keep, text(), whole(-1)],
      onDrop: (headers) => dropped.push(headers),
    });
    expect(dropped).toEqual([['created']]);
    expect(out).toContain('│ abcdefghijklmnopqrstuvwxyz0123 │ A name │');
  });
});
