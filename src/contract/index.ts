/** Plain data shared by the CLI and the sandbox: prices, limits, platforms, follower keys, filter types, event types. Imports nothing outside src/contract. */
export * from './events.js';
export * from './filters.js';
export * from './followers.js';
export * from './limits.js';
export * from './platforms.js';
export * from './prices.js';
