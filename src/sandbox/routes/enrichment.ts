/**
 * Sandbox routes: single-creator enrichment (api-contract.md §7).
 *
 *   POST /public/v1/creators/enrich/handle/{raw,profile,analytics,full}/   {handle, platform, ...}
 *   POST /public/v1/creators/enrich/email/                                {email}
 *   POST /public/v1/creators/enrich/email/advanced/                       {email, min_followers?, exclude_platforms?}
 *
 * Found: 200 `{"result": {<platform>: {...}, "email": ..., ...}, "credits_cost": <price>}`, charged at
 * the mode's price. Nothing found (unknown handle, `email_required: "must_have"` without an email,
 * no platform left after the advanced filters): 200
 * `{"result": null, "credits_cost": 0, "status": "not_found", "message": ...}` and no charge (sandbox
 * choice: the real not-found answer is not published). Analytics (and full) on a platform the mode
 * does not cover: 400 `{"error": "..."}` as the real service does for analytics.
 */
import { emailRecord } from '../enrichment/email.js';
import { HANDLE_MODES, MODE_PLATFORMS, SOCIAL_PLATFORMS, type HandleMode } from '../../contract/platforms.js';
import { CHARGED_MILLI, MODE_PRICE } from '../../contract/prices.js';
import { analyticsRecord, findCreator, fullRecord, profileRecord, rawRecord } from '../enrichment/records.js';
import { BodyReader } from '../enrichment/validate.js';
import { charge, toCredits } from '../ledger.js';
import { errorText, json, type Reply } from '../respond.js';
import type { RouteContext, Router } from '../router.js';

/** The answer when no data comes back: free. */
export function notFoundResult(message: string): Reply {
  return json({ result: null, credits_cost: 0, status: 'not_found', message });
}

/** Charges, then answers with the fixture's envelope. */
export function found(ctx: RouteContext, route: string, milli: number, result: unknown, note: string): Reply {
  charge(ctx.state, route, milli, note);
  return json({ result, credits_cost: toCredits(milli) });
}

function handleRoute(mode: HandleMode) {
  const route = `/public/v1/creators/enrich/handle/${mode}/`;
  return (ctx: RouteContext): Reply => {
    const body = new BodyReader(ctx.body);
    const handle = body.string('handle', true);
    const platform = body.choice('platform', SOCIAL_PLATFORMS);
    const emailRequired =
      mode === 'profile' || mode === 'full'
        ? body.choice('email_required', ['must_have', 'preferred'] as const, 'preferred')
        : 'preferred';
    const includeLookalikes = mode === 'analytics' || mode === 'full' ? body.bool('include_lookalikes', false) : false;
    const includeAudienceData = mode === 'full' ? body.bool('include_audience_data', false) : false;
    body.done();
    if (!handle || !platform) return notFoundResult('No data found.');
    if (!MODE_PLATFORMS[mode].includes(platform)) {
      return errorText(
        400,
        `${mode} enrichment is not available for platform '${platform}'. Supported: ${MODE_PLATFORMS[mode].join(', ')}.`,
      );
    }
    const creator = findCreator(ctx.state, platform, handle);
    if (!creator) return notFoundResult(`No ${platform} creator found for '${handle}'.`);
    if (emailRequired === 'must_have' && !creator.email) {
      return notFoundResult(`No email found for '${handle}' (email_required=must_have); nothing was charged.`);
    }
    const result =
      mode === 'raw'
        ? rawRecord(platform, creator)
        : mode === 'profile'
          ? profileRecord(platform, creator)
          : mode === 'analytics'
            ? analyticsRecord(ctx.state, platform, creator, includeLookalikes)
            : fullRecord(ctx.state, platform, creator, {
                emailRequired: emailRequired ?? 'preferred',
                includeLookalikes,
                includeAudienceData,
              });
    return found(
      ctx,
      route,
      CHARGED_MILLI[MODE_PRICE[mode]],
      result,
      `${mode} ${platform}:${creator.profile.username}`,
    );
  };
}

function emailRoute(advanced: boolean) {
  const route = advanced ? '/public/v1/creators/enrich/email/advanced/' : '/public/v1/creators/enrich/email/';
  return (ctx: RouteContext): Reply => {
    const body = new BodyReader(ctx.body);
    const email = body.string('email', true, 254);
    if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) body.errors.email = ['Enter a valid email address.'];
    const minFollowers = advanced ? body.int('min_followers', 0) : undefined;
    const excludePlatforms = advanced ? body.stringList('exclude_platforms', SOCIAL_PLATFORMS) : [];
    body.done();
    const result = emailRecord(ctx.state, email ?? '', { advanced, minFollowers, excludePlatforms });
    if (!result) return notFoundResult(`No creator found for this email.`);
    const milli = CHARGED_MILLI[MODE_PRICE[advanced ? 'advanced' : 'basic']];
    return found(ctx, route, milli, result, advanced ? 'email advanced' : 'email basic');
  };
}

export function register(router: Router): void {
  for (const mode of HANDLE_MODES) {
    router.post(`/public/v1/creators/enrich/handle/${mode}/`, handleRoute(mode));
  }
  router.post('/public/v1/creators/enrich/email/', emailRoute(false));
  router.post('/public/v1/creators/enrich/email/advanced/', emailRoute(true));
}
