/**
 * The response schemas (src/contract/responses.ts) against the contract's documented variants
 * (api-contract.md; design/cli.md, Tolerance): every form a source shows passes, unknown fields pass,
 * numbers beyond a double pass exactly as parsed, and the gateway's `{"message": ...}` fails everywhere
 * a reader would have taken it for an empty answer.
 */
import { describe, expect, it } from 'vitest';
import { RESPONSE_ROUTES, responseMismatch, responseSchema } from '../../src/contract/responses.js';
import { parseJson } from '../../src/lib/exact-json.js';

const P = '/public/v1';
const ok = (method: string, path: string, body: unknown) =>
  expect(responseMismatch(method, path, body), `${method} ${path} ${JSON.stringify(body)}`).toBeUndefined();
const bad = (method: string, path: string, body: unknown) =>
  expect(responseMismatch(method, path, body), `${method} ${path} ${JSON.stringify(body)}`).toBeDefined();

describe('documented variants pass', () => {
  it('credits: credits_available/credits_used or credits_left, as numbers or strings (§10, cli.md Tolerance)', () => {
    ok('GET', `${P}/accounts/credits/`, { credits_available: 1000, credits_used: 0 });
    ok('GET', `${P}/accounts/credits/`, { credits_available: '999.97', credits_used: '0.03' });
    ok('GET', `${P}/accounts/credits/`, { credits_left: '11850.50' });
    ok('GET', `${P}/accounts/credits/`, { credits_left: 11850.5, plan: 'pro' });
    ok(
      'GET',
      `${P}/accounts/credits/`,
      parseJson('{"credits_available": 123456789012345678901234567890.5, "credits_used": 1e400}'),
    );
    bad('GET', `${P}/accounts/credits/`, { credits_available: 'lots' });
    bad('GET', `${P}/accounts/credits/`, {});
  });

  it('Discovery and Similar: accounts with extra fields, credits_left a string (similar) or a number, total absent', () => {
    const account = {
      user_id: '17',
      profile: { username: 'ann', followers: 10 },
      similarity_score: 0.9,
      matched_filters: { location: ['DE'] },
    };
    ok('POST', `${P}/discovery/`, {
      total: 176,
      limit: 3,
      credits_left: '11849.48',
      accounts: [account],
      applied_filters: {},
      nlp_search: 'x',
    });
    ok('POST', `${P}/discovery/creators/similar/`, { total: 1, credits_left: 99.5, accounts: [account] });
    ok('POST', `${P}/discovery/`, { accounts: [] });
    ok(
      'POST',
      `${P}/discovery/`,
      parseJson('{"total": 3, "accounts": [{"user_id": 6789012345678901234, "profile": {}}]}'),
    );
    bad('POST', `${P}/discovery/`, { accounts: ['ann'] });
  });

  it('enrichment: found, result null, status not_found (§7)', () => {
    for (const mode of ['raw', 'profile', 'analytics', 'full'])
      ok('POST', `${P}/creators/enrich/handle/${mode}/`, {
        result: { instagram: { username: 'a' } },
        credits_cost: 1.0,
      });
    ok('POST', `${P}/creators/enrich/email/`, { result: null, credits_cost: 0 });
    ok('POST', `${P}/creators/enrich/email/advanced/`, { status: 'not_found', message: 'No creator found.' });
    bad('POST', `${P}/creators/enrich/handle/raw/`, { result: 'oops' });
  });

  it('posts and comments: next_token at the top or inside result, lists at the top or under data (both cursor styles)', () => {
    ok('POST', `${P}/creators/content/posts/`, {
      result: { posts: [{ id: 1 }] },
      credits_cost: 0.03,
      next_token: 'abc',
    });
    ok('POST', `${P}/creators/content/posts/`, { result: { posts: [], next_token: 'abc' }, credits_cost: 0.03 });
    ok('POST', `${P}/creators/content/posts/`, { credits_left: '10', posts: [{ url: 'u' }] });
    ok('POST', `${P}/creators/content/posts/`, { data: { posts: [] } });
    ok('POST', `${P}/creators/content/posts/`, {
      result: null,
      credits_cost: 0,
      status: 'not_found',
      next_token: null,
    });
    ok('POST', `${P}/creators/content/details/`, {
      result: { comments: [{ text: 'hi' }] },
      credits_cost: 0.03,
      credits_left: 99,
      next_token: null,
    });
    ok('POST', `${P}/creators/content/details/`, { credits_left: 5, data: { transcript: 'words' } });
    bad('POST', `${P}/creators/content/posts/`, { result: { posts: 'none' } });
  });

  it('socials and overlap: result or a socials list; details, or success/status false when nothing was found (§5: credits_left a number)', () => {
    ok('POST', `${P}/creators/socials/`, { result: { socials: [] }, credits_cost: 0.5 });
    ok('POST', `${P}/creators/socials/`, { credits_left: '1', socials: [{ platform: 'tiktok', handle: 'a' }] });
    ok('POST', `${P}/creators/audience/overlap/`, {
      credits_cost: 1,
      credits_left: 98.5,
      status: true,
      success: true,
      basics: { total_followers: 5 },
      details: [{ username: 'a' }],
    });
    ok('POST', `${P}/creators/audience/overlap/`, {
      credits_cost: 0,
      credits_left: 99,
      status: false,
      success: false,
      message: 'No creator found.',
    });
    ok('POST', `${P}/creators/audience/overlap/`, {
      credits_cost: null,
      credits_left: null,
      basics: null,
      details: [],
    });
  });

  it('lists: a bare array or a results envelope with next links (both paging styles); offset pages of handles', () => {
    ok('GET', `${P}/discovery/classifier/languages/`, [{ abbr: 'en', name: 'English' }]);
    ok('GET', `${P}/discovery/classifier/locations/instagram/`, { results: [{ id: 1, name: 'Berlin' }] });
    ok('GET', `${P}/accounts/tokens/`, [
      { id: 1, name: 'ci', token: 't', active: true, expires_at: null, scopes: ['all'] },
    ]);
    ok('GET', `${P}/accounts/tokens/`, { count: 1, next: null, previous: null, results: [{ id: 1 }] });
    ok('GET', `${P}/social/listening/events/`, {
      count: 2,
      next: `${P}/social/listening/events/?page=2`,
      previous: null,
      results: [{ id: 1, event_type: 'new_post' }],
    });
    ok('GET', `${P}/social/listening/events/`, [{ id: 1 }]);
    ok('GET', `${P}/social/listening/subscription/`, { count: 0, next: null, previous: null, results: [] });
    ok('GET', `${P}/discovery/exclusion-lists/`, [
      { id: 1, name: 'x', platform: 'instagram', is_default: true, handle_count: 0, created_at: 't' },
    ]);
    ok('GET', `${P}/discovery/exclusion-lists/4/entries/`, { total: 3, offset: 2, limit: 2, handles: ['c'] });
    ok('GET', `${P}/discovery/exclusion-lists/default/tiktok/entries/`, {
      total: 0,
      offset: 0,
      limit: 1000,
      handles: [],
    });
    bad('GET', `${P}/social/listening/events/`, { count: 2, results: [{ event_type: 'new_post' }] });
  });

  it('batch: created (batch_id or id), status words and string counts, the download link (§9)', () => {
    ok('POST', `${P}/enrichment/batch/`, {
      batch_id: 'bch_97912db6fec544b9aafc4ab8ef057e8b',
      status: 'validating',
      created_at: 't',
      platform: null,
      metadata: null,
    });
    ok('POST', `${P}/enrichment/batch/`, { id: 'b1' });
    ok('GET', `${P}/enrichment/batch/b1/status/`, {
      batch_id: 'b1',
      status: 'paused_insufficient_credits',
      total_rows: 4,
      processed_rows: 1,
      credits_used: '0.03',
      status_message: 'Out of credits.',
      estimated_completion: null,
    });
    ok('GET', `${P}/enrichment/batch/b1/status/`, { state: 'running', total_rows: '4' });
    ok('GET', `${P}/enrichment/batch/b1/download/`, {
      download_url: 'https://files.test/r.csv',
      filename: 'r.csv',
      expires_in: 3600,
      expires_at: 't',
      batch_id: 'b1',
      total_results: 4,
      invalid_records: 0,
    });
    ok('POST', `${P}/enrichment/batch/b1/resume/`, {});
    ok('POST', `${P}/enrichment/batch/b1/resume/`, null);
    bad('GET', `${P}/enrichment/batch/b1/download/`, { download_url: '' });
  });

  it('OAuth: register and token (§13)', () => {
    ok('POST', `${P}/oauth/register/`, {
      client_id: 'c1',
      redirect_uris: ['http://127.0.0.1:1/cb'],
      token_endpoint_auth_method: 'none',
    });
    ok('POST', `${P}/oauth/token/`, {
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'all',
    });
    bad('POST', `${P}/oauth/token/`, { error: 'none' });
  });

  it('a base URL with a path prefix (a proxy) finds the same route; deletes and streams are not checked', () => {
    ok('GET', `/proxy${P}/accounts/credits/`, { credits_available: 1 });
    bad('GET', `/proxy${P}/accounts/credits/`, { message: 'Internal error' });
    ok('DELETE', `${P}/discovery/exclusion-lists/4/`, null);
    expect(responseSchema('GET', `${P}/enrichment/batch/b1/`)).toBe('stream');
    expect(responseSchema('GET', `${P}/not/a/route/`)).toBeUndefined();
    expect(responseSchema('GET', '/elsewhere/file.csv')).toBeUndefined();
  });
});

