import { UsageError } from './errors.js';

/** Platforms Discovery (search) and analytics accept. */
export const DISCOVERY_PLATFORMS = ['instagram', 'youtube', 'tiktok', 'twitch', 'twitter', 'onlyfans'] as const;

/** Platforms of handle enrichment (full excludes linkedin). */
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

/** Lower-cases a platform and checks it against the allowed list; a usage error (nothing sent) otherwise. */
export function checkPlatform(value: string, allowed: readonly string[], what = 'platform'): string {
  const p = value.trim().toLowerCase();
  if (!allowed.includes(p)) {
    throw new UsageError(`Unknown ${what} '${value}'.`, { hint: `Use one of: ${allowed.join(', ')}.` });
  }
  return p;
}
