/** Word lists for synthetic creators: names, handle words per niche, bio templates. */

export const FEMALE_NAMES = `anna emma olivia sophia mia isabella ava lily chloe zoe grace ella hannah sofia camila
valentina lucia maria laura sara julia elena nina leah maya aisha priya fatima yuki mei hana jasmine naomi
ruby ivy alice clara rosa bianca carla diana eva freya gemma iris jade kira luna nora paula rita sienna tara`.split(
  /\s+/,
);

export const MALE_NAMES = `liam noah oliver james lucas leo mateo ethan jack henry daniel samuel david gabriel
adam omar ali arjun rahul kenji hiroshi minho jin carlos diego pablo marco luca felix hugo max oscar theo
victor andre bruno caio enzo ivan jonas kai milo nico rafael sami tom yusuf zane ben chris dev eli finn`.split(/\s+/);

export const LAST_NAMES = `smith johnson williams brown jones garcia miller davis rodriguez martinez lopez gonzalez
wilson anderson thomas taylor moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis
robinson walker young allen king wright scott torres nguyen hill flores green adams nelson baker hall rivera
campbell mitchell carter roberts silva santos costa rossi ferrari muller schmidt fischer dubois moreau bernard
kowalski novak kim park tanaka sato chen wang singh patel khan ali hassan okafor mensah cohen larsen berg`.split(/\s+/);

/** Words for handles like `annacooks` or `fitwithleo`, per niche (keys match NICHE_ROWS). */
export const HANDLE_WORDS: Record<string, string[]> = {
  Beauty: ['glam', 'beauty', 'makeup', 'glow', 'skin'],
  Fashion: ['style', 'fits', 'wears', 'closet', 'looks'],
  Fitness: ['fit', 'lifts', 'gains', 'strong', 'moves'],
  'Health & Wellness': ['well', 'mindful', 'calm', 'healthy', 'balance'],
  'Food & Drink': ['cooks', 'eats', 'bakes', 'kitchen', 'foodie'],
  Travel: ['travels', 'wanders', 'abroad', 'roams', 'trips'],
  Gaming: ['plays', 'gg', 'gamer', 'ttv', 'clutch'],
  Technology: ['tech', 'codes', 'bytes', 'builds', 'dev'],
  'Parenting & Family': ['mama', 'papa', 'family', 'littles', 'home'],
  'Home & Garden': ['home', 'nest', 'grows', 'diy', 'garden'],
  'Business & Finance': ['money', 'invests', 'hustle', 'wealth', 'biz'],
  Education: ['learns', 'teaches', 'explains', 'notes', 'study'],
  Music: ['music', 'beats', 'sings', 'sounds', 'tunes'],
  'Art & Design': ['art', 'draws', 'paints', 'studio', 'ink'],
  Entertainment: ['laughs', 'tv', 'films', 'fun', 'show'],
  Sports: ['sports', 'ball', 'plays', 'athlete', 'court'],
  'Pets & Animals': ['pets', 'paws', 'pup', 'kitty', 'zoo'],
  Automotive: ['cars', 'drives', 'garage', 'revs', 'motors'],
  Outdoors: ['outdoors', 'trails', 'wild', 'camps', 'peaks'],
  Lifestyle: ['life', 'daily', 'vibes', 'world', 'diaries'],
  'Adult & Dating': ['xo', 'love', 'babe', 'heart', 'vip'],
};

/** Bio templates: {sub} sub-niche, {niche}, {place} city or country, {name} first name. */
export const BIO_TEMPLATES = [
  '{sub} creator based in {place}',
  '{niche} • {sub} • {place}',
  'Sharing my {sub_lower} journey one post at a time',
  '{sub} tips every week | {place}',
  '📍 {place} | {sub} | DM for collabs',
  "Hi, I'm {name}! {niche} lover from {place}",
  '{sub} | {niche} | business inquiries via email',
  'Your daily dose of {sub_lower} ✨',
];

/** Extra hashtags per platform, on top of the niche ones. */
export const PLATFORM_TAGS: Record<string, string[]> = {
  instagram: ['instagood', 'explore', 'reels', 'photooftheday'],
  youtube: ['shorts', 'youtube', 'subscribe', 'vlog'],
  tiktok: ['fyp', 'foryou', 'viral', 'tiktok'],
  twitch: ['twitch', 'live', 'streamer', 'ttv'],
  twitter: ['thread', 'news', 'opinion', 'trending'],
  onlyfans: ['exclusive', 'subscribe', 'content', 'linkinbio'],
};

/** Link-in-bio services; `{u}` is the username. The example.com one is a personal website. */
export const LINK_TEMPLATES = [
  'https://linktr.ee/{u}',
  'https://beacons.ai/{u}',
  'https://{u}.example.com',
  'https://www.patreon.com/{u}',
  'https://stan.store/{u}',
];

/** Cross-platform presence beyond the six Discovery platforms (for `creator_has`). */
export const OTHER_PLATFORMS = [
  'linktree',
  'patreon',
  'spotify',
  'discord',
  'snapchat',
  'pinterest',
  'facebook',
  'linkedin',
];
