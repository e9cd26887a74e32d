/**
 * The sandbox answers in the shapes the CLI checks (src/contract/responses.ts): every `/public/v1/`
 * route the sandbox serves is called here, found and not-found answers alike, and each 2xx JSON answer
 * goes through the same schema the HTTP client applies. A route added to the sandbox without a call
 * here, or without a schema in the contract, fails the coverage check at the end.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { responseMismatch, responseSchema } from '../../src/contract/responses.js';
import { Router } from '../../src/sandbox/router.js';
import { registerRoutes } from '../../src/sandbox/routes/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { configureOAuth } from '../../src/sandbox/oauth/store.js';
import { testClock } from '../commands/batch/helpers.js';

const router = new Router();
registerRoutes(router);
/** Answered with HTML or a redirect (the browser's pages), not JSON: no schema. */
const BROWSER_PAGES = new Set(['GET /public/v1/oauth/authorize/', 'POST /public/v1/oauth/authorize/']);

describe('the sandbox answers in the contract shapes', () => {
  it('every /public/v1/ route, found and not-found answers, passes its schema', async () => {
    const clock = testClock();
    const sb = await startSandbox({ port: 0, now: clock.now, credits: 100_000, batchRowsPerSecond: 100 });
    const covered = new Set<string>();
    const failures: string[] = [];
    /** Calls a route, expects a 2xx, checks a JSON answer against the route's schema; returns the parsed body. */
    const hit = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<any> => {
      const init: RequestInit = {
        method,
        headers: { authorization: `Bearer ${sb.apiKey}`, accept: 'application/json', ...headers },
      };
      if (body instanceof FormData) init.body = body;
      else if (typeof body === 'string') init.body = body;
      else if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
      const res = await fetch(`${sb.url}${path}`, { ...init, redirect: 'manual' });
      const text = await res.text();
      const url = new URL(path, sb.url);
      const resolved = router.resolve(method, url.pathname);
      if (resolved.kind === 'found') covered.add(`${method} ${resolved.route.pattern}`);
      if (res.status < 200 || res.status >= 300) {
        failures.push(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
        return undefined;
      }
      const json = (res.headers.get('content-type') ?? '').includes('json');
      const data = json && text ? JSON.parse(text) : text === '' ? null : text;
      if (responseSchema(method, url.pathname) === undefined)
        failures.push(`${method} ${url.pathname}: no schema in src/contract/responses.ts`);
      if (json) {
        const mismatch = responseMismatch(method, url.pathname, data);
        if (mismatch) failures.push(`${method} ${path}: ${mismatch}`);
      }
      return data;
    };
    try {
      const ig = sb.state.creators.list('instagram');
      const handle = ig[0]!.profile.username;
      const withEmail = ig.find((c) => c.email)!;
      const P = '/public/v1';

      await hit('GET', `${P}/accounts/credits/`);
      for (const kind of [
        'languages',
        'locations/instagram',
        'brands',
        'yt-topics',
        'games',
        'audience-brand-categories',
        'audience-brand-names',
        'audience-interests',
        'audience-locations',
        'niche',
        'sub-niche',
      ]) {
        await hit('GET', `${P}/discovery/classifier/${kind}/?limit=3`);
      }
      await hit('POST', `${P}/discovery/`, { platform: 'instagram', filters: null, paging: { limit: 3, page: 0 } });
      await hit('POST', `${P}/discovery/creators/similar/`, {
        platform: 'instagram',
        filter_key: 'username',
        filter_value: handle,
        paging: { limit: 3, page: 0 },
      });

      // Exclusion lists, by id and the default list.
      const list = await hit('POST', `${P}/discovery/exclusion-lists/`, { name: 'seen', platform: 'instagram' });
      await hit('GET', `${P}/discovery/exclusion-lists/`);
      await hit('GET', `${P}/discovery/exclusion-lists/${list.id}/`);
      await hit('PATCH', `${P}/discovery/exclusion-lists/${list.id}/`, { name: 'seen2' });
      await hit('POST', `${P}/discovery/exclusion-lists/${list.id}/entries/`, { handles: ['a', 'b'] });
      await hit('GET', `${P}/discovery/exclusion-lists/${list.id}/entries/?limit=1`);
      await hit('DELETE', `${P}/discovery/exclusion-lists/${list.id}/entries/`, { handles: ['a'] });
      await hit('DELETE', `${P}/discovery/exclusion-lists/${list.id}/`);
      await hit('GET', `${P}/discovery/exclusion-lists/default/tiktok/`);
      await hit('POST', `${P}/discovery/exclusion-lists/default/tiktok/entries/`, { handles: ['c'] });
      await hit('GET', `${P}/discovery/exclusion-lists/default/tiktok/entries/`);
      await hit('DELETE', `${P}/discovery/exclusion-lists/default/tiktok/entries/`, { handles: ['c'] });

      // Enrichment: found and not found.
      for (const mode of ['raw', 'profile', 'analytics', 'full']) {
        await hit('POST', `${P}/creators/enrich/handle/${mode}/`, { handle, platform: 'instagram' });
        await hit('POST', `${P}/creators/enrich/handle/${mode}/`, {
          handle: 'nobody_has_this_handle',
          platform: 'instagram',
        });
      }
      await hit('POST', `${P}/creators/enrich/email/`, { email: withEmail.email });
      await hit('POST', `${P}/creators/enrich/email/`, { email: 'nobody@example.invalid' });
      await hit('POST', `${P}/creators/enrich/email/advanced/`, { email: withEmail.email });
      const posts = await hit('POST', `${P}/creators/content/posts/`, { platform: 'instagram', handle });
      if (posts?.next_token)
        await hit('POST', `${P}/creators/content/posts/`, {
          platform: 'instagram',
          handle,
          pagination_token: posts.next_token,
        });
      await hit('POST', `${P}/creators/content/posts/`, { platform: 'instagram', handle: 'nobody_has_this_handle' });
      for (const content_type of ['data', 'comments', 'transcript', 'audio'])
        await hit('POST', `${P}/creators/content/details/`, { platform: 'instagram', post_id: 'Cx1', content_type });
      await hit('POST', `${P}/creators/content/details/`, { platform: 'instagram', post_id: 'missing1' });
      await hit('POST', `${P}/creators/socials/`, { platform: 'instagram', handle });
      await hit('POST', `${P}/creators/socials/`, { platform: 'instagram', handle: 'nobody_has_this_handle' });
      await hit('POST', `${P}/creators/audience/overlap/`, {
        platform: 'instagram',
        creators: [ig[0]!.profile.username, ig[1]!.profile.username],
      });
      await hit('POST', `${P}/creators/audience/overlap/`, {
        platform: 'instagram',
        creators: [handle, 'nobody_has_this_handle'],
      });

      // Batch: create, status, results (CSV and JSON), the download link, resume.
      const form = new FormData();
      form.set('enrichment_mode', 'raw');
      form.set('platform', 'instagram');
      form.set('file', new Blob([`handle\n${handle}\nnobody_has_this_handle\n`], { type: 'text/csv' }), 'batch.csv');
      const batch = await hit('POST', `${P}/enrichment/batch/`, form);
      await hit('GET', `${P}/enrichment/batch/${batch.batch_id}/status/`);
      clock.advance(60_000);
      await hit('GET', `${P}/enrichment/batch/${batch.batch_id}/status/`);
      await hit('GET', `${P}/enrichment/batch/${batch.batch_id}/`);
      const rows = await hit('GET', `${P}/enrichment/batch/${batch.batch_id}/?format=json`);
      const { batchResultsSchema, mismatchOf } = await import('../../src/contract/responses.js');
      expect(mismatchOf(batchResultsSchema, rows)).toBeUndefined();
      await hit('GET', `${P}/enrichment/batch/${batch.batch_id}/download/`);
      // A `__fail__` row fails a job, which resume then continues.
      const failing = new FormData();
      failing.set('enrichment_mode', 'raw');
      failing.set('platform', 'instagram');
      failing.set('file', new Blob([`handle\n${handle}\n__fail__\n`], { type: 'text/csv' }), 'batch.csv');
      const failed = await hit('POST', `${P}/enrichment/batch/`, failing);
      clock.advance(60_000);
      expect((await hit('GET', `${P}/enrichment/batch/${failed.batch_id}/status/`)).status).toBe('failed');
      await hit('POST', `${P}/enrichment/batch/${failed.batch_id}/resume/`, {});
      // The legacy routes the official n8n node sends, on the same jobs.
      const legacy = await hit('POST', `${P}/creators/enrich/public/`, {
        emails: ['ann@example.com', 'nobody@example.com'],
      });
      await hit('GET', `${P}/creators/enrich/public/${legacy.batch_id}/`);
      clock.advance(60_000);
      await hit('GET', `${P}/creators/enrich/public/${legacy.batch_id}/`);
      await hit('GET', `${P}/creators/enrich/public/${legacy.batch_id}/download/`);
      const failedAgain = await hit('POST', `${P}/enrichment/batch/`, failing);
      clock.advance(60_000);
      expect((await hit('GET', `${P}/creators/enrich/public/${failedAgain.batch_id}/`)).status).toBe('failed');
      await hit('POST', `${P}/creators/enrich/public/${failedAgain.batch_id}/resume/`, {});

      // Social listening.
      const sub = await hit('POST', `${P}/social/listening/subscription/`, {
        name: 's',
        creators: [{ platform: 'instagram', handle }],
      });
      await hit('GET', `${P}/social/listening/subscription/`);
      await hit('GET', `${P}/social/listening/subscription/${sub.id}/`);
      await hit('PATCH', `${P}/social/listening/subscription/${sub.id}/`, { name: 's2' });
      await hit('POST', `${P}/social/listening/subscription/${sub.id}/creators/`, {
        creators: [{ platform: 'instagram', handle: ig[1]!.profile.username }],
      });
      await hit('GET', `${P}/social/listening/subscription/${sub.id}/creators/`);
      const advanced = await fetch(`${sb.url}/_sandbox/listening/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ days: 3 }),
      });
      expect(advanced.status).toBe(200);
      await hit('GET', `${P}/social/listening/subscription/${sub.id}/details/`);
      await hit('GET', `${P}/social/listening/subscription/${sub.id}/details/export/`);
      const events = await hit('GET', `${P}/social/listening/events/?page_size=2`);
      expect(events.results.length).toBeGreaterThan(0);
      if (events.next) await hit('GET', new URL(events.next).pathname + new URL(events.next).search);
      await hit('GET', `${P}/social/listening/events/${events.results[0].id}/`);
      await hit('GET', `${P}/social/listening/usage/`);
      await hit('DELETE', `${P}/social/listening/subscription/${sub.id}/`);
      const campaign = await hit('POST', `${P}/social/listening/campaign/`, {
        name: 'c',
        days: 5,
        creators: [{ platform: 'instagram', handle }],
      });
      await hit('GET', `${P}/social/listening/campaign/`);
      await hit('GET', `${P}/social/listening/campaign/${campaign.id}/`);
      await hit('PATCH', `${P}/social/listening/campaign/${campaign.id}/`, { name: 'c2' });
      await hit('POST', `${P}/social/listening/campaign/${campaign.id}/creators/`, {
        creators: [{ platform: 'instagram', handle: ig[2]!.profile.username }],
      });
      await hit('GET', `${P}/social/listening/campaign/${campaign.id}/creators/`);
      await hit('DELETE', `${P}/social/listening/campaign/${campaign.id}/creators/`, {
        creators: [{ platform: 'instagram', handle: ig[2]!.profile.username }],
      });
      await hit('GET', `${P}/social/listening/campaign/${campaign.id}/overview/`);
      await hit('GET', `${P}/social/listening/campaign/${campaign.id}/content/`);
      await hit('DELETE', `${P}/social/listening/campaign/${campaign.id}/`);

      // API keys and OAuth.
      const key = await hit('POST', `${P}/accounts/tokens/`, { name: 'ci' });
      await hit('GET', `${P}/accounts/tokens/`);
      await hit('PATCH', `${P}/accounts/tokens/${key.id}/`, { active: false });
      await hit('DELETE', `${P}/accounts/tokens/${key.id}/`);
      const redirect = 'http://127.0.0.1:45678/callback';
      const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
      const client = await hit('POST', `${P}/oauth/register/`, {
        client_name: 'test',
        redirect_uris: [redirect],
        scope: 'all',
      });
      configureOAuth(sb.state, { autoApprove: 'approve' });
      const query = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: redirect,
        response_type: 'code',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state: 'st',
      });
      const authorize = await fetch(`${sb.url}${P}/oauth/authorize/?${query}`, { redirect: 'manual' });
      const code = new URL(authorize.headers.get('location') as string).searchParams.get('code') as string;
      const form2 = new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: client.client_id,
        code,
        code_verifier: verifier,
        redirect_uri: redirect,
      }).toString();
      const tokens = await hit('POST', `${P}/oauth/token/`, form2, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      const refreshed = new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: client.client_id,
        refresh_token: tokens.refresh_token,
      }).toString();
      await hit('POST', `${P}/oauth/token/`, refreshed, { 'content-type': 'application/x-www-form-urlencoded' });
      const apps = await hit('GET', `${P}/oauth/apps/`);
      await hit('DELETE', `${P}/oauth/apps/${apps[0].id}/`);
    } finally {
      await sb.close();
    }
    expect(failures).toEqual([]);
    const served = router
      .routes()
      .filter((r) => r.pattern.startsWith('/public/v1/'))
      .map((r) => `${r.method} ${r.pattern}`)
      .filter((r) => !BROWSER_PAGES.has(r));
    expect(served.filter((r) => !covered.has(r))).toEqual([]);
  });
});
