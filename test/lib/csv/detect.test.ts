import { describe, expect, it } from 'vitest';
import { COLUMN_NAMES } from '../../../src/commands/csv-flags.js';
import { detectColumn, isHeaderRow, looksLikeEmail } from '../../../src/lib/csv/detect.js';
import { UsageError } from '../../../src/lib/errors.js';

/** The hint of the usage error `f` throws. */
function hintOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    if (err instanceof UsageError) return err.hint;
    throw err;
  }
  throw new Error('no error');
}

describe('detectColumn', () => {
  it('prefers a recognised header, case-insensitively and with quotes stripped', () => {
    expect(detectColumn(['name', '"Email"'], [['a', 'a@b.co']])).toEqual({ index: 1, name: '"Email"', kind: 'email' });
    expect(detectColumn(['id', 'Handle'], [['1', 'nasa']])).toEqual({ index: 1, name: 'Handle', kind: 'handle' });
  });

  it('finds an email column by content', () => {
    expect(
      detectColumn(
        ['a', 'b'],
        [
          ['x', 'p@q.io'],
          ['y', 'r@s.io'],
        ],
      ).index,
    ).toBe(1);
  });

  it('falls back to the first column as handles', () => {
    expect(detectColumn(['who', 'n'], [['nasa', '1']])).toEqual({
      index: 0,
      name: 'who',
      kind: 'handle',
      guessed: true,
    });
  });

  it('honours --column and refuses an unknown one', () => {
    expect(detectColumn(['a', 'b'], [], undefined, 'B').index).toBe(1);
    expect(() => detectColumn(['a', 'b'], [], undefined, 'c')).toThrow(/Column 'c' is not in the input/);
  });

  it('refuses a file without an email column when emails are wanted, naming the way to pick one', () => {
    expect(() => detectColumn(['who'], [['nasa']], 'email')).toThrow(/No email column/);
    expect(hintOf(() => detectColumn(['who'], [['nasa']], 'email', undefined, COLUMN_NAMES))).toBe(
      'Name it with --column.',
    );
  });

  it('recognises emails', () => {
    expect(looksLikeEmail('a@b.co')).toBe(true);
    expect(looksLikeEmail('@nasa')).toBe(false);
    expect(looksLikeEmail('a@b')).toBe(false);
  });
});

describe('handle modes and email columns', () => {
  it('refuses an email column for a handle mode, detected or named', () => {
    expect(() => detectColumn(['email'], [['a@b.co']], 'handle')).toThrow(
      /Column 'email' holds email addresses, but this mode enriches handles/,
    );
    expect(() => detectColumn(['who'], [['a@b.co'], ['c@d.io']], 'handle', 'who')).toThrow(/holds email addresses/);
    // The verbs that pick a column say how, and where emails go; a verb that picks none (a list's --file) does not.
    expect(hintOf(() => detectColumn(['email'], [['a@b.co']], 'handle', undefined, COLUMN_NAMES))).toBe(
      'Use a column of handles (--column), or enrich by email (enrich email, batch --mode basic|advanced).',
    );
    expect(hintOf(() => detectColumn(['email'], [['a@b.co']], 'handle'))).toBe('Use a column of handles.');
  });

  it('accepts handles that start with @', () => {
    expect(detectColumn(['who'], [['@nasa'], ['@esa']], 'handle').index).toBe(0);
  });
});

describe('guessing the handle column', () => {
  it('recognises platform names and handle-like content, and marks a bare first-column guess', () => {
    expect(detectColumn(['name', 'ig'], [['Ann', 'ann.paws']], 'handle')).toEqual({
      index: 1,
      name: 'ig',
      kind: 'handle',
    });
    expect(
      detectColumn(
        ['name', 'who'],
        [
          ['Ann', '@ann.paws'],
          ['Bob', '@bob'],
        ],
        'handle',
      ),
    ).toMatchObject({ index: 1 });
    expect(detectColumn(['name', 'notes'], [['Ann', 'likes cats']], 'handle')).toMatchObject({
      index: 0,
      guessed: true,
    });
  });
});

