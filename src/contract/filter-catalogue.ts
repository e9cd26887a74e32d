/**
 * Which Discovery filter keys each platform has (api-contract.md §3.1, service-spec "Discovery"), as
 * plain data shared by the CLI (a key the chosen platform lacks is refused before anything is sent:
 * the service ignores it silently and the run buys unfiltered results) and the sandbox.
 *
 * Sources: the cross-platform keys are the MCP model's (one flat model the dashboard's serializer
 * mirrors); the per-platform keys are N8N's per-platform groups plus the MCP comments, including the
 * keys only one client sends (`speaking_language`, `last_post`, `similar_to`...), so that nothing a
 * client sends today is refused. `niche`/`sub_niche` are named by the service spec (dictionary
 * endpoints). Follower-count keys are per platform (src/contract/followers.ts); another platform's
 * key is remapped by the CLI, not refused.
 */
import type { DiscoveryPlatform } from './platforms.js';
import { DISCOVERY_PLATFORMS } from './platforms.js';

/** Keys every platform takes (the MCP model's cross-platform filters and the housekeeping keys). */
const SHARED = [
  // Profile
  'location',
  'type',
  'gender',
  'profile_language',
  'speaking_language',
  'is_verified',
  'exclude_private_profile',
  // Semantic search, niches
  'ai_search',
  'niche',
  'sub_niche',
  // Growth and money
  'engagement_percent',
  'follower_growth',
  'subscriber_growth',
  'income',
  'posting_frequency',
  // Keywords and links
  'keywords_in_bio',
  'exclude_keywords_in_bio',
  'hashtags',
  'not_hashtags',
  'brands',
  'link_in_bio',
  'not_link_in_bio',
  'has_link_in_bio',
  // Commerce flags
  'has_done_brand_deals',
  'promotes_affiliate_links',
  'does_live_streaming',
  'has_merch',
  'creator_has',
  // N8N sends these for every platform
  'similar_to',
  // Housekeeping and exclusion lists
  'exclude_handles',
  'exclude_role_based_emails',
  'exclude_list',
  'exclude_default_list',
  'exclude_all_lists',
] as const;

/** Keys only some platforms take. */
const OWN: Readonly<Record<DiscoveryPlatform, readonly string[]>> = {
  instagram: [
    'number_of_followers',
    'number_of_posts',
    'average_likes',
    'average_comments',
    'reels_percent',
    'average_views_for_reels',
    'keywords_in_captions',
    'keywords_not_in_captions',
    'has_videos',
    'video_percentage',
    'last_post',
    // Audience data exists for Instagram creators only (service-spec: 10k followers or more).
    'audience',
  ],
  youtube: [
    'number_of_subscribers',
    'topics',
    'keywords_in_video_titles',
    'keywords_not_in_video_titles',
    'keywords_in_description',
    'keywords_not_in_description',
    'keywords_in_video_description',
    'keywords_not_in_video_description',
    'links_from_description',
    'links_from_video_description',
    'has_shorts',
    'shorts_percentage',
    'average_views_on_long_videos',
    'average_views_on_shorts',
    'median_views_long',
    'long_video_duration',
    'number_of_videos',
    'has_community_posts',
    'streams_live',
    'has_podcast',
    'has_courses',
    'has_membership',
    'is_monetizing',
    'last_upload_long_video',
    'last_upload_short_video',
  ],
  tiktok: [
    'number_of_followers',
    'average_likes',
    'average_comments',
    'average_views',
    'average_video_downloads',
    'video_count',
    'has_tik_tok_shop',
    'video_description',
    'not_video_description',
    'last_post',
  ],
  twitter: [
    'number_of_followers',
    'tweets_count',
    'number_of_tweets',
    'average_likes',
    'tweets',
    'keywords_in_tweets',
    'keywords_not_in_tweets',
    'last_post',
  ],
  twitch: [
    'followers',
    'streamed_hours_last_30_days',
    'streams_count_last_30_days',
    'avg_views_last_30_days',
    'maximum_views_count',
    'games_played',
    'is_twitch_partner',
    'average_stream_views',
    'average_stream_duration',
    'has_live_videos',
    'active_subscribers',
    'total_hours_streamed',
    'most_recent_stream_date',
    'keywords_in_description',
  ],
  onlyfans: [
    'subscription_price',
    'number_of_photos',
    'number_of_likes',
    'has_videos',
    'has_free_account',
    'has_live_streams',
    'last_active',
  ],
};

/** The keys of the `audience` object (Instagram). */
export const AUDIENCE_KEYS: readonly string[] = [
  'location',
  'gender',
  'language',
  'age',
  'interests',
  'brands',
  'brand_categories',
  'credibility',
];

/** The keys `creator_has` allows (the MCP model's 52, `has_whatsApp` spelt so), and `has_personal_website` (service-spec). */
export const CREATOR_HAS_KEYS: readonly string[] = [
  'has_amazonaffiliates',
  'has_anchor',
  'has_applemusic',
  'has_bandcamp',
  'has_behance',
  'has_buymeacoffee',
  'has_cameo',
  'has_canva',
  'has_clubhouse',
  'has_community',
  'has_discord',
  'has_dribbble',
  'has_etsy',
  'has_facebook',
  'has_fiverr',
  'has_github',
  'has_gofundme',
  'has_goodreads',
  'has_instagram',
  'has_kakao',
  'has_kickstarter',
  'has_kofi',
  'has_linkedin',
  'has_linktree',
  'has_medium',
  'has_onlyfans',
  'has_patreon',
  'has_phone',
  'has_pinterest',
  'has_podcast',
  'has_redbubble',
  'has_shopify',
  'has_shopltk',
  'has_snapchat',
  'has_soundcloud',
  'has_spotify',
  'has_spring',
  'has_streamlabs',
  'has_substack',
  'has_telegram',
  'has_tiktok',
  'has_tumblr',
  'has_twitch',
  'has_twitter',
  'has_udemy',
  'has_viber',
  'has_vimeo',
  'has_vk',
  'has_weebly',
  'has_whatsApp',
  'has_wix',
  'has_youtube',
  'has_personal_website',
];

/** `creator_has` keys where only `true` has an effect (service-spec: `false` or omission has no effect). */
export const CREATOR_HAS_TRUE_ONLY: readonly string[] = ['has_personal_website'];

/** Platform -> the top-level filter keys it takes. */
export const FILTER_CATALOGUE: Readonly<Record<DiscoveryPlatform, ReadonlySet<string>>> = Object.fromEntries(
  DISCOVERY_PLATFORMS.map((p) => [p, new Set<string>([...SHARED, ...OWN[p]])]),
) as unknown as Record<DiscoveryPlatform, ReadonlySet<string>>;

/** Every top-level key of any platform. */
export const ALL_FILTER_KEYS: readonly string[] = [
  ...new Set(DISCOVERY_PLATFORMS.flatMap((p) => [...FILTER_CATALOGUE[p]])),
].sort();

/** The platforms that take a top-level key (none: the catalogue does not know it). */
export function platformsWithFilter(key: string): DiscoveryPlatform[] {
  return DISCOVERY_PLATFORMS.filter((p) => FILTER_CATALOGUE[p].has(key));
}
