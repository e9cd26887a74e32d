/**
 * Raw catalogues behind the dictionaries: Twitch games, YouTube topics, niches with their
 * sub-niches, audience interests and brand categories. Compact `a|b` rows, split by geo.rows().
 */

/** name|genre|release year|publisher */
export const GAME_ROWS = `
Just Chatting|Non-game|2018|Twitch;Grand Theft Auto V|Action-adventure|2013|Rockstar Games;
League of Legends|MOBA|2009|Riot Games;VALORANT|Shooter|2020|Riot Games;Counter-Strike 2|Shooter|2023|Valve;
Fortnite|Battle royale|2017|Epic Games;Minecraft|Sandbox|2011|Mojang Studios;Apex Legends|Battle royale|2019|Electronic Arts;
Call of Duty: Warzone|Battle royale|2020|Activision;Dota 2|MOBA|2013|Valve;World of Warcraft|MMORPG|2004|Blizzard Entertainment;
Overwatch 2|Shooter|2022|Blizzard Entertainment;Hearthstone|Card game|2014|Blizzard Entertainment;
Diablo IV|Action RPG|2023|Blizzard Entertainment;Rocket League|Sports|2015|Psyonix;EA Sports FC 24|Sports|2023|Electronic Arts;
NBA 2K24|Sports|2023|2K;Madden NFL 24|Sports|2023|Electronic Arts;Dead by Daylight|Horror|2016|Behaviour Interactive;
Rust|Survival|2018|Facepunch Studios;ARK: Survival Evolved|Survival|2017|Studio Wildcard;DayZ|Survival|2018|Bohemia Interactive;
Escape from Tarkov|Shooter|2017|Battlestate Games;PUBG: Battlegrounds|Battle royale|2017|Krafton;
Rainbow Six Siege|Shooter|2015|Ubisoft;Destiny 2|Shooter|2017|Bungie;The Elder Scrolls Online|MMORPG|2014|Bethesda;
Final Fantasy XIV Online|MMORPG|2013|Square Enix;Lost Ark|MMORPG|2019|Smilegate;Old School RuneScape|MMORPG|2013|Jagex;
Path of Exile|Action RPG|2013|Grinding Gear Games;Elden Ring|Action RPG|2022|FromSoftware;Dark Souls III|Action RPG|2016|FromSoftware;
Baldur's Gate 3|RPG|2023|Larian Studios;Cyberpunk 2077|RPG|2020|CD Projekt;The Witcher 3: Wild Hunt|RPG|2015|CD Projekt;
Starfield|RPG|2023|Bethesda;Skyrim|RPG|2011|Bethesda;Fallout 4|RPG|2015|Bethesda;Hogwarts Legacy|RPG|2023|Warner Bros. Games;
Genshin Impact|Action RPG|2020|HoYoverse;Honkai: Star Rail|RPG|2023|HoYoverse;Pokémon Scarlet and Violet|RPG|2022|Nintendo;
The Legend of Zelda: Tears of the Kingdom|Action-adventure|2023|Nintendo;Super Mario Bros. Wonder|Platformer|2023|Nintendo;
Super Smash Bros. Ultimate|Fighting|2018|Nintendo;Street Fighter 6|Fighting|2023|Capcom;Tekken 8|Fighting|2024|Bandai Namco;
Mortal Kombat 1|Fighting|2023|Warner Bros. Games;Resident Evil 4|Horror|2023|Capcom;Phasmophobia|Horror|2020|Kinetic Games;
Lethal Company|Horror|2023|Zeekerss;Five Nights at Freddy's|Horror|2014|Scott Cawthon;Among Us|Party|2018|Innersloth;
Fall Guys|Party|2020|Epic Games;Jackbox Party Packs|Party|2014|Jackbox Games;Roblox|Sandbox|2006|Roblox Corporation;
Terraria|Sandbox|2011|Re-Logic;Stardew Valley|Simulation|2016|ConcernedApe;The Sims 4|Simulation|2014|Electronic Arts;
Microsoft Flight Simulator|Simulation|2020|Xbox Game Studios;Euro Truck Simulator 2|Simulation|2012|SCS Software;
Farming Simulator 22|Simulation|2021|Giants Software;Cities: Skylines II|Strategy|2023|Paradox Interactive;
Civilization VI|Strategy|2016|2K;Age of Empires IV|Strategy|2021|Xbox Game Studios;StarCraft II|Strategy|2010|Blizzard Entertainment;
Teamfight Tactics|Auto battler|2019|Riot Games;Hades|Roguelike|2020|Supergiant Games;The Binding of Isaac|Roguelike|2011|Edmund McMillen;
Balatro|Roguelike|2024|Playstack;Slay the Spire|Roguelike|2019|Mega Crit;Vampire Survivors|Roguelike|2022|poncle;
Hollow Knight|Metroidvania|2017|Team Cherry;Celeste|Platformer|2018|Maddy Makes Games;Geometry Dash|Platformer|2013|RobTop Games;
Getting Over It|Platformer|2017|Bennett Foddy;Chess|Board game|1475|Various;Poker|Card game|1829|Various;Slots|Casino|1895|Various;
Sea of Thieves|Action-adventure|2018|Xbox Game Studios;Red Dead Redemption 2|Action-adventure|2018|Rockstar Games;
Palworld|Survival|2024|Pocketpair;Valheim|Survival|2021|Iron Gate;Sons of the Forest|Survival|2023|Endnight Games;
Subnautica|Survival|2018|Unknown Worlds;Helldivers 2|Shooter|2024|Sony Interactive;Halo Infinite|Shooter|2021|Xbox Game Studios;
Team Fortress 2|Shooter|2007|Valve;Left 4 Dead 2|Shooter|2009|Valve;Garry's Mod|Sandbox|2006|Valve;
osu!|Rhythm|2007|ppy;Beat Saber|Rhythm|2019|Beat Games;Art|Non-game|2018|Twitch;Music|Non-game|2018|Twitch;
Software and Game Development|Non-game|2018|Twitch;Sports|Non-game|2018|Twitch;Travel & Outdoors|Non-game|2018|Twitch;
Food & Drink|Non-game|2018|Twitch;ASMR|Non-game|2018|Twitch;Talk Shows & Podcasts|Non-game|2018|Twitch;
Retro|Non-game|2018|Twitch;Special Events|Non-game|2018|Twitch;Pools, Hot Tubs, and Beaches|Non-game|2021|Twitch`;

