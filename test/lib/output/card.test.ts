import { describe, expect, it } from 'vitest';
import { CARD_HINT, creatorCard } from '../../../src/lib/output/card.js';
import { wrapText } from '../../../src/lib/output/humanize.js';
import { displayWidth } from '../../../src/lib/io/width.js';

const plain = (width: number) => ({ width, color: false, unicode: true });
const lines = (text: string | undefined): string[] => (text ?? '').trimEnd().split('\n');

describe('creatorCard', () => {
  it('reads the flat layout of the contract (platforms.<p>, income_last_90_days_*, niche_class, location string)', () => {
    const card = creatorCard(
      {
        handle: 'ann',
        status: 'ok',
        result: {
          email: 'ann@example.com',
          location: 'Lisbon, Portugal',
          first_name: 'Ann',
          has_brand_deals: true,
          is_business: true,
          platforms: {
            instagram: {
              userid: '1',
              username: 'ann',
              full_name: 'Ann Lee',
              follower_count: 12345,
              engagement_percent: 3.5,
              niche_class: 'Food',
              niche_sub_class: 'Baking',
              income_last_90_days_min: 1000,
              income_last_90_days_max: 2500,
            },
            youtube: { username: 'annbakes', follower_count: 2_000_000 },
          },
        },
      },
      plain(100),
      'instagram',
    );
    const out = lines(card);
    expect(out[0]).toBe('Ann Lee @ann · instagram');
    expect(card).toMatch(/\n {2}Niche +Food › Baking\n/);
    expect(card).toMatch(/\n {2}Location +Lisbon, Portugal\n/);
    expect(card).toMatch(/\n {2}Account +business\n/);
    expect(card).toMatch(/\n {2}Income +1k–2\.5k \(last 90 days\)\n/);
    expect(card).toMatch(/\n {2}Followers +12\.3k\n/);
    expect(card).toMatch(/\n {2}youtube +@annbakes · 2M followers\n/);
    expect(card).toMatch(/\n {2}Brand deals +yes\n/);
    expect(out.at(-1)).toBe(CARD_HINT);
  });

  it('aliases: followers, bio, avg_likes, engagement_rate as a fraction, verified', () => {
    const card = creatorCard(
      {
        result: {
          tiktok: {
            handle: 'bo',
            name: 'Bo',
            followers: 999_950,
            bio: 'hi',
            avg_likes: 1500,
            engagement_rate: 0.042,
            is_verified: true,
          },
        },
      },
      plain(80),
      'tiktok',
    );
    expect(lines(card)[0]).toBe('Bo @bo · tiktok · verified');
    expect(card).toMatch(/\n {2}Followers +1M\n/);
    expect(card).toMatch(/\n {2}Engagement +4\.2%\n/);
    expect(card).toMatch(/\n {2}Likes\/post +1\.5k\n/);
    expect(card).toMatch(/\n {2}Bio +hi\n/);
  });

  it('audience: countries, ages and genders as bars with percentages, credibility; the followers slice first, a failed slice skipped', () => {
    const card = creatorCard(
      {
        result: {
          instagram: {
            username: 'cy',
            audience: {
              audience_followers: { success: false, error: 'empty_audience' },
              audience_likers: {
                success: true,
                data: {
                  audience_credibility: 0.81,
                  audience_geo: {
                    countries: [
                      { name: 'Spain', weight: 0.2 },
                      { name: 'Mexico', weight: 0.5 },
                    ],
                  },
                  audience_ages: [
                    { code: '18-24', weight: 0.4 },
                    { code: '25-34', weight: 0.35 },
                  ],
                  audience_genders: [
                    { code: 'FEMALE', weight: 0.62 },
                    { code: 'MALE', weight: 0.38 },
                  ],
                },
              },
            },
          },
        },
      },
      plain(100),
      'instagram',
    );
    expect(card).toContain('\nAudience (likers)\n');
    expect(card).toMatch(/\n {2}Credibility +81%\n/);
    // The heaviest country first, ages youngest first; one column for every bar of the section.
    expect(card).toMatch(/\n {2}Countries {4}Mexico {2}█{20}░{20} {2}50%\n {15}Spain {3}█{8}░{32} {2}20%\n/);
    expect(card).toMatch(/\n {2}Ages {9}18-24 {3}█{16}░{24} {2}40%\n {15}25-34 {3}█{14}░{26} {2}35%\n/);
    expect(card).toMatch(/\n {2}Genders {6}Female  █{24}▊░{15} {2}62%\n {15}Male {4}█{15}▎░{24} {2}38%\n/);
  });

  const audienceRecord = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    result: { instagram: { username: 'cy', audience: { audience_followers: { success: true, data }, ...extra } } },
  });
  const bins = [
    { max: 0.5, total: 10 },
    { min: 0.5, max: 0.6, total: 40 },
    { min: 0.6, max: 0.7, total: 90, median: true },
    { min: 0.7, max: 0.8, total: 60 },
    { min: 0.8, total: 20 },
  ];

  it('credibility on its histogram: the open ends as wide as a bin, the audience marked in its bin', () => {
    const card = creatorCard(
      audienceRecord({ audience_credibility: 0.734 }, { audience_credibility_followers_histogram: bins }),
      plain(100),
      'instagram',
    )!;
    const lines = card.split('\n');
    const row = lines.findIndex((line) => line.startsWith('  Credibility'));
    expect(lines[row]).toMatch(/^ {2}Credibility {2}40% [▁-█]{20} 90%$/);
    // Bins of 4 cells: the marker under the middle of the fourth (0.7 to 0.8).
    const bars = lines[row]!.indexOf('40% ') + 4;
    expect(lines[row + 1]!.indexOf('▲')).toBe(bars + 3 * 4 + 1);
    expect(lines[row + 1]!.trim()).toBe('▲ 73.4%');
    // No value: the median's bin.
    const median = creatorCard(
      audienceRecord({ audience_geo: {} }, { audience_credibility_followers_histogram: bins }),
      plain(100),
      'instagram',
    )!;
    expect(median).toMatch(/\n {17,}▲ median\n/);
  });

  it('shares as a `{label: weight}` map (percent or fraction) are drawn the same', () => {
    const card = creatorCard(
      audienceRecord({
        audience_ages: { '25-34': 0.3, '13-17': 0.1, '65-': 0.05 },
        audience_genders: { male: 78, female: 22 },
      }),
      plain(80),
      'instagram',
    )!;
    expect(card).toMatch(
      /\n {2}Ages +13-17 +█+[▉▊▋▌▍▎▏]?░+ +10%\n +25-34 +█+[▉▊▋▌▍▎▏]?░+ +30%\n +65\+ +█+[▉▊▋▌▍▎▏]?░+ +5%\n/,
    );
    expect(card).toMatch(/\n {2}Genders +male +█+[▉▊▋▌▍▎▏]?░+ +78%\n +female +█+[▉▊▋▌▍▎▏]?░+ +22%\n/);
  });

  it('follower growth over 12, 6 and 3 months as a sparkline of the follower count, then the figures', () => {
    const card = creatorCard(
      {
        result: {
          instagram: {
            username: 'g',
            follower_growth_percent: 5,
            creator_follower_growth: { '3_months_ago': 5, '12_months_ago': 20, '6_months_ago': 9.5 },
          },
        },
      },
      plain(100),
      'instagram',
    )!;
    expect(card).toMatch(/\n {2}Growth +▁▁▄▄▆▆██ \+20% in 12 months, \+9\.5% in 6, \+5% in 3\n/);
    // Without the periods: the 3-month figure alone, as before.
    expect(
      creatorCard({ result: { instagram: { username: 'g', follower_growth_percent: 5 } } }, plain(100), 'instagram'),
    ).toMatch(/\n {2}Growth +5%\n/);
  });

  it.each([60, 100, 200])(
    'at %i columns every chart line fits; ASCII without Unicode, no colour codes without colour',
    (width) => {
      const record = audienceRecord(
        {
          audience_credibility: 0.9,
          audience_geo: {
            countries: [
              { name: 'United States of America', weight: 0.61 },
              { name: 'India', weight: 0.2 },
            ],
            cities: [{ name: 'Kolkata', weight: 0.11 }],
          },
          audience_ages: [{ code: '18-24', weight: 0.4 }],
          audience_genders: [{ code: 'FEMALE', weight: 0.62 }],
        },
        { audience_credibility_followers_histogram: bins },
      );
      for (const unicode of [true, false]) {
        const card = creatorCard(record, { width, color: false, unicode }, 'instagram')!;
        for (const line of card.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
        expect(card).toContain('United States of America');
        if (!unicode) {
          expect(card).not.toMatch(/[\u2580-\u259f▲·›–]/);
          expect(card).toMatch(/\n {2}Countries +United States of America +#+\.+ +61%\n/);
          expect(card).toContain('^ 90%');
        }
        expect(card).not.toContain('\x1b');
      }
      expect(creatorCard(record, { width, color: true, unicode: true }, 'instagram')).toContain('\x1b[36m█');
    },
  );

  it('sponsors: past sponsors with post counts; brands only when they add names', () => {
    const same = creatorCard(
      {
        result: {
          instagram: {
            username: 'd',
            past_sponsors: [
              { handle: 'nike', post_count: 1 },
              { handle: 'lego', post_count: 3 },
            ],
            brands_found: ['nike', 'lego'],
          },
        },
      },
      plain(100),
    );
    expect(same).toMatch(/\n {2}Past sponsors +@nike \(1 post\), @lego \(3 posts\)\n/);
    expect(same).not.toMatch(/\n {2}Brands /);
    const more = creatorCard(
      {
        result: { instagram: { username: 'd', past_sponsors: [{ handle: 'nike' }], brands_found: ['nike', 'adidas'] } },
      },
      plain(100),
    );
    expect(more).toMatch(/\n {2}Brands +nike, adidas\n/);
  });

  it('no result (not found): undefined, so the caller keeps its table', () => {
    expect(creatorCard({ handle: 'x', result: null, status: 'not_found' }, plain(100))).toBeUndefined();
  });

  it.each([20, 30, 44, 60])('at %i columns no line is wider, however long the words', (width) => {
    const card = creatorCard(
      {
        result: {
          instagram: {
            username: 'averyveryverylonghandle_that_goes_on',
            full_name: '長い名前の作成者さん',
            biography: `${'word '.repeat(40)}${'z'.repeat(120)} 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉`,
            follower_count: 10,
          },
          other_links: ['https://example.com/a/very/long/path/that/does/not/fit/anywhere/at/all'],
        },
      },
      plain(width),
      'instagram',
    );
    for (const line of lines(card)) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    expect(card?.replace(/\s+/g, '')).toContain('z'.repeat(120));
  });

  it('colour: bold name and headings; none without it', () => {
    const card = creatorCard(
      { result: { instagram: { username: 'a', full_name: 'A', follower_count: 1 } } },
      { width: 80, color: true, unicode: true },
      'instagram',
    );
    expect(card).toContain('\x1b[1mA\x1b[22m @a');
    expect(card).toContain('\x1b[1mMetrics\x1b[22m');
    expect(creatorCard({ result: { instagram: { username: 'a', follower_count: 1 } } }, plain(80))).not.toContain(
      '\x1b',
    );
  });
});

describe('wrapText', () => {
  it('wraps at spaces, keeps paragraphs, cuts words wider than the line', () => {
    expect(wrapText('aa bb cc', 5)).toEqual(['aa bb', 'cc']);
    expect(wrapText('one\ntwo', 10)).toEqual(['one', 'two']);
    expect(wrapText('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
  });
});
