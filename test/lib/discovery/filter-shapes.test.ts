/** Every level of a filters object is checked against the catalogue's shapes (issue 38: sub-keys bought unfiltered results). */
import { describe, expect, it } from 'vitest';
import { buildFilters } from '../../../src/lib/discovery/filters.js';
import { shapeProblems } from '../../../src/lib/discovery/filter-shapes.js';
import { ALL_FILTER_KEYS, AUDIENCE_KEYS } from '../../../src/contract/filter-catalogue.js';
import { filterTypeOf } from '../../../src/contract/filters.js';
import { readPair } from '../../../src/lib/options.js';

const problems = (filters: Record<string, unknown>): string[] => shapeProblems(filters).map((p) => p.message);

describe('the filter catalogue types every key', () => {
  it('every top-level key of every platform, and every audience key, has a type (an untyped key would skip the value checks)', () => {
    expect(ALL_FILTER_KEYS.filter((k) => filterTypeOf(k) === undefined)).toEqual([]);
    expect(AUDIENCE_KEYS.filter((k) => filterTypeOf(`audience.${k}`) === undefined)).toEqual([]);
  });
});

describe('shapeProblems', () => {
  it('names the nearest valid sub-key of a range, a growth and an audience item', () => {
    expect(problems({ number_of_followers: { minn: 500_000 } })).toEqual([
      "Unknown filter 'number_of_followers.minn'. Did you mean 'number_of_followers.min'?",
    ]);
    expect(problems({ engagement_percent: { mn: 30 } })).toEqual([
      "Unknown filter 'engagement_percent.mn'. Did you mean 'engagement_percent.min'?",
    ]);
    expect(problems({ average_likes: { lte: 10 } })[0]).toMatch(
      /^Unknown filter 'average_likes\.lte'\. The API reads a range's bounds as min and max .* Did you mean 'average_likes\.max'\?$/,
    );
    expect(problems({ subscriber_growth: { growth_percentage: 5, time_range_month: 3 } })).toEqual([
      "Unknown filter 'subscriber_growth.time_range_month'. Did you mean 'subscriber_growth.time_range_months'?",
    ]);
    expect(problems({ audience: { interests: [{ nam: 'Fitness' }] } })).toEqual([
      "Unknown filter 'audience.interests.nam'. Did you mean 'audience.interests.name'?",
    ]);
    expect(problems({ audience: { gender: { typ: 'female' } } })).toEqual([
      "Unknown filter 'audience.gender.typ'. Did you mean 'audience.gender.type'?",
    ]);
  });

  it('refuses keys under a list, and wrong value types', () => {
    expect(problems({ location: { country: 'Germany' } })).toEqual([
      "Unknown filter 'location.country': 'location' takes a list of values, not keys. Did you mean 'location=Germany'?",
    ]);
    expect(problems({ hashtags: [true] })).toEqual(["Filter 'hashtags' takes a list of text values, not true."]);
    expect(problems({ exclude_list: ['abc'] })).toEqual([
      'Filter \'exclude_list\' takes ids (whole numbers), not "abc".',
    ]);
    expect(problems({ has_shorts: 'yes' })).toEqual(['Filter \'has_shorts\' takes true or false, not "yes".']);
    expect(problems({ posting_frequency: 'often' })).toEqual([
      'Filter \'posting_frequency\' must be a number, not "often".',
    ]);
    expect(problems({ last_post: { days: 30 } })).toEqual([
      "Unknown filter 'last_post.days': 'last_post' takes a value, not keys.",
    ]);
    expect(problems({ follower_growth: { time_range_months: 3 } })[0]).toMatch(
      /^Filter 'follower_growth' needs 'follower_growth\.growth_percentage'/,
    );
    expect(problems({ follower_growth: { growth_percentage: 5, time_range_months: 1.5 } })[0]).toMatch(
      /time_range_months' must be a whole number of months/,
    );
    expect(problems({ audience: { location: ['Germany'] } })[0]).toMatch(
      /^Filter 'audience\.location' takes items \{name, type, min_pct\}, not "Germany"\. Did you mean 'audience\.location\.name=Germany'\?/,
    );
    expect(problems({ audience: 'Germany' })[0]).toMatch(/^Filter 'audience' takes keys, not "Germany"/);
    expect(problems({ creator_has: { has_youtube: 1 } })).toEqual([
      "Filter 'creator_has.has_youtube' takes true or false, not 1.",
    ]);
  });

  it("checks a range's bounds: numbers, not negative, min not above max", () => {
    expect(problems({ income: { min: 'lots' } })).toEqual(['Filter \'income.min\' must be a number, not "lots".']);
    expect(problems({ video_count: { min: -1 } })).toEqual(["Filter 'video_count.min' must be 0 or more, not -1."]);
    expect(problems({ followers: { min: 10, max: 5 } })).toEqual([
      "Filter 'followers': min 10 is above max 5, so nothing could match.",
    ]);
    expect(problems({ number_of_followers: 5000 })).toEqual([
      "Filter 'number_of_followers' is a range: give its bounds. Did you mean 'number_of_followers.min=5000'?",
    ]);
  });

  it("passes well-formed filters, N8N's null bounds, single values of lists and dictionary names either way", () => {
    expect(
      problems({
        number_of_followers: { min: 1000, max: null },
        engagement_percent: { min: 1.5 },
        follower_growth: { growth_percentage: -2, time_range_months: 6 },
        location: 'Germany',
        hashtags: ['fitness', 2024],
        exclude_list: [3, 4],
        niche: 'Beauty',
        sub_niche: ['Yoga'],
        posting_frequency: 3,
        last_post: '30d',
        creator_has: { has_youtube: true },
        is_verified: false,
        gender: 'female',
        exclude_handles: ['a', 'b'],
        audience: {
          location: { name: 'Germany', min_pct: 20 },
          age: [{ range: '18-24', min_pct: 30 }],
          gender: { type: 'female', min_pct: 50 },
          brands: 'nike',
          credibility: 'high',
        },
      }),
    ).toEqual([]);
  });

  it('buildFilters refuses a problem (exit 2, naming --unchecked-filters) and sends it with a warning when unchecked', () => {
    expect(() =>
      buildFilters({
        platform: 'instagram',
        pairs: ['number_of_followers.minn=500000'].map((p) => readPair(p, '--filter')),
      }),
    ).toThrow(/Unknown filter 'number_of_followers\.minn'\. Did you mean 'number_of_followers\.min'\?/);
    const { filters, warnings } = buildFilters({
      platform: 'instagram',
      pairs: ['number_of_followers.minn=500000'].map((p) => readPair(p, '--filter')),
      unchecked: true,
    });
    expect(filters).toEqual({ number_of_followers: { minn: 500_000 } });
    expect(warnings.join('\n')).toMatch(/sending 'number_of_followers\.minn'/);
  });
});
