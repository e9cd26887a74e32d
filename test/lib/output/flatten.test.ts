import { describe, expect, it } from 'vitest';

import { flattenRecord, getPath, selectFields } from '../../../src/lib/output/flatten.js';

const creator = {
  user_id: 'u1',
  profile: { username: 'alice', followers: 12345, stats: { avg_likes: '11849.48' }, empty: {} },
  tags: ['fitness', 'travel'],
  posts: [
    { id: 'p1', likes: 10 },
    { id: 'p2', likes: 20 },
  ],
  email: null,
  missing: undefined,
  verified: true,
};

describe('getPath', () => {
  it('reads nested paths and array indexes', () => {
    expect(getPath(creator, 'profile.username')).toBe('alice');
    expect(getPath(creator, 'profile.stats.avg_likes')).toBe('11849.48');
    expect(getPath(creator, 'posts.1.id')).toBe('p2');
    expect(getPath(creator, 'tags.0')).toBe('fitness');
  });

  it('returns undefined for missing paths, out-of-range or non-numeric indexes', () => {
    expect(getPath(creator, 'profile.nope')).toBeUndefined();
    expect(getPath(creator, 'posts.9.id')).toBeUndefined();
    expect(getPath(creator, 'posts.length')).toBeUndefined();
    expect(getPath(creator, 'user_id.x')).toBeUndefined();
    expect(getPath(creator, 'email.x')).toBeUndefined();
  });

  it('matches a literal dotted key (a CSV input column) before splitting', () => {
    expect(getPath({ 'profile.username': 'flat', profile: { username: 'nested' } }, 'profile.username')).toBe('flat');
    expect(getPath({ input: { 'a.b': 1 } }, 'input.a.b')).toBe(1);
  });
});

describe('flattenRecord', () => {
  it('turns nested objects into dot-path keys, joins primitive arrays, JSON-encodes object arrays', () => {
    expect(flattenRecord(creator)).toEqual({
      user_id: 'u1',
      'profile.username': 'alice',
      'profile.followers': 12345,
      'profile.stats.avg_likes': '11849.48',
      'profile.empty': null,
      tags: 'fitness; travel',
      posts: '[{"id":"p1","likes":10},{"id":"p2","likes":20}]',
      email: null,
      missing: null,
      verified: true,
    });
  });

  it('keeps key order and treats nulls inside primitive arrays as empty', () => {
    const flat = flattenRecord({ b: 1, a: { z: 1, y: 2 }, list: [1, null, 'x'] });
    expect(Object.keys(flat)).toEqual(['b', 'a.z', 'a.y', 'list']);
    expect(flat.list).toBe('1; ; x');
  });

  it('joins a list with "; " only when no item holds "; ": else the cell is the JSON array (no ambiguity)', () => {
    const flat = flattenRecord({
      joined: ['a', 'b', 'c'],
      holds: ['a; b', 'c'],
      semi: ['a;b', 'c;'],
      spaced: ['a ', ' b'],
    });
    expect(flat.joined).toBe('a; b; c');
    expect(flat.holds).toBe('["a; b","c"]');
    expect(flat.semi).toBe('a;b; c;');
    expect(flat.spaced).toBe('a ;  b');
  });

  it('JSON-encodes nested arrays and keeps a __proto__ key as data', () => {
    const record = JSON.parse('{"m":[[1,2],[3]],"__proto__":{"x":1}}') as Record<string, unknown>;
    const flat = flattenRecord(record);
    expect(flat.m).toBe('[[1,2],[3]]');
    expect(Object.prototype.hasOwnProperty.call(flat, '__proto__.x')).toBe(true);
    expect(Object.getPrototypeOf(flat)).toBe(Object.prototype);
  });
});

describe('selectFields', () => {
  it('keeps the given paths, rebuilding nesting in field order', () => {
    const out = selectFields(creator, ['profile.username', 'user_id']);
    expect(out).toEqual({ profile: { username: 'alice' }, user_id: 'u1' });
    expect(Object.keys(out)).toEqual(['profile', 'user_id']);
  });

  it('omits missing paths but keeps explicit nulls', () => {
    expect(selectFields(creator, ['nope', 'profile.nope', 'email'])).toEqual({ email: null });
  });

  it('keeps whole subtrees, and a prefix wins over a longer path', () => {
    expect(selectFields(creator, ['profile.username', 'profile'])).toEqual({ profile: creator.profile });
    expect(selectFields(creator, ['profile', 'profile.username'])).toEqual({ profile: creator.profile });
  });

  it('keeps array shape for index paths', () => {
    expect(selectFields(creator, ['posts.0.id'])).toEqual({ posts: [{ id: 'p1' }] });
    expect(selectFields(creator, ['posts.1.likes', 'posts.0.id'])).toEqual({ posts: [{ id: 'p1' }, { likes: 20 }] });
  });

  it('never modifies the input record', () => {
    const before = JSON.stringify(creator);
    selectFields(creator, ['profile.username', 'profile', 'profile.stats.avg_likes', 'tags.0', 'posts.1.id']);
    selectFields(creator, ['profile', 'profile.username', 'profile.extra']);
    expect(JSON.stringify(creator)).toBe(before);
  });
});
