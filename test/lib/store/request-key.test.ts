/**
 * A request's key is what finds its stored answer: computed faster now, it must be the same text and hash it always
 * was (its first 32 hex digits since schema 5, which cut the keys stores held to them), or every store would miss
 * (and buy again) what it holds.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeHandle } from '../../../src/contract/handles.js';
import { routeOf } from '../../../src/lib/api/charge.js';
import { ExactNumber, stringifyJson } from '../../../src/lib/exact-json.js';
import { answerKey, requestText } from '../../../src/lib/store/memory.js';

const BASE = 'https://api.example.test/';

/** The key as the store has always written it (sorted copies, then stringifyJson), for plain bodies. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
function referenceText(path: string, query: unknown, body: unknown): string {
  return stringifyJson(canonical({ route: routeOf(path), query: query ?? null, body: body ?? null }));
}

describe('request keys', () => {
  it('are the keys stores already hold (fixed values)', () => {
    expect(
      answerKey(BASE, {
        path: 'creators/enrich/handle/full',
        body: {
          handle: 'Noah_Paws',
          platform: 'instagram',
          email_required: 'preferred',
          include_lookalikes: false,
          include_audience_data: false,
        },
      }),
    ).toBe('75877ba435f62394db09899d60becd5f2eaf3b343e4cfeb4deea7309a9b06e44'.slice(0, 32));
    expect(
      answerKey(BASE, {
        path: '/public/v1/discovery/',
        query: { page: 2 },
        body: {
          platform: 'instagram',
          paging: { limit: 50, page: 0 },
          filters: { exclude_handles: ['B', 'a'], followers: { min: 1000, max: 2000 }, é: [1, 2.5, 'x', null, true] },
          sort: { field: 'followers', order: 'desc' },
        },
      }),
    ).toBe('26d1479452528d9feee670d4d308c6ece395508aa2dc1b50b10ddccfac5493d7'.slice(0, 32));
  });

  it('write the same text as sorted copies written out, whatever the body holds', () => {
    const bodies: unknown[] = [
      { handle: 'x', platform: 'instagram', b: { z: 1, a: [{ y: 2, x: null }, 'é', 1.5, -0, 1e21] } },
      { '2024': 1, b: 2, a: 3 },
      { b: 1, '10': 2, '9': 3 },
      { a: undefined, b: 1, c: [undefined, 2] },
      { a: new ExactNumber('6789012345678901234'), b: 'x' },
      { a: Number.NaN, b: Number.POSITIVE_INFINITY },
      { é: 1, e: 2, E: 3, '': 4, ' ': 5 },
      { a: { toJSON: () => 'j' } },
      { a: new Date(0) },
      Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
      [3, { b: 1, a: 2 }],
      'text',
      7,
      null,
      undefined,
      { creators: ['B', '@a'], filters: { exclude_handles: ['Z', '@y', 'y'] } },
      { filter_key: 'url', filter_value: 'https://www.instagram.com/Noah/' },
    ];
    for (const body of bodies) {
      for (const query of [undefined, { page: 2, q: 'x' }, { a: undefined }]) {
        const req = { path: '/public/v1/creators/enrich/handle/raw/', query: query as never, body };
        const text = requestText(req);
        // The normalisations (handles, sorted creators) come first: compare on what they leave.
        if (body && typeof body === 'object' && ('creators' in body || 'filter_key' in body)) {
          expect(text).toContain('"body":{');
          continue;
        }
        expect(text, JSON.stringify(body)).toBe(referenceText(req.path, query, body));
        expect(answerKey(BASE, req)).toBe(
          createHash('sha256')
            .update(`${BASE}\n${referenceText(req.path, query, body)}`)
            .digest('hex')
            .slice(0, 32),
        );
      }
    }
    expect(normalizeHandle('@Noah')).toBe('noah');
  });
});
