import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkCursorIdentity,
  Cursor,
  loadCursor,
  saveCursor,
  type CursorIdentity,
} from '../../../src/lib/events/cursor.js';
import { UsageError } from '../../../src/lib/errors.js';
import { tempDir } from '../../helpers/temp.js';

const HERE: CursorIdentity = { base_url: 'http://127.0.0.1:1/', profile: 'default', filters: {} };
const NAMED = { cursorReset: '--cursor-reset', backlog: '--backlog' };

describe('events cursor', () => {
  it('an interrupted batch keeps the watermark and remembers the ids done above it', () => {
    const c = new Cursor({ last_id: 10, last_date: null, done_ids: [] });
    // Printed by occurrence: 14 then 12; 13 failed to forward.
    c.markDone(14, '2026-11-22T10:05:00Z');
    c.markDone(12, '2026-11-22T10:04:00Z');
    c.advanceTo(10);
    const saved = c.toJSON(HERE, 0);
    expect(saved).toMatchObject({
      last_id: 10,
      done_ids: [12, 14],
      last_date: '2026-11-22T10:05:00.000Z'.replace('.000', ''),
    });
    const next = new Cursor(saved);
    expect([11, 12, 13, 14, 15].filter((id) => next.isNew(id))).toEqual([11, 13, 15]);
    next.markDone(13, null);
    next.advanceTo(14);
    expect(next.toJSON(HERE, 0)).toMatchObject({ last_id: 14, done_ids: [] });
  });

  it('the ids done above the watermark stay few however many events go through', () => {
    const c = new Cursor();
    for (let id = 1; id <= 200_000; id++) {
      c.markDone(id, null);
      c.advanceTo(id - 3);
    }
    expect(c.toJSON(HERE, 0)).toMatchObject({ last_id: 199_997, done_ids: [199_998, 199_999, 200_000] });
  });

  it('saves atomically (no temp file left) and reads back; missing is a first run; junk is a usage error', async () => {
    const dir = tempDir('creators-cursor-');
    const path = join(dir, 'c.json');
    expect(await loadCursor(path)).toBeUndefined();
    const c = new Cursor();
    c.markDone(3, '2026-01-01T00:00:00Z');
    c.advanceTo(3);
    await saveCursor(
      path,
      c.toJSON({ ...HERE, filters: { event_type: 'new_post' } }, Date.parse('2026-01-02T00:00:00Z')),
    );
    expect(readdirSync(dir)).toEqual(['c.json']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await loadCursor(path)).toMatchObject({
      legacy: false,
      base_url: HERE.base_url,
      profile: 'default',
      last_id: 3,
      filters: { event_type: 'new_post' },
    });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 2, saved_at: '2026-01-02T00:00:00.000Z' });
    writeFileSync(path, '{"version": 3}');
    await expect(loadCursor(path)).rejects.toBeInstanceOf(UsageError);
  });

  it('names what it counts: another server, profile or filters is refused naming both; a version 1 file is adopted', async () => {
    const path = join(tempDir('creators-cursor-'), 'c.json');
    writeFileSync(
      path,
      JSON.stringify({
        version: 2,
        base_url: 'http://127.0.0.1:1/',
        profile: 'default',
        last_id: 5,
        last_date: null,
        done_ids: [],
        filters: {},
        saved_at: '',
      }),
    );
    const loaded = await loadCursor(path);
    if (!loaded) throw new Error('not loaded');
    expect(checkCursorIdentity(path, loaded, HERE, NAMED)).toEqual({ adopted: false });
    expect(() => checkCursorIdentity(path, loaded, { ...HERE, base_url: 'http://127.0.0.1:2/' }, NAMED)).toThrow(
      /written for http:\/\/127\.0\.0\.1:1\/ \(profile default, no filters\), not http:\/\/127\.0\.0\.1:2\/ \(profile default, no filters\)/,
    );
    expect(() => checkCursorIdentity(path, loaded, { ...HERE, profile: 'work' }, NAMED)).toThrow(UsageError);
    expect(() => checkCursorIdentity(path, loaded, { ...HERE, filters: { event_type: 'bio_change' } }, NAMED)).toThrow(
      /filters event_type=bio_change/,
    );
    writeFileSync(
      path,
      JSON.stringify({ version: 1, last_id: 5, last_date: null, done_ids: [], filters: {}, saved_at: '' }),
    );
    const old = await loadCursor(path);
    if (!old) throw new Error('not loaded');
    expect(checkCursorIdentity(path, old, HERE, NAMED)).toEqual({ adopted: true });
    expect(() => checkCursorIdentity(path, old, { ...HERE, filters: { subscription_id: '3' } }, NAMED)).toThrow(
      UsageError,
    );
  });
});
