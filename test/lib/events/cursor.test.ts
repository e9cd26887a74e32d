import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cursor, loadCursor, saveCursor } from '../../../src/lib/events/cursor.js';
import { UsageError } from '../../../src/lib/errors.js';
import { tempDir } from '../../helpers/temp.js';

describe('events cursor', () => {
  it('an interrupted batch keeps the watermark and remembers the ids done above it', () => {
    const c = new Cursor({ last_id: 10, last_date: null, done_ids: [] });
    // Printed by occurrence: 14 then 12; 13 failed to forward.
    c.markDone(14, '2026-11-22T10:05:00Z');
    c.markDone(12, '2026-11-22T10:04:00Z');
    const saved = c.toJSON({}, 0);
    expect(saved).toMatchObject({ last_id: 10, done_ids: [12, 14], last_date: '2026-11-22T10:05:00.000Z'.replace('.000', '') });
    const next = new Cursor(saved);
    expect([11, 12, 13, 14, 15].filter((id) => next.isNew(id))).toEqual([11, 13, 15]);
    next.markDone(13, null);
    next.completeBatch([13]);
    expect(next.toJSON({}, 0)).toMatchObject({ last_id: 14, done_ids: [] });
  });

  it('saves atomically (no temp file left) and reads back; missing is a first run; junk is a usage error', async () => {
    const dir = tempDir('creators-cursor-');
    const path = join(dir, 'c.json');
    expect(await loadCursor(path)).toBeUndefined();
    const c = new Cursor();
    c.markDone(3, '2026-01-01T00:00:00Z');
    c.completeBatch([1, 2, 3]);
    await saveCursor(path, c.toJSON({ event_type: 'new_post' }, Date.parse('2026-01-02T00:00:00Z')));
    expect(readdirSync(dir)).toEqual(['c.json']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await loadCursor(path)).toMatchObject({ version: 1, last_id: 3, filters: { event_type: 'new_post' } });
    expect(JSON.parse(readFileSync(path, 'utf8')).saved_at).toBe('2026-01-02T00:00:00.000Z');
    writeFileSync(path, '{"version": 2}');
    await expect(loadCursor(path)).rejects.toBeInstanceOf(UsageError);
  });
});