describe("detectColumn: the CLI's own output is its own input", () => {
  const search = [
    'user_id',
    'profile.username',
    'profile.full_name',
    'profile.picture',
    'profile.followers',
    'profile.engagement_percent',
    'profile.url',
  ];
  const events = [
    'id',
    'event_type',
    'event_value.post_id',
    'event_value.url',
    'event_value.caption',
    'creator.platform',
    'creator.platform_id',
    'created_at',
  ];

  it('search and similar CSV: profile.username, not the first column or profile.url', () => {
    const choice = detectColumn(
      search,
      [['123', 'nasa', 'NASA', 'https://p/x.jpg', '100', '1.2', 'https://instagram.com/nasa']],
      'handle',
    );
    expect(choice).toEqual({ index: 1, name: 'profile.username', kind: 'handle' });
    expect(detectColumn(['profile.username'], [['nasa']])).toEqual({
      index: 0,
      name: 'profile.username',
      kind: 'handle',
    });
  });

  it('events CSV: the creator (creator.platform_id), not the post URL before it', () => {
    expect(
      detectColumn(events, [
        ['1', 'new_post', 'p1', 'https://instagram.example/alice/p/1', 'hi', 'instagram', 'alice', '2026'],
      ]),
    ).toEqual({
      index: 6,
      name: 'creator.platform_id',
      kind: 'handle',
    });
  });

  it('listening creators (platform_id), exclusion entries (handle), email columns (email, result.email)', () => {
    expect(detectColumn(['platform', 'platform_id', 'added_at'], [['instagram', 'alice', '2026']])).toEqual({
      index: 1,
      name: 'platform_id',
      kind: 'handle',
    });
    expect(detectColumn(['handle'], [['alice']])).toEqual({ index: 0, name: 'handle', kind: 'handle' });
    expect(detectColumn(['status', 'result.email'], [['ok', 'a@b.co']], 'email')).toEqual({
      index: 1,
      name: 'result.email',
      kind: 'email',
    });
    expect(() => detectColumn(['result.email'], [['a@b.co']], 'handle')).toThrow(/holds email addresses/);
  });
});

describe('isHeaderRow: the one header rule', () => {
  it('a first line that looks like a creator and names no known column is data', () => {
    for (const row of [
      ['noah_paws'],
      ['theellastrong'],
      ['@noah'],
      ['12345'],
      ['UCabc-_x'],
      ['tiktok:noah'],
      ['ann@example.com'],
      ['https://www.instagram.com/noah/'],
      ['noah_paws', '12000'],
      ['@ann', 'x'],
    ]) {
      expect(isHeaderRow(row), row.join(',')).toBe(false);
    }
  });

  it('a known column name, a dotted column of the CLI, or a name holding a header word is a header', () => {
    for (const row of [
      ['handle'],
      ['Username'],
      ['email'],
      ['user_id', 'profile.username', 'profile.followers'],
      ['ig_handle'],
      ['Work Email'],
      ['name', 'notes'],
      ['Creator Name'],
    ]) {
      expect(isHeaderRow(row), row.join(',')).toBe(true);
    }
  });

  it('in a list of emails, only an email is data: a lone word is its header', () => {
    expect(isHeaderRow(['contacts'], 'email')).toBe(true);
    expect(isHeaderRow(['ann@example.com'], 'email')).toBe(false);
    expect(isHeaderRow(['contacts'], 'handle')).toBe(false);
  });

  it('a column named with a header word is the column read', () => {
    expect(detectColumn(['name', 'ig_handle'], [['Ann', 'ann']], 'handle')).toEqual({
      index: 1,
      name: 'ig_handle',
      kind: 'handle',
    });
    expect(detectColumn(['name', 'Work Email'], [['Ann', '']], 'email')).toEqual({
      index: 1,
      name: 'Work Email',
      kind: 'email',
    });
  });
});
