/**
 * Prices as text, for what states them to a reader before anything is bought (the MCP tools' descriptions): the
 * worst case the plan builders budget with, so what is stated is never below what a run may charge.
 */
import { MODE_PRICE, type PriceKey, WORST_CASE_MILLI } from '../../contract/prices.js';
import { formatCredits } from '../words.js';

/** One price in credits: `0.03`. */
export function statedPrice(key: PriceKey): string {
  return formatCredits(WORST_CASE_MILLI[key]);
}

/** Each mode's price in the order given: `raw 0.03, full 1`. */
export function statedModePrices(modes: readonly (keyof typeof MODE_PRICE)[]): string {
  return modes.map((m) => `${m} ${statedPrice(MODE_PRICE[m])}`).join(', ');
}

/** The highest of the modes' prices: `2`. */
export function statedHighestModePrice(modes: readonly (keyof typeof MODE_PRICE)[]): string {
  return formatCredits(Math.max(...modes.map((m) => WORST_CASE_MILLI[MODE_PRICE[m]])));
}
