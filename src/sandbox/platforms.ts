/** Platform identifiers of the service (api-contract.md §1), lowercase as on the wire. */

/** Platforms Discovery, the dictionaries' `locations/{platform}/` and analytics accept. */
export const DISCOVERY_PLATFORMS = ['instagram', 'youtube', 'tiktok', 'twitch', 'twitter', 'onlyfans'] as const;

export type DiscoveryPlatform = (typeof DISCOVERY_PLATFORMS)[number];

export function isDiscoveryPlatform(value: string): value is DiscoveryPlatform {
  return (DISCOVERY_PLATFORMS as readonly string[]).includes(value);
}
