/**
 * Enrichment by email: the synthetic creators that carry an address, found across the six
 * Discovery platforms. Each platform the person is on becomes a block in `result`, like the
 * handle tiers. Basic gives identifiers; advanced adds analytics and honours `min_followers`
 * and `exclude_platforms`.
 */
import type { Creator } from '../data/creators.js';
import { DISCOVERY_PLATFORMS } from '../../contract/platforms.js';
import { slot, type SandboxState } from '../state.js';

/** Email -> creators with that address, built once per sandbox on first use. */
function emailIndex(state: SandboxState): Map<string, Creator[]> {
  return slot(state, 'enrichment:emails', () => {
    const index = new Map<string, Creator[]>();
    for (const platform of DISCOVERY_PLATFORMS) {
      for (const creator of state.creators.list(platform)) {
        if (!creator.email) continue;
        const key = creator.email.toLowerCase();
        const list = index.get(key);
        if (list) list.push(creator);
        else index.set(key, [creator]);
      }
    }
    return index;
  });
}

export interface EmailOptions {
  advanced: boolean;
  minFollowers?: number | undefined;
  excludePlatforms: readonly string[];
}

/** The result for an address, or undefined when no platform block is left (not found, no charge). */
export function emailRecord(
  state: SandboxState,
  email: string,
  options: EmailOptions,
): Record<string, unknown> | undefined {
  const creators = (emailIndex(state).get(email.toLowerCase()) ?? []).filter(
    (c) =>
      !options.excludePlatforms.includes(c.platform) &&
      (!options.advanced || options.minFollowers === undefined || c.profile.followers >= options.minFollowers),
  );
  if (creators.length === 0) return undefined;
  const first = creators[0] as Creator;
  const result: Record<string, unknown> = {
    email: email.toLowerCase(),
    full_name: first.profile.full_name,
    location: first.location,
    platforms: creators.map((c) => c.platform),
  };
  for (const c of creators) {
    const block: Record<string, unknown> = {
      username: c.profile.username,
      userid: c.user_id,
      profile_url: c.url,
      follower_count: c.profile.followers,
    };
    if (options.advanced) {
      Object.assign(block, {
        engagement_percent: c.profile.engagement_percent,
        posting_frequency_recent_months: c.posting_frequency,
        follower_growth_percent: c.growth_rate,
        income: c.income,
        niche_class: c.niche,
        brands_found: c.brands,
        has_brand_deals: c.has_done_brand_deals,
      });
    }
    result[c.platform] = block;
  }
  return result;
}
