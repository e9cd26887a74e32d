/**
 * The follower-count filter key of Discovery differs per platform (api-contract §3.1); OnlyFans has
 * none. The real API silently ignores a follower filter under another platform's key: the CLI maps
 * it, the sandbox ignores it as the service does.
 */
import type { DiscoveryPlatform } from './platforms.js';

export const FOLLOWER_KEY: Readonly<Record<DiscoveryPlatform, string | undefined>> = {
  instagram: 'number_of_followers',
  tiktok: 'number_of_followers',
  twitter: 'number_of_followers',
  youtube: 'number_of_subscribers',
  twitch: 'followers',
  onlyfans: undefined,
};

/** Every follower-count key of any platform. */
export const FOLLOWER_KEYS: readonly string[] = [
  ...new Set(Object.values(FOLLOWER_KEY).filter((key): key is string => key !== undefined)),
];

/** The follower key of a platform given as any string; undefined for OnlyFans and unknown platforms. */
export function followerKeyOf(platform: string): string | undefined {
  return Object.hasOwn(FOLLOWER_KEY, platform) ? FOLLOWER_KEY[platform as DiscoveryPlatform] : undefined;
}
