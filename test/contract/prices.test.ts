/**
 * One price table (src/contract/prices.ts) behind both sides: the CLI's worst-case estimates
 * (`--dry-run`, `--max-credits`) and the sandbox's charges must both come from it, so they cannot drift.
 */
import { describe, expect, it } from 'vitest';
import {
  CHARGED_MILLI,
  MODE_PRICE,
  PRICES,
  requestPriceOf,
  routePath,
  WORST_CASE_MILLI,
  type PriceKey,
} from '../../src/contract/prices.js';
import { EMAIL_MODES, HANDLE_MODES } from '../../src/contract/platforms.js';
import { enrichEmailPlan, enrichHandlePlan } from '../../src/lib/api/enrichment.js';
import { postDetailsPlan } from '../../src/lib/api/content.js';
import { batchRowPriceMilli } from '../../src/lib/api/batch.js';
import { BATCH_MODES } from '../../src/contract/platforms.js';
import { rawRequestPlan } from '../../src/lib/api/raw-plan.js';
import { rowPriceMilli } from '../../src/sandbox/batch/jobs.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 7, credits: 100_000 });
const env = () => sandboxEnv(sb.get());
const igHandle = () => sb.get().state.creators.list('instagram')[0]!.profile.username;
const email = () =>
  sb
    .get()
    .state.creators.list('instagram')
    .find((c) => c.email)!.email!;

/** The per-request prices, with `creators api` fields the sandbox answers with data. */
const REQUEST_CALLS: Partial<Record<PriceKey, () => string[]>> = {
  enrichRaw: () => ['-f', `handle=${igHandle()}`, '-f', 'platform=instagram'],
  enrichProfile: () => ['-f', `handle=${igHandle()}`, '-f', 'platform=instagram'],
  enrichAnalytics: () => ['-f', `handle=${igHandle()}`, '-f', 'platform=instagram'],
  enrichFull: () => ['-f', `handle=${igHandle()}`, '-f', 'platform=instagram'],
  enrichEmailBasic: () => ['-f', `email=${email()}`],
  enrichEmailAdvanced: () => ['-f', `email=${email()}`],
  postDetails: () => ['-f', 'platform=instagram', '-f', 'post_id=abc123'],
};
/** Priced routes the sandbox does not serve (yet): only the CLI's worst case is checked for them. */
const NOT_IN_SANDBOX: PriceKey[] = ['creatorPosts', 'connectedSocials', 'audienceOverlap'];

const keys = Object.keys(PRICES) as PriceKey[];
const requestKeys = keys.filter((k) => PRICES[k].per === 'request');

/** Runs `creators api` against the sandbox and returns what the ledger recorded for it. */
async function chargedFor(argv: string[]): Promise<{ milli: number; routes: string[] }> {
  const ledger = sb.get().state.ledger;
  const before = ledger.usedMilli;
  const count = ledger.charges.length;
  const res = await runCli(['api', ...argv, '--json'], { env: env() });
  expect(res.code, res.stderr).toBe(0);
  return { milli: ledger.usedMilli - before, routes: ledger.charges.slice(count).map((c) => c.route) };
}

/** The worst case `creators api --dry-run` shows, in thousandths. */
async function dryRunMilli(argv: string[]): Promise<number | null> {
  const res = await runCli(['api', ...argv, '--dry-run', '--json'], { env: env() });
  expect(res.code, res.stderr).toBe(0);
  const credits = res.json<{ worst_case_credits: number | null }>().worst_case_credits;
  return credits === null ? null : Math.round(credits * 1000);
}

describe('the price table', () => {
  it('holds whole thousandths, never charges above its worst case, and differs only where the sources do', () => {
    for (const k of keys) {
      const { chargedMilli, worstCaseMilli } = PRICES[k];
      expect(Number.isInteger(chargedMilli) && chargedMilli > 0, k).toBe(true);
      expect(worstCaseMilli, k).toBeGreaterThanOrEqual(chargedMilli);
    }
    const differing = keys.filter((k) => PRICES[k].chargedMilli !== PRICES[k].worstCaseMilli);
    expect(differing.sort()).toEqual(['creatorPosts']);
  });

  it('every per-request route is either called below or listed as not served by the sandbox', () => {
    expect([...Object.keys(REQUEST_CALLS), ...NOT_IN_SANDBOX].sort()).toEqual([...requestKeys].sort());
  });
});

