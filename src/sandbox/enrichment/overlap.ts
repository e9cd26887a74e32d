/**
 * Audience overlap (api-contract.md §5) between 2..10 creators of one platform, derived from the
 * creators themselves so the same set always answers the same figures. The figures are consistent:
 * each creator's unique % is in 0..100 and its overlapping % is the rest; the set's unique audience
 * is every creator's unique part plus part of the shared audience, so it never exceeds the total.
 */
import type { Creator } from '../data/creators.js';
import { hash32, round, streamFor } from '../random.js';

export function overlapReport(seed: number, platform: string, creators: readonly Creator[]): Record<string, unknown> {
  const key = creators
    .map((c) => c.user_id)
    .sort()
    .join(',');
  const rng = streamFor(seed, `overlap:${platform}:${key}`);
  let uniqueFollowers = 0;
  let shared = 0;
  const details = creators.map((c) => {
    const followers = c.profile.followers;
    // More creators compared, less of each audience is unique.
    const unique = round(Math.max(5, Math.min(98, 95 - creators.length * 4 - rng() * 35)), 2);
    uniqueFollowers += (followers * unique) / 100;
    shared += (followers * (100 - unique)) / 100;
    const engagements = Math.round((followers * c.profile.engagement_percent) / 100);
    return {
      user: {
        user_id: c.user_id,
        username: c.profile.username,
        followers,
        fullname: c.profile.full_name,
        url: c.url,
        is_verified: c.is_verified,
        engagements,
        stats: [{ post_type: platform === 'youtube' ? 'video' : 'post', engagements }],
      },
      user_id: c.user_id,
      username: c.profile.username,
      followers,
      unique_percentage: unique,
      overlapping_percentage: round(100 - unique, 2),
    };
  });
  const totalFollowers = creators.reduce((sum, c) => sum + c.profile.followers, 0);
  // Each shared follower is counted once however many of the creators follow him: between 1/n and 1/2 of the shared mentions.
  const sharedPeople = shared * (0.5 - (hash32(key) % 100) / 100 / (creators.length + 1));
  const totalUnique = Math.min(totalFollowers, Math.round(uniqueFollowers + sharedPeople));
  return { basics: { total_followers: totalFollowers, total_unique_followers: totalUnique }, details };
}
