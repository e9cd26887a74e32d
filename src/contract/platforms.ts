/**
 * Platform identifiers of the service (api-contract.md §1), lowercase as on the wire, and which
 * platforms each operation accepts. Plain data shared by the CLI and the sandbox.
 */

/** Platforms of Discovery (search, similar), the dictionaries' `locations/{platform}/`, exclusion lists, analytics, batch handle modes and listening. */
export const DISCOVERY_PLATFORMS = ['instagram', 'youtube', 'tiktok', 'twitch', 'twitter', 'onlyfans'] as const;
export type DiscoveryPlatform = (typeof DISCOVERY_PLATFORMS)[number];

/** Platforms of handle enrichment and connected socials (api-contract.md §7: all 11). */
export const SOCIAL_PLATFORMS = [
  'instagram',
  'youtube',
  'tiktok',
  'onlyfans',
  'twitter',
  'snapchat',
  'discord',
  'pinterest',
  'facebook',
  'linkedin',
  'twitch',
] as const;

/** Platforms of creator posts and post details (api-contract.md §8). */
export const CONTENT_PLATFORMS = ['instagram', 'tiktok', 'youtube'] as const;

/** Platforms where Discovery can sort by `growth_rate`. */
export const GROWTH_PLATFORMS = ['instagram', 'tiktok', 'youtube'] as const;

/** Platforms that have audience data (api-contract.md §7). */
export const AUDIENCE_PLATFORMS = ['instagram', 'tiktok', 'youtube'] as const;

/** What `post` can fetch about a post (content details). */
export const CONTENT_KINDS = ['data', 'comments', 'transcript', 'audio'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export type HandleMode = 'raw' | 'profile' | 'analytics' | 'full';
export type EmailMode = 'basic' | 'advanced';
export const HANDLE_MODES: readonly HandleMode[] = ['raw', 'profile', 'analytics', 'full'];
export const EMAIL_MODES: readonly EmailMode[] = ['basic', 'advanced'];

/** A batch job's `enrichment_mode` (api-contract §9.1): raw or full for handles, basic or advanced for emails. */
export const BATCH_MODES = ['raw', 'full', 'basic', 'advanced'] as const;
export type BatchMode = (typeof BATCH_MODES)[number];

/** `email_required` of handle enrichment (single and batch). */
export const EMAIL_REQUIRED = ['must_have', 'preferred'] as const;

/** Platforms each handle-enrichment mode accepts (api-contract.md §7): analytics only the six, full not linkedin. */
export const MODE_PLATFORMS: Readonly<Record<HandleMode, readonly string[]>> = {
  raw: SOCIAL_PLATFORMS,
  profile: SOCIAL_PLATFORMS,
  analytics: DISCOVERY_PLATFORMS,
  full: SOCIAL_PLATFORMS.filter((p) => p !== 'linkedin'),
};

/**
 * Platforms the spec (service-spec.md) lists for a mode but the contract's sources do not: the CLI
 * sends them with a notice that the service may refuse (a refusal is an error, which is free) rather
 * than refusing them itself. The sandbox follows the contract's sources and refuses them with a 400.
 */
export const MODE_PLATFORMS_SPEC_ONLY: Readonly<Partial<Record<HandleMode, readonly string[]>>> = {
  full: ['linkedin'],
};

/** Platforms a batch job's handle modes (raw, full) accept. */
export const BATCH_PLATFORMS = DISCOVERY_PLATFORMS;

/** Platforms a creator may be watched on (listening subscriptions and campaigns). */
export const LISTENING_PLATFORMS = DISCOVERY_PLATFORMS;

export function isDiscoveryPlatform(value: string): value is DiscoveryPlatform {
  return (DISCOVERY_PLATFORMS as readonly string[]).includes(value);
}

/** Platforms of audience overlap (api-contract.md §5). */
export const OVERLAP_PLATFORMS = ['instagram', 'tiktok', 'youtube'] as const;
/** How many creators one overlap request compares (api-contract.md §5). */
export const OVERLAP_CREATORS = { min: 2, max: 10 } as const;

/**
 * Page sizes of creator posts per platform (api-contract.md §8.1): Instagram pages are a fixed 12
 * (`count` is ignored), TikTok takes up to 35 (default 30), YouTube up to 50 (default 30).
 */
export const POSTS_PAGE_SIZES: Readonly<
  Record<(typeof CONTENT_PLATFORMS)[number], { default: number; max: number; fixed: boolean }>
> = {
  instagram: { default: 12, max: 12, fixed: true },
  tiktok: { default: 30, max: 35, fixed: false },
  youtube: { default: 30, max: 50, fixed: false },
};
