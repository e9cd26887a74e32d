/**
 * One creator record on a terminal as a card (like `gh repo view`). It reads both layouts the API contract
 * lists (api-contract.md §7): the official `result.<platform>` blocks and the third-party mock's flat
 * `platforms.<platform>` blocks, plus the usual aliases (`followers`, `bio`...). Data text is escaped.
 */
import { SOCIAL_PLATFORMS } from '../../contract/platforms.js';
import { colors } from '../io/color.js';
import { escapeControls } from '../io/safe-text.js';
import { barRows, histogramRows, shareText, sparkline, type BarRow } from './charts.js';
import { humanCount, percent, toNumber, wrapText } from './humanize.js';
import { displayWidth } from '../io/width.js';
import type { DataRecord } from './types.js';

export const CARD_HINT = 'Full record: add --json (or --format csv)';

export interface CardLayout {
  width: number;
  color: boolean;
  unicode: boolean;
}

type Obj = Record<string, unknown>;
/** Lines fitted to the width given (a chart), data text already escaped. */
type Drawn = (width: number) => string[];
type Pair = [label: string, value: string | Drawn];

interface Marks {
  dot: string;
  sub: string;
  range: string;
}

const UNICODE_MARKS: Marks = { dot: ' · ', sub: ' › ', range: '–' };
const ASCII_MARKS: Marks = { dot: ' - ', sub: ' > ', range: '-' };

interface Section {
  title: string;
  rows: Pair[];
  lines: string[];
}

