/**
 * Per-platform knobs of the synthetic creators: which niches are common where, typical size and
 * engagement, profile URLs and handle limits. Change these to reshape the data set.
 */
import type { DiscoveryPlatform } from '../../contract/platforms.js';

/** Niche weights per platform; niches not listed weigh 1. */
export const NICHE_BIAS: Record<DiscoveryPlatform, Record<string, number>> = {
  instagram: { Beauty: 3, Fashion: 3, Fitness: 2.5, Travel: 2, 'Food & Drink': 2, Lifestyle: 2, 'Adult & Dating': 0.2 },
  youtube: { Gaming: 4, Technology: 3, Education: 3, Entertainment: 3, Music: 3, 'Adult & Dating': 0.1 },
  tiktok: { Entertainment: 3, Beauty: 2, Fashion: 2, 'Food & Drink': 2, Lifestyle: 2, 'Adult & Dating': 0.2 },
  twitch: {
    Gaming: 40,
    Entertainment: 4,
    Music: 3,
    'Art & Design': 2,
    Technology: 2,
    Sports: 1.5,
    'Adult & Dating': 0,
  },
  twitter: { 'Business & Finance': 3, Technology: 3, Sports: 3, Entertainment: 2, Gaming: 2, 'Adult & Dating': 0.2 },
  onlyfans: { 'Adult & Dating': 25, Fitness: 4, Fashion: 3, Lifestyle: 3, Beauty: 2 },
};

export interface PlatformShape {
  /** Median follower count of the log-normal body. */
  median: number;
  /** Multiplier on the engagement curve (Twitter engages less than TikTok). */
  engagement: number;
  /** Typical posts (streams) per week. */
  postsPerWeek: number;
  /** Share of business accounts. */
  business: number;
  /** Handle length limit. */
  maxHandle: number;
  /** Separators allowed in handles besides letters and digits. */
  separators: string[];
  profileUrl: (username: string) => string;
}

export const SHAPE: Record<DiscoveryPlatform, PlatformShape> = {
  instagram: {
    median: 9_000,
    engagement: 1,
    postsPerWeek: 3,
    business: 0.12,
    maxHandle: 30,
    separators: ['.', '_', ''],
    profileUrl: (u) => `https://www.instagram.com/${u}/`,
  },
  youtube: {
    median: 7_000,
    engagement: 0.7,
    postsPerWeek: 1,
    business: 0.12,
    maxHandle: 30,
    separators: ['_', ''],
    profileUrl: (u) => `https://www.youtube.com/@${u}`,
  },
  tiktok: {
    median: 12_000,
    engagement: 1.5,
    postsPerWeek: 5,
    business: 0.1,
    maxHandle: 24,
    separators: ['.', '_', ''],
    profileUrl: (u) => `https://www.tiktok.com/@${u}`,
  },
  twitch: {
    median: 2_500,
    engagement: 0.8,
    postsPerWeek: 4,
    business: 0.05,
    maxHandle: 25,
    separators: ['_', ''],
    profileUrl: (u) => `https://www.twitch.tv/${u}`,
  },
  twitter: {
    median: 4_000,
    engagement: 0.35,
    postsPerWeek: 15,
    business: 0.15,
    maxHandle: 15,
    separators: ['_', ''],
    profileUrl: (u) => `https://x.com/${u}`,
  },
  onlyfans: {
    median: 3_000,
    engagement: 1.2,
    postsPerWeek: 6,
    business: 0.01,
    maxHandle: 30,
    separators: ['_', ''],
    profileUrl: (u) => `https://onlyfans.com/${u}`,
  },
};

/** Brand categories that suit a niche, for plausible partnerships; other niches get any brand. */
export const NICHE_BRAND_HINTS: Record<string, string[]> = {
  Beauty: ['Beauty & Cosmetics'],
  Fashion: ['Apparel & Footwear', 'Luxury Goods', 'Jewellery & Watches'],
  Fitness: ['Activewear', 'Supplements'],
  'Health & Wellness': ['Supplements'],
  Gaming: ['Gaming', 'Electronics & Computers'],
  'Food & Drink': ['Food & Grocery', 'Coffee, Tea & Beverages', 'Restaurants & Fast Food'],
  Technology: ['Electronics & Computers', 'Software & Apps'],
  Travel: ['Travel, Tourism & Aviation', 'Camera & Photography'],
  'Pets & Animals': ['Pets'],
  Automotive: ['Cars & Motorbikes'],
  'Business & Finance': ['Financial Services', 'Software & Apps'],
  'Home & Garden': ['Home Decor, Furniture & Garden'],
};
