/** `--filter` values typed as the filter catalogue (src/contract/filters.ts, api-contract §3.1) types them. */
import { describe, expect, it } from 'vitest';
import { buildFilters } from '../../../src/lib/discovery/filters.js';
import { readPair } from '../../../src/lib/options.js';

describe('buildFilters: list-typed filters', () => {
  it('sends a single value of a list-typed filter as a one-item list', () => {
    const { filters } = buildFilters({
      platform: 'instagram',
      pairs: [
        'location=Germany',
        'hashtags=fitness',
        'audience.brands=nike',
        'audience.location.name=Germany',
        'exclude_list=7',
      ].map((p) => readPair(p, '--filter')),
    });
    expect(filters).toEqual({
      location: ['Germany'],
      hashtags: ['fitness'],
      audience: { brands: ['nike'], location: [{ name: 'Germany' }] },
      exclude_list: [7],
    });
  });

  it('keeps lists, other types and untyped keys as given (a --filters file too)', () => {
    const { filters } = buildFilters({
      platform: 'youtube',
      // games_played is Twitch's: sent only unchecked since the catalogue check (issue 26).
      unchecked: true,
      base: { games_played: 'Minecraft', niche: 'Beauty', gender: 'female' },
      pairs: ['topics=Fitness,Yoga', 'engagement_percent.min=2', 'is_verified=true'].map((p) =>
        readPair(p, '--filter'),
      ),
    });
    expect(filters).toEqual({
      games_played: ['Minecraft'],
      niche: 'Beauty',
      gender: 'female',
      topics: ['Fitness', 'Yoga'],
      engagement_percent: { min: 2 },
      is_verified: true,
    });
  });
});
