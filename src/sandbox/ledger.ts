/**
 * The credits ledger. Amounts are kept in integer thousandths of a credit ("milli") so that
 * 0.01 + 0.02 is exactly 0.03: prices in the spec go down to 0.01 and the ledger must never
 * drift. Convert to credits only when rendering a response.
 */
import { ApiError, type Reply } from './respond.js';

export interface Charge {
  /** ISO 8601 time of the charge (sandbox clock). */
  at: string;
  /** The route pattern that charged, e.g. `/public/v1/discovery/`. */
  route: string;
  milli: number;
  note: string;
}

export interface Ledger {
  balanceMilli: number;
  usedMilli: number;
  charges: Charge[];
}

/* Prices (what each route charges, in thousandths) are in src/contract/prices.ts: CHARGED_MILLI. */

/** Largest balance the sandbox holds: 10^9 credits is 10^12 thousandths, far inside exact integer range. */
export const MAX_CREDITS = 1_000_000_000;

/**
 * Why `value` cannot be a balance, or undefined when it can: a finite number from 0 to MAX_CREDITS
 * with at most three decimals (the ledger keeps whole thousandths, so nothing is rounded away).
 */
export function creditsProblem(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'Must be a finite number.';
  if (value < 0 || value > MAX_CREDITS) return `Must be between 0 and ${MAX_CREDITS} (1e9).`;
  const milli = value * 1000;
  if (Math.abs(milli - Math.round(milli)) > 1e-6)
    return 'At most three decimals (the ledger keeps thousandths of a credit).';
  return undefined;
}

/** Credits (possibly fractional) to thousandths, rounding away float noise. */
export function toMilli(credits: number): number {
  if (!Number.isFinite(credits)) throw new RangeError(`not a credit amount: ${credits}`);
  return Math.round(credits * 1000);
}

/** Thousandths to credits for rendering: at most 3 decimals, e.g. 30 -> 0.03. */
export function toCredits(milli: number): number {
  return milli / 1000;
}

export function createLedger(credits: number): Ledger {
  const problem = creditsProblem(credits);
  if (problem) throw new RangeError(`starting credits ${credits}: ${problem}`);
  return { balanceMilli: toMilli(credits), usedMilli: 0, charges: [] };
}

/** The part of the sandbox state the ledger works on (kept narrow: state.ts builds on this module). */
export interface LedgerHolder {
  ledger: Ledger;
  now(): number;
}

/** Sets the balance (a top-up or a reset), leaving the usage history alone. */
export function setCredits(state: LedgerHolder, credits: number): void {
  const problem = creditsProblem(credits);
  if (problem) throw new RangeError(`credits ${credits}: ${problem}`);
  state.ledger.balanceMilli = toMilli(credits);
}

export function canAfford(state: LedgerHolder, milli: number): boolean {
  return milli <= state.ledger.balanceMilli;
}

/**
 * The sandbox's answer when a billable request cannot be paid. The real status code is not
 * published (api-contract.md §2.2 finds no 402/403); 402 is the sandbox's choice.
 */
export function insufficientCredits(): Reply {
  return { status: 402, body: { error: 'Insufficient credits.', error_code: 'insufficient_credits' } };
}

/**
 * Charges `milli` for data a route is about to return. "Charge only when data is returned":
 * a zero amount records nothing. All or nothing: throws an ApiError(402) when the balance does
 * not cover it, so call it before building side effects you would have to undo.
 */
export function charge(state: LedgerHolder, route: string, milli: number, note = ''): Charge | undefined {
  if (!Number.isInteger(milli) || milli < 0) throw new RangeError(`charge must be whole thousandths: ${milli}`);
  if (milli === 0) return undefined;
  if (!canAfford(state, milli)) throw new ApiError(insufficientCredits());
  const entry: Charge = { at: new Date(state.now()).toISOString(), route, milli, note };
  state.ledger.balanceMilli -= milli;
  state.ledger.usedMilli += milli;
  state.ledger.charges.push(entry);
  return entry;
}
