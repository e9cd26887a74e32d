/**
 * How counts and credits are written in every message, at every layer: the API layer's plans, the gate and
 * the printers say `1,234`, `1 credit` and `0.5 credits` the same way.
 */

/** `1,234`, as every message writes numbers; a string is already written (an exact big number). */
export function countText(count: number | string): string {
  return typeof count === 'number' ? count.toLocaleString('en-US', { maximumFractionDigits: 3 }) : count;
}

/** The one rule for every count printed to people: singular for exactly one (`0.5 credits`). */
export function plural(count: number | string, singular: string, pluralForm = `${singular}s`): string {
  const text = countText(count);
  const one = typeof count === 'number' ? count === 1 : /^1(\.0*)?$/.test(count.trim());
  return `${text} ${one ? singular : pluralForm}`;
}

/** Thousandths of a credit as a count of credits (`0.5 credits`). */
export function creditCount(milli: number): string {
  return plural(Math.round(milli) / 1000, 'credit');
}

/** Thousandths of a credit as a bare figure (`0.5`), as `--max-credits` is written. */
export function formatCredits(milli: number): string {
  return (milli / 1000).toFixed(3).replace(/\.?0+$/, '') || '0';
}
