/**
 * The Discovery filter catalogue's value types (api-contract.md §3.1), as plain data shared by the
 * CLI (`--filter` sends a single value of a list-typed filter as a one-item list) and the sandbox
 * (which rejects a string where a list is required, as the service's serializer may). Only the keys
 * the contract types are here; other keys pass through as given.
 */

/**
 * `list`: a list of strings (StrList); `int-list`: a list of ids; `object-list`: a list of objects
 * (the audience filters); `range`: `{min, max}`; `growth`: `{growth_percentage, time_range_months}`;
 * `bool`, `string`, `number` as named; `object`: a mapping (`creator_has`, `audience.gender`).
 */
export type FilterType = 'list' | 'int-list' | 'object-list' | 'range' | 'growth' | 'bool' | 'string' | 'number' | 'object';

/** Filter key (dot path for the `audience` object) -> its type. */
export const FILTER_TYPES: Readonly<Record<string, FilterType>> = {
  // Profile
  location: 'list',
  type: 'string',
  gender: 'string',
  profile_language: 'list',
  is_verified: 'bool',
  exclude_private_profile: 'bool',
  ai_search: 'string',
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
  // The audience object
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