const PLATFORM_NAMES = new Set<string>(SOCIAL_PLATFORMS);
const LABEL_GAP = 2;
const INDENT = 2;
/** A value column narrower than this goes under its label instead of beside it. */
const MIN_VALUE = 16;
const MAX_LIST = 5;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function first(obj: Obj | undefined, ...keys: string[]): unknown {
  if (obj === undefined) return undefined;
  for (const key of keys) {
    const value = obj[key];
    if (value !== null && value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** Plain text of a scalar; objects and lists are not shown as values (the JSON has them). */
function text(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  // An exact big number (lib/exact-json.ts) prints as its digits.
  if (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as { toString?: unknown }).toString === 'function'
  ) {
    const shown = String(value);
    return shown.startsWith('[object') ? undefined : shown;
  }
  return undefined;
}

function count(value: unknown): string | undefined {
  return toNumber(value) === undefined ? text(value) : humanCount(value);
}

function pct(value: unknown): string | undefined {
  return toNumber(value) === undefined ? text(value) : percent(value);
}

/** A share given as a 0..1 weight (audience slices); a value above 1 is taken as percent already. */
function share(value: unknown): string | undefined {
  const num = toNumber(value);
  if (num === undefined) return text(value);
  return num > 1 ? percent(num, { digits: 1 }) : percent(num, { fraction: true, digits: 1 });
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function joined(items: (string | undefined)[], max = MAX_LIST): string | undefined {
  const shown = items.filter((item): item is string => item !== undefined && item !== '');
  if (shown.length === 0) return undefined;
  const head = shown.slice(0, max).join(', ');
  return shown.length > max ? `${head} and ${shown.length - max} more` : head;
}

function at(handle: unknown): string | undefined {
  const shown = text(handle);
  return shown === undefined ? undefined : shown.startsWith('@') ? shown : `@${shown}`;
}

function platformBlocks(result: Obj): [string, Obj][] {
  const blocks: [string, Obj][] = [];
  const seen = new Set<string>();
  const add = (source: Obj): void => {
    for (const [key, value] of Object.entries(source)) {
      if (PLATFORM_NAMES.has(key) && isObj(value) && !seen.has(key)) {
        seen.add(key);
        blocks.push([key, value]);
      }
    }
  };
  add(result);
  if (isObj(result.platforms)) add(result.platforms);
  return blocks;
}

function location(value: unknown): string | undefined {
  if (isObj(value)) {
    const parts = [first(value, 'city'), first(value, 'state'), first(value, 'country', 'country_name', 'name')].map(
      text,
    );
    return joined(parts, parts.length);
  }
  return text(value);
}

function income(block: Obj, result: Obj, marks: Marks): string | undefined {
  const range = (min: unknown, max: unknown, currency: unknown, note: string): string | undefined => {
    const lo = count(min);
    const hi = count(max);
    if (lo === undefined && hi === undefined) return undefined;
    const span = lo !== undefined && hi !== undefined ? `${lo}${marks.range}${hi}` : (lo ?? hi);
    return `${span}${text(currency) ? ` ${text(currency)}` : ''}${note}`;
  };
  const official = first(block, 'income') ?? first(result, 'income');
  if (isObj(official)) return range(official.min, official.max, official.currency, '');
  const flat = (key: string): unknown => first(block, key) ?? first(result, key);
  return (
    range(
      flat('income_last_90_days_min'),
      flat('income_last_90_days_max'),
      flat('income_currency'),
      ' (last 90 days)',
    ) ?? text(official)
  );
}

function yesNo(value: unknown): string | undefined {
  if (value === true || value === 'true') return 'yes';
  if (value === false || value === 'false') return 'no';
  return undefined;
}

function pairs(entries: [string, string | Drawn | undefined][]): Pair[] {
  return entries.filter((entry): entry is Pair => entry[1] !== undefined && entry[1] !== '');
}

function profileSection(block: Obj, result: Obj, marks: Marks): Pair[] {
  const niche = first(block, 'niche_class', 'niche', 'category') ?? first(result, 'niche_class', 'niche', 'category');
  const sub =
    first(block, 'niche_sub_class', 'sub_niche', 'sub_category') ?? first(result, 'niche_sub_class', 'sub_niche');
  const business = first(block, 'is_business', 'is_business_account') ?? first(result, 'is_business');
  const hashtags = list(first(block, 'hashtags')).map((tag) => {
    const shown = text(tag);
    return shown === undefined ? undefined : shown.startsWith('#') ? shown : `#${shown}`;
  });
  return pairs([
    ['Bio', text(first(block, 'biography', 'bio', 'description') ?? first(result, 'biography', 'bio'))],
    ['Niche', [text(niche), text(sub)].filter((v) => v !== undefined).join(marks.sub) || undefined],
    ['Location', location(first(result, 'location') ?? first(block, 'location', 'country'))],
    ['Language', text(first(result, 'language') ?? first(block, 'language'))],
    ['Gender', text(first(result, 'gender') ?? first(block, 'gender'))],
    ['Account', business === true || business === 'true' ? 'business' : undefined],
    ['Income', income(block, result, marks)],
    ['Hashtags', joined(hashtags, 8)?.replace(/, /g, ' ')],
  ]);
}

function contactSection(block: Obj, result: Obj): Pair[] {
  const emails = [first(result, 'email', 'emails') ?? first(block, 'email', 'emails', 'public_email')].flat().map(text);
  const links = [
    ...list(first(result, 'other_links', 'links')),
    first(block, 'external_url', 'link_in_bio', 'website'),
  ].map(text);
  // A record that has the key but no address (profile and full modes look for one): say none was found.
  const lookedFor = 'email' in result && emails.every((email) => email === undefined);
  return pairs([
    ['Email', joined(emails) ?? (lookedFor ? 'none found' : undefined)],
    ['Links', joined([...new Set(links)])],
    ['Profile', text(first(block, 'profile_url', 'url'))],
  ]);
}

/** `[months, percent]` of `creator_follower_growth` (`{"3_months_ago": 5.98, ...}`), the longest ago first. */
function growthPoints(value: unknown): [number, number][] {
  if (!isObj(value)) return [];
  const points: [number, number][] = [];
  for (const [key, raw] of Object.entries(value)) {
    const months = /^(\d+)_months?(?:_ago)?$/.exec(key)?.[1];
    const pctValue = toNumber(raw);
    if (months !== undefined && pctValue !== undefined && pctValue > -100) points.push([Number(months), pctValue]);
  }
  return points.sort((a, b) => b[0] - a[0]);
}

/** `▁▄▆█ +20.1% in 12 months, +9.8% in 6, +5.98% in 3`: the follower count worked back from each period's growth. */
function growthChart(points: [number, number][], layout: CardLayout): Drawn {
  const now = 100;
  const series = [...points.map(([, g]) => now / (1 + g / 100)), now];
  const signed = (g: number): string => `${g > 0 ? '+' : ''}${percent(g)}`;
  const figures = points
    .map(([months, g], i) => `${signed(g)} in ${months}${i === 0 ? ` month${months === 1 ? '' : 's'}` : ''}`)
    .join(', ');
  return (width) => {
    const plain = sparkline(series, { unicode: layout.unicode, cell: 2, baseline: 'lowest' });
    const lines = wrapText(`${plain} ${figures}`, width);
    if (layout.color && lines[0]?.startsWith(plain))
      lines[0] =
        sparkline(series, { unicode: layout.unicode, cell: 2, baseline: 'lowest', color: true }) +
        lines[0].slice(plain.length);
    return lines;
  };
}

function metricsSection(block: Obj, result: Obj, layout: CardLayout): Pair[] {
  const growth = growthPoints(first(block, 'creator_follower_growth') ?? first(result, 'creator_follower_growth'));
  const rate = first(block, 'engagement_rate');
  const rateNum = toNumber(rate);
  const engagement =
    first(block, 'engagement_percent') !== undefined
      ? pct(block.engagement_percent)
      : rateNum !== undefined && rateNum <= 1
        ? share(rate)
        : pct(rate);
  return pairs([
    ['Followers', count(first(block, 'follower_count', 'followers', 'followers_count', 'subscriber_count'))],
    ['Engagement', engagement],
    ['Likes/post', count(first(block, 'likes_median', 'avg_likes', 'average_likes'))],
    ['Comments/post', count(first(block, 'comments_median', 'avg_comments', 'average_comments'))],
    ['Views/post', count(first(block, 'views_median', 'avg_views', 'average_views', 'reels_views_median'))],
    ['Posts', count(first(block, 'media_count', 'posts_count', 'video_count'))],
    ['Posting freq.', text(first(block, 'posting_frequency_recent_months', 'posting_frequency'))],
    [
      'Growth',
      growth.length > 0 ? growthChart(growth, layout) : pct(first(block, 'follower_growth_percent', 'growth_rate')),
    ],
  ]);
}

function platformsSection(main: string | undefined, blocks: [string, Obj][], result: Obj, marks: Marks): Pair[] {
  const rows: Pair[] = [];
  const named = new Set<string>(main === undefined ? [] : [main]);
  for (const [platform, block] of blocks) {
    if (platform === main) continue;
    named.add(platform);
    const followers = count(first(block, 'follower_count', 'followers'));
    const value = joined(
      [
        at(first(block, 'username', 'handle')),
        followers === undefined ? undefined : `${followers} followers`,
        text(first(block, 'profile_url', 'url')),
      ],
      3,
    );
    if (value !== undefined) rows.push([platform, value.replace(/, /g, marks.dot)]);
  }
  const bare: string[] = [];
  for (const item of [
    ...list(result.socials),
    ...list(result.other_platforms),
    ...list(Array.isArray(result.platforms) ? result.platforms : []),
  ]) {
    if (isObj(item)) {
      const platform = text(first(item, 'platform', 'network', 'type'));
      if (platform === undefined || named.has(platform)) continue;
      named.add(platform);
      const value = joined([at(first(item, 'handle', 'username')), text(first(item, 'url', 'profile_url'))], 2);
      if (value !== undefined) rows.push([platform, value.replace(/, /g, marks.dot)]);
      else bare.push(platform);
    } else {
      const platform = text(item);
      if (platform === undefined || named.has(platform)) continue;
      named.add(platform);
      bare.push(platform);
    }
  }
  const also = joined(bare, bare.length);
  if (also !== undefined) rows.push(['Also on', also]);
  return rows;
}

interface Share {
  label: string;
  weight: number | undefined;
}

/** The shares of `[{name|code|label, weight}]` or of `{label: weight}` (both layouts are seen), as listed. */
function shareList(value: unknown): Share[] {
  const toShare = (label: string | undefined, raw: unknown): Share | undefined => {
    if (label === undefined) return undefined;
    const weight = toNumber(raw);
    return { label, weight: weight === undefined ? undefined : weight > 1 ? weight / 100 : weight };
  };
  const items = Array.isArray(value)
    ? value.filter(isObj).map((item) => toShare(text(first(item, 'name', 'code', 'label')), item.weight))
    : isObj(value)
      ? Object.entries(value).map(([key, raw]) => toShare(key, raw))
      : [];
  return items.filter((item): item is Share => item !== undefined);
}

const heaviestFirst = (a: Share, b: Share): number => (b.weight ?? 0) - (a.weight ?? 0);
const youngestFirst = (a: Share, b: Share): number => (parseInt(a.label, 10) || 0) - (parseInt(b.label, 10) || 0);
const shareLabel = (label: string): string =>
  /^[A-Z]+$/.test(label)
    ? label[0] + label.slice(1).toLowerCase()
    : /^\d+-$/.test(label)
      ? `${label.slice(0, -1)}+`
      : label;

function sharesChart(
  items: Share[],
  max: number,
  layout: CardLayout,
  labelWidth: () => number,
): string | Drawn | undefined {
  const shown = items.slice(0, max);
  if (shown.length === 0) return undefined;
  if (shown.every((item) => item.weight === undefined))
    return joined(
      shown.map((item) => item.label),
      max,
    );
  const rows: BarRow[] = shown.map((item) => ({
    label: clean(shareLabel(item.label)),
    parts: [item.weight ?? 0],
    text: item.weight === undefined ? '' : shareText(item.weight),
  }));
  return (width) => barRows(rows, { width, unicode: layout.unicode, color: layout.color, labelWidth: labelWidth() });
}

/** On the service's histogram (bins `{min, max, total, median}`, open at both ends), the audience's own bin marked. */
function credibilityValue(value: unknown, histogram: unknown, layout: CardLayout): string | Drawn | undefined {
  const bins = list(histogram)
    .filter(isObj)
    .map((bin) => ({
      min: toNumber(bin.min),
      max: toNumber(bin.max),
      total: toNumber(first(bin, 'total', 'count')) ?? 0,
      median: bin.median === true,
    }));
  if (bins.length < 2) return share(value);
  // Bounds in percent (0..100) or as fractions (0..1); the value likewise.
  const scale = bins.some((bin) => (bin.max ?? 0) > 1 || (bin.min ?? 0) > 1) ? 100 : 1;
  const bound = (v: number): string => percent(v / scale, { fraction: true, digits: 0 });
  // The open ends (no `min` on the first bin, no `max` on the last) are as wide as a closed bin.
  const step = bins
    .map((bin) => (bin.min !== undefined && bin.max !== undefined ? bin.max - bin.min : undefined))
    .find((w) => w !== undefined && w > 0);
  const firstBin = bins[0]!;
  const lastBin = bins[bins.length - 1]!;
  const low = bound(firstBin.min ?? Math.max(0, (firstBin.max ?? 0) - (step ?? firstBin.max ?? 0)));
  const high = bound(lastBin.max ?? Math.min(scale, (lastBin.min ?? 0) + (step ?? scale)));
  const raw = toNumber(value);
  const own =
    raw === undefined ? undefined : scale === 1 && raw > 1 ? raw / 100 : scale === 100 && raw <= 1 ? raw * 100 : raw;
  let mark: { bin: number; label: string } | undefined;
  if (own !== undefined) {
    const found = bins.findIndex(
      (bin) => (bin.min === undefined || own >= bin.min) && (bin.max === undefined || own < bin.max),
    );
    mark = { bin: found >= 0 ? found : own < (bins[0]?.max ?? 0) ? 0 : bins.length - 1, label: share(value) ?? '' };
  } else {
    const median = bins.findIndex((bin) => bin.median);
    if (median >= 0) mark = { bin: median, label: 'median' };
  }
  return (width) =>
    histogramRows(
      { counts: bins.map((bin) => bin.total), low, high, mark },
      { width, unicode: layout.unicode, color: layout.color },
    );
}

function audienceSection(block: Obj, result: Obj, layout: CardLayout): { title: string; rows: Pair[] } {
  const audience = first(block, 'audience') ?? first(result, 'audience');
  let data: Obj | undefined;
  let who = '';
  if (isObj(audience)) {
    for (const [key, name] of [
      ['audience_followers', 'followers'],
      ['audience_likers', 'likers'],
      ['audience_commenters', 'commenters'],
    ] as const) {
      const slice = audience[key];
      if (isObj(slice) && slice.success !== false && isObj(slice.data)) {
        data = slice.data;
        who = name;
        break;
      }
    }
    if (
      data === undefined &&
      ['audience_geo', 'audience_credibility', 'audience_ages', 'audience_genders'].some((key) => key in audience)
    )
      data = audience;
  }
  const geo = isObj(data?.audience_geo) ? data.audience_geo : undefined;
  const rawInterests = first(result, 'audience_interests') ?? first(data, 'audience_interests');
  const interests = Array.isArray(rawInterests)
    ? rawInterests.map((item) => (isObj(item) ? text(first(item, 'name')) : text(item)))
    : shareList(rawInterests)
        .sort(heaviestFirst)
        .map((item) => item.label);
  const charts: [label: string, items: Share[], max: number][] = [
    ['Countries', shareList(geo?.countries).sort(heaviestFirst), MAX_LIST],
    ['Cities', shareList(geo?.cities).sort(heaviestFirst), 3],
    ['Ages', shareList(first(data, 'audience_ages', 'ages')).sort(youngestFirst), 8],
    ['Genders', shareList(first(data, 'audience_genders', 'genders')).sort(heaviestFirst), 3],
  ];
  const labelWidth = (): number =>
    Math.max(
      1,
      ...charts.flatMap(([, items, max]) =>
        items.slice(0, max).map((item) => displayWidth(clean(shareLabel(item.label)))),
      ),
    );
  const histogram = isObj(audience)
    ? first(audience, `audience_credibility_${who || 'followers'}_histogram`)
    : undefined;
  const rows = pairs([
    [
      'Credibility',
      data === undefined
        ? undefined
        : credibilityValue(
            first(data, 'audience_credibility', 'credibility'),
            histogram ?? first(data, 'credibility_histogram'),
            layout,
          ),
    ],
    ...charts.map(([label, items, max]): [string, string | Drawn | undefined] => [
      label,
      sharesChart(items, max, layout, labelWidth),
    ]),
    ['Interests', joined(interests)],
    [
      'Brand affinity',
      joined(
        list(first(data, 'audience_brand_affinity')).map((item) => (isObj(item) ? text(item.name) : text(item))),
        3,
      ),
    ],
  ]);
  return { title: who ? `Audience (${who})` : 'Audience', rows };
}

function sponsorsSection(block: Obj, result: Obj): Pair[] {
  const sponsors = list(first(block, 'past_sponsors') ?? first(result, 'past_sponsors')).map((item) => {
    if (!isObj(item)) return text(item);
    const name = at(first(item, 'handle', 'username', 'name'));
    const posts = toNumber(item.post_count);
    return name === undefined
      ? undefined
      : posts === undefined
        ? name
        : `${name} (${posts} post${posts === 1 ? '' : 's'})`;
  });
  const brandList = list(first(block, 'brands_found') ?? first(result, 'brands_found'));
  const affinity = list(first(block, 'brand_affinity') ?? first(result, 'brand_affinity'));
  const brands = (brandList.length > 0 ? brandList : affinity).map((item) =>
    isObj(item) ? text(first(item, 'name', 'handle')) : text(item),
  );
  // Brands that are all past sponsors already would be the same names twice.
  const sponsorNames = new Set(sponsors.map((name) => name?.replace(/^@/, '').replace(/ \(.*$/, '')));
  const newBrands = brands.some((brand) => brand !== undefined && !sponsorNames.has(brand.replace(/^@/, '')));
  const sponsored = first(block, 'sponsored_posts');
  return pairs([
    ['Past sponsors', joined(sponsors)],
    ['Brands', newBrands ? joined(brands) : undefined],
    [
      'Sponsored',
      Array.isArray(sponsored) && sponsored.length > 0
        ? `${sponsored.length} post${sponsored.length === 1 ? '' : 's'}`
        : undefined,
    ],
    ['Brand deals', yesNo(first(block, 'has_brand_deals') ?? first(result, 'has_brand_deals'))],
  ]);
}

function lookalikeLines(block: Obj, result: Obj, marks: Marks): string[] {
  const items = list(first(result, 'lookalikes') ?? first(block, 'lookalikes')).filter(isObj);
  const lines = items.slice(0, MAX_LIST).map((item) => {
    const followers = count(first(item, 'follower_count', 'followers'));
    const engagement = pct(first(item, 'engagement_percent'));
    const parts = [
      at(first(item, 'username', 'handle')) ?? text(first(item, 'profile_url', 'url')),
      followers && `${followers} followers`,
      engagement && `${engagement} engagement`,
    ];
    return parts.filter((part) => part !== undefined && part !== '').join(marks.dot.trim() === '' ? ' ' : marks.dot);
  });
  if (items.length > MAX_LIST) lines.push(`and ${items.length - MAX_LIST} more`);
  return lines.filter((line) => line !== '');
}

function clean(value: string): string {
  return escapeControls(value.replace(/\r\n/g, '\n').replace(/\t/g, ' '));
}

/** Undefined when there is no result to show (not found): the caller prints its key/value table instead. */
export function creatorCard(record: DataRecord, layout: CardLayout, platform?: string): string | undefined {
  const result = isObj(record.result)
    ? record.result
    : record.result === undefined && record.status === undefined
      ? record
      : undefined;
  if (result === undefined) return undefined;
  const blocks = platformBlocks(result);
  const mainEntry = blocks.find(([name]) => name === platform) ?? blocks[0];
  const mainPlatform = mainEntry?.[0] ?? text(first(result, 'platform')) ?? platform;
  const block = mainEntry?.[1] ?? {};

  const name =
    text(first(block, 'full_name', 'fullname', 'name') ?? first(result, 'full_name', 'fullname', 'name')) ??
    joined([text(first(result, 'first_name')), text(first(result, 'last_name'))])?.replace(', ', ' ');
  const handle = at(
    first(block, 'username', 'handle') ?? first(result, 'handle', 'username') ?? first(record, 'handle'),
  );
  const verified = first(block, 'is_verified', 'verified') === true ? 'verified' : undefined;
  const marks = layout.unicode ? UNICODE_MARKS : ASCII_MARKS;
  const titleRest = [handle, mainPlatform, verified].filter((part) => part !== undefined).join(marks.dot);
  const fallback = text(first(record, 'email', 'handle')) ?? 'Creator';

  const audience = audienceSection(block, result, layout);
  const sections: Section[] = [
    { title: 'Profile', rows: profileSection(block, result, marks), lines: [] },
    { title: 'Contact', rows: contactSection(block, result), lines: [] },
    { title: 'Metrics', rows: metricsSection(block, result, layout), lines: [] },
    { title: 'Platforms', rows: platformsSection(mainEntry?.[0], blocks, result, marks), lines: [] },
    { title: audience.title, rows: audience.rows, lines: [] },
    { title: 'Sponsors and brands', rows: sponsorsSection(block, result), lines: [] },
    { title: 'Lookalikes', rows: [], lines: lookalikeLines(block, result, marks) },
  ].filter((section) => section.rows.length > 0 || section.lines.length > 0);

  return renderCard({ name: name ?? (handle === undefined ? fallback : undefined), rest: titleRest, sections }, layout);
}

function renderCard(card: { name: string | undefined; rest: string; sections: Section[] }, layout: CardLayout): string {
  const width = Math.max(20, layout.width);
  const paint = colors(layout.color);
  const out: string[] = [];
  const name = card.name === undefined ? '' : clean(card.name);
  const rest = clean(card.rest);
  const title = [name, rest].filter((part) => part !== '').join(' ');
  const titleLines = wrapText(title, width);
  if (name !== '' && titleLines[0]?.startsWith(name))
    titleLines[0] = paint.bold(name) + titleLines[0].slice(name.length);
  out.push(...titleLines);

  const labelWidth = Math.max(0, ...card.sections.flatMap((s) => s.rows.map(([label]) => displayWidth(label))));
  const valueWidth = width - INDENT - labelWidth - LABEL_GAP;
  const beside = valueWidth >= MIN_VALUE;
  for (const section of card.sections) {
    out.push('', paint.bold(section.title));
    for (const [label, raw] of section.rows) {
      const fitted = (room: number): string[] => (typeof raw === 'function' ? raw(room) : wrapText(clean(raw), room));
      if (beside) {
        const lines = fitted(valueWidth);
        lines.forEach((line, i) => {
          const head = i === 0 ? label.padEnd(labelWidth) : ' '.repeat(labelWidth);
          out.push(`${' '.repeat(INDENT)}${head}${' '.repeat(LABEL_GAP)}${line}`);
        });
      } else {
        out.push(`${' '.repeat(INDENT)}${label}`);
        for (const line of fitted(width - 2 * INDENT)) out.push(`${' '.repeat(2 * INDENT)}${line}`);
      }
    }
    for (const line of section.lines)
      for (const part of wrapText(clean(line), width - INDENT)) out.push(`${' '.repeat(INDENT)}${part}`);
  }
  out.push('', ...wrapText(CARD_HINT, width).map((line) => paint.dim(line)));
  return `${out.join('\n')}\n`;
}
