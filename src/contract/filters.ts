/**
 * The Discovery filter catalogue's value types (api-contract.md §3.1), as plain data shared by the
 * CLI (`--filter` sends a single value of a list-typed filter as a one-item list) and the sandbox
 * (which rejects a string where a list is required, as the service's serializer may), and the shapes
 * inside each value (a range's bounds, a growth's fields, the audience items' keys) the CLI checks before
 * paying: the service ignores what it does not know and the run buys unfiltered results. Every key of the
 * catalogue (filter-catalogue.ts) has a type; the platform keys the contract names without one are typed as
 * their kind is elsewhere (counts and averages as ranges, keyword and link lists as lists, flags as booleans,
 * dates as strings).
 */

/**
 * `list`: a list of strings (StrList); `int-list`: a list of ids; `object-list`: a list of objects
 * (the audience filters); `range`: `{min, max}`; `growth`: `{growth_percentage, time_range_months}`;
 * `bool`, `string`, `number` as named; `text`: a string or a list of strings (`niche`, `sub_niche`: dictionary
 * names, sent either way); `object`: a mapping (`creator_has`, `audience.gender`, `audience`).
 */
export type FilterType =
  | 'list'
  | 'int-list'
  | 'object-list'
  | 'range'
  | 'growth'
  | 'bool'
  | 'string'
  | 'number'
  | 'text'
  | 'object';

/** Filter key (dot path for the `audience` object) -> its type. */
export const FILTER_TYPES: Readonly<Record<string, FilterType>> = {
  // Profile
  location: 'list',
  type: 'string',
  gender: 'string',
  profile_language: 'list',
  speaking_language: 'list',
  is_verified: 'bool',
  exclude_private_profile: 'bool',
  ai_search: 'string',
  niche: 'text',
  sub_niche: 'text',
  // Size, growth and money
  number_of_followers: 'range',
  number_of_subscribers: 'range',
  followers: 'range',
  engagement_percent: 'range',
  follower_growth: 'growth',
  subscriber_growth: 'growth',
  income: 'range',
  posting_frequency: 'number',
  // Keywords and links
  keywords_in_bio: 'list',
  exclude_keywords_in_bio: 'list',
  hashtags: 'list',
  not_hashtags: 'list',
  brands: 'list',
  link_in_bio: 'list',
  not_link_in_bio: 'list',
  has_link_in_bio: 'bool',
  // Commerce flags
  has_done_brand_deals: 'bool',
  promotes_affiliate_links: 'bool',
  does_live_streaming: 'bool',
  has_merch: 'bool',
  creator_has: 'object',
  // Platform lists
  topics: 'list',
  games_played: 'list',
  tweets: 'list',
  similar_to: 'list',
  keywords_in_captions: 'list',
  keywords_not_in_captions: 'list',
  keywords_in_video_titles: 'list',
  keywords_not_in_video_titles: 'list',
  keywords_in_description: 'list',
  keywords_not_in_description: 'list',
  keywords_in_video_description: 'list',
  keywords_not_in_video_description: 'list',
  links_from_description: 'list',
  links_from_video_description: 'list',
  keywords_in_tweets: 'list',
  keywords_not_in_tweets: 'list',
  video_description: 'list',
  not_video_description: 'list',
  // Platform counts, averages and shares
  number_of_posts: 'range',
  average_likes: 'range',
  average_comments: 'range',
  reels_percent: 'range',
  average_views_for_reels: 'range',
  video_percentage: 'range',
  shorts_percentage: 'range',
  average_views_on_long_videos: 'range',
  average_views_on_shorts: 'range',
  median_views_long: 'range',
  long_video_duration: 'range',
  number_of_videos: 'range',
  average_views: 'range',
  average_video_downloads: 'range',
  video_count: 'range',
  tweets_count: 'range',
  number_of_tweets: 'range',
  streamed_hours_last_30_days: 'range',
  streams_count_last_30_days: 'range',
  avg_views_last_30_days: 'range',
  maximum_views_count: 'range',
  average_stream_views: 'range',
  average_stream_duration: 'range',
  active_subscribers: 'range',
  total_hours_streamed: 'range',
  subscription_price: 'range',
  number_of_photos: 'range',
  number_of_likes: 'range',
  // Platform flags
  has_videos: 'bool',
  has_shorts: 'bool',
  has_community_posts: 'bool',
  streams_live: 'bool',
  has_podcast: 'bool',
  has_courses: 'bool',
  has_membership: 'bool',
  is_monetizing: 'bool',
  has_tik_tok_shop: 'bool',
  is_twitch_partner: 'bool',
  has_live_videos: 'bool',
  has_free_account: 'bool',
  has_live_streams: 'bool',
  // Recency, as the clients send it ("30d")
  last_post: 'string',
  last_upload_long_video: 'string',
  last_upload_short_video: 'string',
  most_recent_stream_date: 'string',
  last_active: 'string',
  // The audience object
  audience: 'object',
  'audience.location': 'object-list',
  'audience.gender': 'object',
  'audience.language': 'object-list',
  'audience.age': 'object-list',
  'audience.interests': 'object-list',
  'audience.brands': 'list',
  'audience.brand_categories': 'list',
  'audience.credibility': 'string',
  // Housekeeping and exclusion lists
  exclude_handles: 'list',
  exclude_role_based_emails: 'bool',
  exclude_list: 'int-list',
  exclude_default_list: 'bool',
  exclude_all_lists: 'bool',
};

/** True for the types whose value is a list. */
export function isListType(type: FilterType | undefined): boolean {
  return type === 'list' || type === 'int-list' || type === 'object-list';
}

/** The type of a filter key (`audience.location` for the nested audience keys), or undefined when the contract does not type it. */
export function filterTypeOf(path: string): FilterType | undefined {
  return Object.hasOwn(FILTER_TYPES, path) ? FILTER_TYPES[path] : undefined;
}

/** A range's keys (api-contract §3.1: the API's canonical keys; MCP's `gte`/`lte`... are its own, client-side). */
export const RANGE_KEYS: readonly string[] = ['min', 'max'];

/** MCP's client-side spellings of a range's bounds, which the API does not read. */
export const RANGE_ALIASES: Readonly<Record<string, 'min' | 'max'>> = {
  gte: 'min',
  gt: 'min',
  minimum: 'min',
  lte: 'max',
  lt: 'max',
  maximum: 'max',
};

/** A growth filter's keys. */
export const GROWTH_KEYS: readonly string[] = ['growth_percentage', 'time_range_months'];

/** The keys of each item of an `audience` list, and of `audience.gender` (api-contract §3.1). */
export const AUDIENCE_ITEM_KEYS: Readonly<Record<string, readonly string[]>> = {
  'audience.location': ['name', 'type', 'min_pct'],
  'audience.language': ['language_abbr', 'min_pct'],
  'audience.age': ['range', 'min_pct'],
  'audience.interests': ['name', 'min_pct'],
  'audience.gender': ['type', 'min_pct'],
};

/** `audience.credibility`'s values. */
export const AUDIENCE_CREDIBILITY: readonly string[] = ['bad', 'low', 'normal', 'good', 'high', 'best'];
