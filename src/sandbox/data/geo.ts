/**
 * Geography for the location dictionaries and the synthetic creators: countries (with the main
 * language and a weight for how many creators live there), states or regions, and cities.
 * Kept as compact `a|b|c` rows; dictionaries.ts turns them into entries.
 */

/** code|name|language abbr|creator weight */
export const COUNTRY_ROWS = `
US|United States|en|30;GB|United Kingdom|en|6;CA|Canada|en|4;AU|Australia|en|3;IE|Ireland|en|0.6;
NZ|New Zealand|en|0.6;IN|India|hi|7;BR|Brazil|pt|6;MX|Mexico|es|4;ES|Spain|es|2.5;AR|Argentina|es|1.5;
CO|Colombia|es|1.2;CL|Chile|es|0.7;PE|Peru|es|0.5;DE|Germany|de|3;AT|Austria|de|0.5;CH|Switzerland|de|0.5;
FR|France|fr|3;BE|Belgium|fr|0.6;IT|Italy|it|2.5;PT|Portugal|pt|0.7;NL|Netherlands|nl|1;SE|Sweden|sv|0.7;
NO|Norway|no|0.4;DK|Denmark|da|0.4;FI|Finland|fi|0.3;PL|Poland|pl|1;CZ|Czechia|cs|0.3;RO|Romania|ro|0.4;
GR|Greece|el|0.3;TR|Turkey|tr|1.5;UA|Ukraine|uk|0.6;RU|Russia|ru|2;IL|Israel|he|0.4;AE|United Arab Emirates|ar|0.7;
SA|Saudi Arabia|ar|0.8;EG|Egypt|ar|0.7;MA|Morocco|ar|0.4;NG|Nigeria|en|1;KE|Kenya|en|0.4;ZA|South Africa|en|0.8;
JP|Japan|ja|2;KR|South Korea|ko|1.5;CN|China|zh|1;TW|Taiwan|zh|0.4;HK|Hong Kong|zh|0.3;SG|Singapore|en|0.4;
MY|Malaysia|ms|0.6;ID|Indonesia|id|2.5;PH|Philippines|tl|1.5;TH|Thailand|th|1;VN|Vietnam|vi|0.8;PK|Pakistan|ur|0.8;
BD|Bangladesh|bn|0.4;HU|Hungary|hu|0.3;BG|Bulgaria|bg|0.2;HR|Croatia|hr|0.2;RS|Serbia|sr|0.2;VE|Venezuela|es|0.4`;

/** country code|name */
export const STATE_ROWS = `
US|Alabama;US|Alaska;US|Arizona;US|Arkansas;US|California;US|Colorado;US|Connecticut;US|Delaware;US|Florida;
US|Georgia;US|Hawaii;US|Idaho;US|Illinois;US|Indiana;US|Iowa;US|Kansas;US|Kentucky;US|Louisiana;US|Maine;
US|Maryland;US|Massachusetts;US|Michigan;US|Minnesota;US|Mississippi;US|Missouri;US|Montana;US|Nebraska;
US|Nevada;US|New Hampshire;US|New Jersey;US|New Mexico;US|New York;US|North Carolina;US|North Dakota;US|Ohio;
US|Oklahoma;US|Oregon;US|Pennsylvania;US|Rhode Island;US|South Carolina;US|South Dakota;US|Tennessee;US|Texas;
US|Utah;US|Vermont;US|Virginia;US|Washington;US|West Virginia;US|Wisconsin;US|Wyoming;CA|Ontario;CA|Quebec;
CA|British Columbia;CA|Alberta;CA|Manitoba;CA|Nova Scotia;AU|New South Wales;AU|Victoria;AU|Queensland;
AU|Western Australia;AU|South Australia;GB|England;GB|Scotland;GB|Wales;GB|Northern Ireland;IN|Maharashtra;
IN|Karnataka;IN|Tamil Nadu;IN|Delhi;IN|West Bengal;IN|Gujarat;BR|São Paulo;BR|Rio de Janeiro;BR|Minas Gerais;
BR|Bahia;MX|Jalisco;MX|Nuevo León;MX|Ciudad de México;DE|Bavaria;DE|Berlin;DE|North Rhine-Westphalia`;