describe('the gateway answer fails every route a reader would misread', () => {
  it('{"message": "Internal error"} matches no schema that reads data', () => {
    const passes: string[] = [];
    for (const route of RESPONSE_ROUTES) {
      if (route.schema === 'stream') continue;
      const path = route.pattern.replace(/:[a-z]+/g, (m) =>
        m === ':platform' ? 'instagram' : m === ':mode' ? 'raw' : '7',
      );
      if (responseMismatch(route.method, path, { message: 'Internal error' }) === undefined)
        passes.push(`${route.method} ${route.pattern}`);
    }
    // Deletes read nothing; resume, the creators added, details and overview have no published shape.
    expect(passes.sort()).toEqual(
      [
        'DELETE /public/v1/accounts/tokens/:id/',
        'DELETE /public/v1/discovery/exclusion-lists/:id/',
        'DELETE /public/v1/oauth/apps/:id/',
        'DELETE /public/v1/social/listening/campaign/:id/',
        'DELETE /public/v1/social/listening/campaign/:id/creators/',
        'DELETE /public/v1/social/listening/subscription/:id/',
        'DELETE /public/v1/social/listening/subscription/:id/creators/',
        'GET /public/v1/social/listening/campaign/:id/overview/',
        'GET /public/v1/social/listening/subscription/:id/details/',
        'GET /public/v1/social/listening/usage/',
        'POST /public/v1/creators/enrich/public/:id/resume/',
        'POST /public/v1/enrichment/batch/:id/resume/',
        'POST /public/v1/social/listening/campaign/:id/creators/',
        'POST /public/v1/social/listening/subscription/:id/creators/',
      ].sort(),
    );
  });
});