describe('the CLI estimates from the table', () => {
  it.each(requestKeys)('%s: the raw plan of its route is the worst case', (k) => {
    const { route, worstCaseMilli } = PRICES[k];
    expect(requestPriceOf(route)).toBe(PRICES[k]);
    expect(rawRequestPlan({ method: 'POST', path: routePath(route), body: {} }).worstCaseMilli).toBe(worstCaseMilli);
  });

  it('per-creator and per-creator-day routes', () => {
    const {
      discoveryPerCreator: d,
      discoveryPerCreatorWithFilterValues: dv,
      similarPerCreator: s,
      monitoringPerCreatorDay: m,
    } = PRICES;
    const milli = (path: string, body: Record<string, unknown>, query?: Record<string, string>): number | null =>
      rawRequestPlan({ method: 'POST', path, body, query }).worstCaseMilli;
    expect(milli(routePath(d.route), { paging: { limit: 7 } })).toBe(7 * d.worstCaseMilli);
    expect(milli(routePath(dv.route), { paging: { limit: 7 } }, dv.query)).toBe(7 * dv.worstCaseMilli);
    expect(milli(routePath(s.route), { paging: { limit: 7 } })).toBe(7 * s.worstCaseMilli);
    expect(milli(routePath(`${m.route}/subscription`), { creators: ['a', 'b'], days: 3 })).toBe(
      2 * 3 * m.worstCaseMilli,
    );
  });

  it('the commands price modes and rows with the worst case', () => {
    for (const mode of HANDLE_MODES)
      expect(enrichHandlePlan('nasa', { mode, platform: 'instagram' }).worstCaseMilli, mode).toBe(
        WORST_CASE_MILLI[MODE_PRICE[mode]],
      );
    for (const mode of EMAIL_MODES)
      expect(enrichEmailPlan('ann@example.com', { mode }).worstCaseMilli, mode).toBe(
        WORST_CASE_MILLI[MODE_PRICE[mode]],
      );
    expect(postDetailsPlan({ platform: 'tiktok', postId: 'x1', kind: 'data' }).worstCaseMilli).toBe(
      WORST_CASE_MILLI.postDetails,
    );
    for (const mode of BATCH_MODES) expect(batchRowPriceMilli(mode), mode).toBe(WORST_CASE_MILLI[MODE_PRICE[mode]]);
  });

  it.each(Object.keys(REQUEST_CALLS) as PriceKey[])('%s: `api --dry-run` shows the worst case', async (k) => {
    expect(await dryRunMilli([PRICES[k].route, ...REQUEST_CALLS[k]!()])).toBe(PRICES[k].worstCaseMilli);
  });
});

describe('the sandbox charges from the table', () => {
  it.each(Object.keys(REQUEST_CALLS) as PriceKey[])('%s: one call charges the table price to its route', async (k) => {
    const { route, chargedMilli } = PRICES[k];
    expect(await chargedFor([route, ...REQUEST_CALLS[k]!()])).toEqual({
      milli: chargedMilli,
      routes: [routePath(route)],
    });
  });

  it('Discovery charges per creator returned, 0.03 with return_filter_values', async () => {
    const { discoveryPerCreator: d, discoveryPerCreatorWithFilterValues: dv } = PRICES;
    const body = ['-f', 'platform=instagram', '-f', 'paging.limit=3'];
    expect(await chargedFor([d.route, ...body])).toEqual({ milli: 3 * d.chargedMilli, routes: [routePath(d.route)] });
    expect(await chargedFor([`${dv.route}?return_filter_values=true`, ...body])).toEqual({
      milli: 3 * dv.chargedMilli,
      routes: [routePath(dv.route)],
    });
  });

  it('similar creators charge per creator returned', async () => {
    const s = PRICES.similarPerCreator;
    const argv = [
      s.route,
      '-f',
      'platform=instagram',
      '-f',
      'filter_key=username',
      '-f',
      `filter_value=${igHandle()}`,
      '-f',
      'paging.limit=2',
    ];
    expect(await chargedFor(argv)).toEqual({ milli: 2 * s.chargedMilli, routes: [routePath(s.route)] });
  });

  it('monitoring charges per creator for the day it starts', async () => {
    const m = PRICES.monitoringPerCreatorDay;
    const { milli, routes } = await chargedFor([
      `${m.route}/subscription`,
      '-f',
      'name=prices',
      '-f',
      'creators=instagram:price_a,tiktok:price_b',
    ]);
    expect(milli).toBe(2 * m.chargedMilli);
    expect(routes.every((r) => r.startsWith(routePath(m.route)))).toBe(true);
  });

  it('batch rows are charged at the mode price', () => {
    for (const mode of BATCH_MODES) expect(rowPriceMilli(mode), mode).toBe(CHARGED_MILLI[MODE_PRICE[mode]]);
  });
});