/** country code|city|state (when the state is in STATE_ROWS) */
export const CITY_ROWS = `
US|New York|New York;US|Los Angeles|California;US|Chicago|Illinois;US|Houston|Texas;US|Phoenix|Arizona;US|Philadelphia|Pennsylvania;US|San Antonio|Texas;US|San Diego|California;
US|Dallas|Texas;US|Austin|Texas;US|San Francisco|California;US|Seattle|Washington;US|Denver|Colorado;US|Boston|Massachusetts;US|Nashville|Tennessee;US|Miami|Florida;US|Atlanta|Georgia;
US|Las Vegas|Nevada;US|Portland|Oregon;US|Detroit|Michigan;US|Minneapolis|Minnesota;US|New Orleans|Louisiana;US|Salt Lake City|Utah;US|Orlando|Florida;US|Charlotte|North Carolina;
US|Washington;US|Honolulu|Hawaii;US|Brooklyn|New York;GB|London|England;GB|Manchester|England;GB|Birmingham|England;GB|Liverpool|England;GB|Leeds|England;
GB|Glasgow|Scotland;GB|Edinburgh|Scotland;GB|Bristol|England;CA|Toronto|Ontario;CA|Vancouver|British Columbia;CA|Montreal|Quebec;CA|Calgary|Alberta;CA|Ottawa|Ontario;AU|Sydney|New South Wales;
AU|Melbourne|Victoria;AU|Brisbane|Queensland;AU|Perth|Western Australia;AU|Adelaide|South Australia;IE|Dublin;IE|Cork;NZ|Auckland;NZ|Wellington;IN|Mumbai|Maharashtra;
IN|Delhi|Delhi;IN|Bangalore|Karnataka;IN|Hyderabad;IN|Chennai|Tamil Nadu;IN|Kolkata|West Bengal;IN|Pune|Maharashtra;IN|Jaipur;BR|São Paulo|São Paulo;BR|Rio de Janeiro|Rio de Janeiro;
BR|Belo Horizonte|Minas Gerais;BR|Brasília;BR|Salvador|Bahia;BR|Curitiba;BR|Porto Alegre;MX|Mexico City|Ciudad de México;MX|Guadalajara|Jalisco;
MX|Monterrey|Nuevo León;MX|Cancún;MX|Puebla;ES|Madrid;ES|Barcelona;ES|Valencia;ES|Seville;ES|Málaga;AR|Buenos Aires;
AR|Córdoba;AR|Rosario;CO|Bogotá;CO|Medellín;CO|Cali;CL|Santiago;PE|Lima;DE|Berlin|Berlin;DE|Munich|Bavaria;DE|Hamburg;
DE|Cologne|North Rhine-Westphalia;DE|Frankfurt;AT|Vienna;CH|Zurich;CH|Geneva;FR|Paris;FR|Marseille;FR|Lyon;FR|Toulouse;FR|Nice;
FR|Bordeaux;BE|Brussels;BE|Antwerp;IT|Rome;IT|Milan;IT|Naples;IT|Turin;IT|Florence;PT|Lisbon;PT|Porto;
NL|Amsterdam;NL|Rotterdam;NL|Utrecht;SE|Stockholm;SE|Gothenburg;NO|Oslo;DK|Copenhagen;FI|Helsinki;
PL|Warsaw;PL|Kraków;CZ|Prague;RO|Bucharest;GR|Athens;TR|Istanbul;TR|Ankara;TR|Izmir;UA|Kyiv;RU|Moscow;
RU|Saint Petersburg;IL|Tel Aviv;AE|Dubai;AE|Abu Dhabi;SA|Riyadh;SA|Jeddah;EG|Cairo;MA|Casablanca;
NG|Lagos;NG|Abuja;KE|Nairobi;ZA|Johannesburg;ZA|Cape Town;JP|Tokyo;JP|Osaka;JP|Kyoto;KR|Seoul;KR|Busan;
CN|Shanghai;CN|Beijing;CN|Shenzhen;TW|Taipei;HK|Hong Kong;SG|Singapore;MY|Kuala Lumpur;ID|Jakarta;
ID|Bali;ID|Surabaya;PH|Manila;PH|Cebu;TH|Bangkok;TH|Chiang Mai;VN|Ho Chi Minh City;VN|Hanoi;PK|Karachi;
PK|Lahore;BD|Dhaka;HU|Budapest;BG|Sofia;HR|Zagreb;RS|Belgrade;VE|Caracas`;

/** abbr|English name: the languages dictionary and creators' `language`. */
export const LANGUAGE_ROWS = `
en|English;es|Spanish;pt|Portuguese;fr|French;de|German;it|Italian;nl|Dutch;sv|Swedish;no|Norwegian;
da|Danish;fi|Finnish;pl|Polish;cs|Czech;sk|Slovak;ro|Romanian;hu|Hungarian;el|Greek;bg|Bulgarian;
hr|Croatian;sr|Serbian;sl|Slovenian;uk|Ukrainian;ru|Russian;be|Belarusian;lt|Lithuanian;lv|Latvian;
et|Estonian;tr|Turkish;ar|Arabic;he|Hebrew;fa|Persian;ur|Urdu;hi|Hindi;bn|Bengali;pa|Punjabi;ta|Tamil;
te|Telugu;mr|Marathi;gu|Gujarati;kn|Kannada;ml|Malayalam;zh|Chinese;ja|Japanese;ko|Korean;th|Thai;
vi|Vietnamese;id|Indonesian;ms|Malay;tl|Tagalog;sw|Swahili;am|Amharic;yo|Yoruba;ha|Hausa;zu|Zulu;af|Afrikaans;
ca|Catalan;eu|Basque;gl|Galician;is|Icelandic;ga|Irish;cy|Welsh;sq|Albanian;mk|Macedonian;ka|Georgian;
hy|Armenian;az|Azerbaijani;kk|Kazakh;uz|Uzbek;ne|Nepali;si|Sinhala;km|Khmer;my|Burmese;lo|Lao;mn|Mongolian`;

/** Splits `a|b;c|d` rows into fields, ignoring blank rows and surrounding whitespace. */
export function rows(text: string): string[][] {
  return text
    .split(';')
    .map((row) => row.trim())
    .filter(Boolean)
    .map((row) => row.split('|').map((field) => field.trim()));
}
