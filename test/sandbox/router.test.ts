import { describe, expect, it } from 'vitest';
import { json } from '../../src/sandbox/respond.js';
import { Router, type Handler } from '../../src/sandbox/router.js';
import { buildRouter } from '../../src/sandbox/server.js';

const ok: Handler = () => json({});

describe('Router', () => {
  it('matches :params and decodes them', () => {
    const router = new Router().get('/public/v1/things/:id/', ok);
    const res = router.resolve('GET', '/public/v1/things/a%20b/');
    expect(res).toMatchObject({ kind: 'found', params: { id: 'a b' } });
    expect(router.resolve('GET', '/public/v1/things//').kind).toBe('not_found');
    expect(router.resolve('GET', '/public/v1/things/%E0%A4%A/').kind).toBe('not_found');
  });

  it('treats the trailing slash as significant', () => {
    const router = new Router().get('/public/v1/things/', ok);
    expect(router.resolve('GET', '/public/v1/things').kind).toBe('not_found');
    expect(() => new Router().get('/public/v1/no-slash', ok)).toThrow(/end with/);
  });

  it('prefers literal segments over parameters', () => {
    const router = new Router().get('/public/v1/lists/:id/entries/', ok).get('/public/v1/lists/default/:platform/', ok);
    expect(router.resolve('GET', '/public/v1/lists/default/entries/')).toMatchObject({
      kind: 'found',
      route: { pattern: '/public/v1/lists/default/:platform/' },
      params: { platform: 'entries' },
    });
    expect(router.resolve('GET', '/public/v1/lists/7/entries/')).toMatchObject({ params: { id: '7' } });
  });

  it('reports the allowed methods of a known path, serves HEAD from GET', () => {
    const router = new Router().get('/public/v1/x/', ok).post('/public/v1/x/', ok);
    expect(router.resolve('PATCH', '/public/v1/x/')).toEqual({
      kind: 'method_not_allowed',
      allowed: ['GET', 'POST'],
      auth: true,
    });
    expect(router.resolve('HEAD', '/public/v1/x/').kind).toBe('found');
  });

  it('requires auth under /public/v1/ unless told otherwise, and refuses duplicates', () => {
    const router = new Router().post('/public/v1/oauth/register/', ok, { auth: false }).get('/_sandbox/thing', ok);
    const routes = router.routes();
    expect(routes.map((r) => [r.pattern, r.auth])).toEqual([
      ['/public/v1/oauth/register/', false],
      ['/_sandbox/thing', false],
    ]);
    expect(() => router.get('/_sandbox/thing', ok)).toThrow(/twice/);
  });

  it('has the built-in routes: credits, eleven dictionaries, the control surface', () => {
    const patterns = buildRouter()
      .routes()
      .map((r) => `${r.method} ${r.pattern}`);
    expect(patterns).toContain('GET /public/v1/accounts/credits/');
    expect(patterns.filter((p) => p.includes('/discovery/classifier/'))).toHaveLength(11);
    expect(patterns).toContain('POST /_sandbox/config');
  });
});