/** topic: sub-topic, sub-topic, ... (rows separated by ';') */
export const YT_TOPIC_ROWS = `
Music: Christian music, Classical music, Country, Electronic music, Hip hop music, Independent music, Jazz, Music of Asia, Music of Latin America, Pop music, Reggae, Rhythm and blues, Rock music, Soul music;
Gaming: Action game, Action-adventure game, Casual game, Music video game, Puzzle video game, Racing video game, Role-playing video game, Simulation video game, Sports game, Strategy video game;
Sports: American football, Baseball, Basketball, Boxing, Cricket, Association football, Golf, Ice hockey, Mixed martial arts, Motorsport, Professional wrestling, Tennis, Volleyball;
Entertainment: Humor, Movies, Performing arts, Television program;
Lifestyle: Fashion, Fitness, Food, Hobby, Pets, Physical attractiveness, Technology, Tourism, Vehicles;
Society: Business, Health, Military, Politics, Religion;
Knowledge: Education, Science, History, Personal finance`;

/** niche: sub-niche, sub-niche, ... (rows separated by ';') */
export const NICHE_ROWS = `
Beauty: Makeup, Skincare, Haircare, Nail art, Fragrance, Clean beauty;
Fashion: Streetwear, Luxury fashion, Sustainable fashion, Modest fashion, Menswear, Plus-size fashion, Thrifting;
Fitness: Bodybuilding, Yoga, Running, CrossFit, Pilates, Home workouts, Calisthenics;
Health & Wellness: Nutrition, Mental health, Meditation, Sleep, Holistic health;
Food & Drink: Recipes, Baking, Vegan food, Restaurant reviews, Coffee, Cocktails, Street food;
Travel: Budget travel, Luxury travel, Van life, Backpacking, Travel photography, Digital nomad;
Gaming: Esports, Game reviews, Speedrunning, Retro gaming, Mobile gaming, Let's plays;
Technology: Gadget reviews, Software development, Artificial intelligence, PC building, Smartphones;
Parenting & Family: Motherhood, Fatherhood, Pregnancy, Homeschooling, Family vlogs;
Home & Garden: Interior design, DIY, Gardening, Home organization, Real estate;
Business & Finance: Personal finance, Investing, Cryptocurrency, Entrepreneurship, Marketing;
Education: Language learning, Science communication, History, Study tips, Mathematics;
Music: Singers, Producers, DJs, Guitar, Music covers, Hip hop;
Art & Design: Illustration, Photography, Tattoo art, Graphic design, Digital art, Ceramics;
Entertainment: Comedy, Pranks, Movie reviews, Celebrity news, Anime, Cosplay;
Sports: Football, Basketball, Tennis, Golf, Combat sports, Cycling, Extreme sports;
Pets & Animals: Dogs, Cats, Exotic pets, Wildlife, Horses;
Automotive: Car reviews, Motorcycles, Car modification, Electric vehicles;
Outdoors: Hiking, Camping, Fishing, Hunting, Climbing;
Lifestyle: Daily vlogs, Minimalism, Self-improvement, Luxury lifestyle, Relationships;
Adult & Dating: Dating advice, Glamour modeling, Boudoir, Fan subscriptions`;

/** Audience interests (values for `audience.interests`). */
export const AUDIENCE_INTEREST_NAMES = `
Activewear;Art & Design;Beauty & Cosmetics;Beer, Wine & Spirits;Books;Business & Careers;Camera & Photography;
Cars & Motorbikes;Clothes, Shoes, Handbags & Accessories;Coffee, Tea & Beverages;Education;Electronics & Computers;
Family;Fashion;Fitness & Yoga;Friends, Family & Relationships;Gaming;Healthcare & Medicine;Healthy Lifestyle;
Home Decor, Furniture & Garden;Jewellery & Watches;Luxury Goods;Music;Pets;Politics;Real Estate;
Restaurants, Food & Grocery;Shopping & Retail;Sports;Television & Film;Tobacco & Smoking;Toys, Children & Baby;
Travel, Tourism & Aviation;Wedding;Anime & Comics;Cryptocurrency;Outdoor & Camping;Science;Dance;Comedy`;

/** Brand categories (values for `audience.brand_categories`; also each brand's category). */
export const BRAND_CATEGORY_NAMES = `
Activewear;Apparel & Footwear;Beauty & Cosmetics;Beer, Wine & Spirits;Camera & Photography;Cars & Motorbikes;
Clothes, Shoes, Handbags & Accessories;Coffee, Tea & Beverages;Electronics & Computers;Entertainment;
Financial Services;Fitness & Yoga;Food & Grocery;Gaming;Healthcare & Medicine;Home Decor, Furniture & Garden;
Jewellery & Watches;Luxury Goods;Media & Publishing;Pets;Restaurants & Fast Food;Shopping & Retail;
Software & Apps;Sports Equipment;Telecommunications;Toys, Children & Baby;Travel, Tourism & Aviation;Supplements`;
