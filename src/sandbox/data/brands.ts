/**
 * Brands for the `brands` dictionary, the audience brand names and the creators' partnerships:
 * a set of well-known brands plus a few hundred made-up ones built from word lists, so that
 * paging and search have something to chew on. Static: the same for every seed.
 */
import { rows } from './geo.js';

export interface Brand {
  /** The brand's social handle, lowercase. */
  username: string;
  /** Display name. */
  name: string;
  /** Normalised name: lowercase, punctuation removed, single spaces. */
  cleaned_name: string;
  category: string;
}

/** handle|display name|category */
const KNOWN_BRANDS = `
nike|Nike|Activewear;adidas|adidas|Activewear;puma|PUMA|Activewear;lululemon|lululemon|Activewear;
gymshark|Gymshark|Activewear;underarmour|Under Armour|Activewear;newbalance|New Balance|Apparel & Footwear;
zara|ZARA|Apparel & Footwear;hm|H&M|Apparel & Footwear;uniqlo|UNIQLO|Apparel & Footwear;levis|Levi's|Apparel & Footwear;
shein_official|SHEIN|Apparel & Footwear;gucci|Gucci|Luxury Goods;louisvuitton|Louis Vuitton|Luxury Goods;
chanelofficial|CHANEL|Luxury Goods;prada|Prada|Luxury Goods;dior|Dior|Luxury Goods;hermes|Hermès|Luxury Goods;
rolex|Rolex|Jewellery & Watches;cartier|Cartier|Jewellery & Watches;pandora_jewelry|Pandora|Jewellery & Watches;
sephora|Sephora|Beauty & Cosmetics;fentybeauty|Fenty Beauty|Beauty & Cosmetics;glossier|Glossier|Beauty & Cosmetics;
maccosmetics|MAC Cosmetics|Beauty & Cosmetics;narsissist|NARS|Beauty & Cosmetics;theordinary|The Ordinary|Beauty & Cosmetics;
cerave|CeraVe|Beauty & Cosmetics;loreal|L'Oréal Paris|Beauty & Cosmetics;maybelline|Maybelline|Beauty & Cosmetics;
rarebeauty|Rare Beauty|Beauty & Cosmetics;elfcosmetics|e.l.f. Cosmetics|Beauty & Cosmetics;apple|Apple|Electronics & Computers;
samsung|Samsung|Electronics & Computers;sony|Sony|Electronics & Computers;logitechg|Logitech G|Gaming;razer|Razer|Gaming;
corsair|CORSAIR|Gaming;steelseries|SteelSeries|Gaming;playstation|PlayStation|Gaming;xbox|Xbox|Gaming;nintendo|Nintendo|Gaming;
gopro|GoPro|Camera & Photography;canonusa|Canon|Camera & Photography;dji_official|DJI|Camera & Photography;
starbucks|Starbucks|Coffee, Tea & Beverages;redbull|Red Bull|Coffee, Tea & Beverages;cocacola|Coca-Cola|Coffee, Tea & Beverages;
monsterenergy|Monster Energy|Coffee, Tea & Beverages;heineken|Heineken|Beer, Wine & Spirits;mcdonalds|McDonald's|Restaurants & Fast Food;
chipotle|Chipotle|Restaurants & Fast Food;wendys|Wendy's|Restaurants & Fast Food;hellofresh|HelloFresh|Food & Grocery;
tesla|Tesla|Cars & Motorbikes;bmw|BMW|Cars & Motorbikes;mercedesbenz|Mercedes-Benz|Cars & Motorbikes;porsche|Porsche|Cars & Motorbikes;
airbnb|Airbnb|Travel, Tourism & Aviation;booking.com|Booking.com|Travel, Tourism & Aviation;emirates|Emirates|Travel, Tourism & Aviation;
ikea|IKEA|Home Decor, Furniture & Garden;target|Target|Shopping & Retail;amazon|Amazon|Shopping & Retail;walmart|Walmart|Shopping & Retail;
spotify|Spotify|Media & Publishing;netflix|Netflix|Entertainment;disney|Disney|Entertainment;canva|Canva|Software & Apps;
squarespace|Squarespace|Software & Apps;nordvpn|NordVPN|Software & Apps;skillshare|Skillshare|Software & Apps;
audible|Audible|Media & Publishing;athleticgreens|AG1|Supplements;myprotein|Myprotein|Supplements;chewy|Chewy|Pets;
lego|LEGO|Toys, Children & Baby;revolut|Revolut|Financial Services`;

const PREFIXES = [
  'Lumen',
  'Northpeak',
  'Velvet',
  'Copper',
  'Bright',
  'Wild',
  'Urban',
  'Blue',
  'Golden',
  'Atlas',
  'Nova',
  'Pine',
  'Solstice',
  'Coral',
  'Ember',
  'Harbor',
  'Juniper',
  'Maple',
  'Orbit',
  'Prism',
  'Quartz',
  'Ridge',
  'Sage',
  'Tidal',
  'Vivid',
  'Willow',
  'Zephyr',
  'Cedar',
  'Echo',
  'Fable',
];

/** suffix|category */
const SUFFIXES = rows(`
Coffee Co.|Coffee, Tea & Beverages;Beauty|Beauty & Cosmetics;Skincare|Beauty & Cosmetics;Athletics|Activewear;
Outfitters|Apparel & Footwear;Nutrition Labs|Supplements;Audio|Electronics & Computers;Pet Supply|Pets;
Home|Home Decor, Furniture & Garden;Games|Gaming;Jewelry|Jewellery & Watches;Kitchen|Food & Grocery;
Travel|Travel, Tourism & Aviation;Money|Financial Services`);

/** Lowercase, accents and punctuation removed, single spaces: "L'Oréal Paris" -> "loreal paris". */
export function cleanName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’.]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function buildBrands(): Brand[] {
  const out: Brand[] = rows(KNOWN_BRANDS).map(([username = '', name = '', category = '']) => ({
    username,
    name,
    cleaned_name: cleanName(name),
    category,
  }));
  // Made-up brands: a fixed two-in-three selection of prefix x suffix, so the list is stable.
  PREFIXES.forEach((prefix, i) => {
    SUFFIXES.forEach(([suffix = '', category = ''], j) => {
      if ((i * 7 + j * 5) % 3 === 0) return;
      const name = `${prefix} ${suffix}`;
      out.push({ username: cleanName(name).replace(/ /g, ''), name, cleaned_name: cleanName(name), category });
    });
  });
  return out;
}

export const BRANDS: readonly Brand[] = buildBrands();
