import { describe, expect, it } from 'vitest';
import { CARD_HINT, creatorCard } from '../../../src/lib/output/card.js';
import { wrapText } from '../../../src/lib/output/humanize.js';
import { displayWidth } from '../../../src/lib/output/humanize.js';

const plain = (width: number) => ({ width, color: false });
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
            instagram: { userid: '1', username: 'ann', full_name: 'Ann Lee', follower_count: 12345, engagement_percent: 3.5, niche_class: 'Food', niche_sub_class: 'Baking', income_last_90_days_min: 1000, income_last_90_days_max: 2500 },
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
    const card = creatorCard({ result: { tiktok: { handle: 'bo', name: 'Bo', followers: 999_950, bio: 'hi', avg_likes: 1500, engagement_rate: 0.042, is_verified: true } } }, plain(80), 'tiktok');
    expect(lines(card)[0]).toBe('Bo @bo · tiktok · verified');
    expect(card).toMatch(/\n {2}Followers +1M\n/);
    expect(card).toMatch(/\n {2}Engagement +4\.2%\n/);
    expect(card).toMatch(/\n {2}Likes\/post +1\.5k\n/);
    expect(card).toMatch(/\n {2}Bio +hi\n/);
  });

  it('audience summary: countries, ages and genders by weight, credibility; the followers slice first, a failed slice skipped', () => {
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
                  audience_geo: { countries: [{ name: 'Spain', weight: 0.2 }, { name: 'Mexico', weight: 0.5 }] },
                  audience_ages: [{ code: '18-24', weight: 0.4 }, { code: '25-34', weight: 0.35 }],
                  audience_genders: [{ code: 'FEMALE', weight: 0.62 }, { code: 'MALE', weight: 0.38 }],
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
    expect(card).toMatch(/\n {2}Countries +Mexico 50%, Spain 20%\n/);
    expect(card).toMatch(/\n {2}Ages +18-24 40%, 25-34 35%\n/);
    expect(card).toMatch(/\n {2}Genders +FEMALE 62%, MALE 38%\n/);
  });

  it('sponsors: past sponsors with post counts; brands only when they add names', () => {
    const same = creatorCard({ result: { instagram: { username: 'd', past_sponsors: [{ handle: 'nike', post_count: 1 }, { handle: 'lego', post_count: 3 }], brands_found: ['nike', 'lego'] } } }, plain(100));
    expect(same).toMatch(/\n {2}Past sponsors +@nike \(1 post\), @lego \(3 posts\)\n/);
    expect(same).not.toMatch(/\n {2}Brands /);
    const more = creatorCard({ result: { instagram: { username: 'd', past_sponsors: [{ handle: 'nike' }], brands_found: ['nike', 'adidas'] } } }, plain(100));
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
    const card = creatorCard({ result: { instagram: { username: 'a', full_name: 'A', follower_count: 1 } } }, { width: 80, color: true }, 'instagram');
    expect(card).toContain('\x1b[1mA\x1b[22m @a');
    expect(card).toContain('\x1b[1mMetrics\x1b[22m');
    expect(creatorCard({ result: { instagram: { username: 'a', follower_count: 1 } } }, plain(80))).not.toContain('\x1b');
  });
});

describe('wrapText', () => {
  it('wraps at spaces, keeps paragraphs, cuts words wider than the line', () => {
    expect(wrapText('aa bb cc', 5)).toEqual(['aa bb', 'cc']);
    expect(wrapText('one\ntwo', 10)).toEqual(['one', 'two']);
    expect(wrapText('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
  });
});
