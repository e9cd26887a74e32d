/**
 * The sandbox's own control surface under `/_sandbox/` (no auth, never on the real service):
 * inspect the ledger and change knobs from scripts and out-of-process tests. In-process tests can
 * use `configure(state, ...)` and `state.ledger` directly.
 */
import { parseJson } from '../body.js';
import { creditsProblem, toCredits } from '../ledger.js';
import { ApiError, fieldErrors, json, type FieldErrors } from '../respond.js';
import type { Router } from '../router.js';
import { configure, describeConfig, type ConfigPatch } from '../state.js';

type Check = (value: unknown) => string | undefined;

/** Every number has a documented range (README, "The sandbox as a server"): no Infinity, no 1e308. */
const intUpTo =
  (max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max
      ? undefined
      : `Must be an integer from 0 to ${max}.`;
const numberUpTo =
  (max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max
      ? undefined
      : `Must be a number from 0 to ${max}.`;
const boolean: Check = (v) => (typeof v === 'boolean' ? undefined : 'Must be a valid boolean.');

const SETTINGS: Record<keyof ConfigPatch, Check> = {
  rateLimit: intUpTo(1_000_000),
  credits: creditsProblem,
  trial: boolean,
  trialUsed: intUpTo(1_000_000),
  dailyDiscoveryLimit: numberUpTo(1_000_000_000),
  fairUseCap: intUpTo(1_000_000_000),
  pageBase: (v) => (v === 0 || v === 1 ? undefined : 'Must be 0 or 1.'),
};

/** Validates the whole patch before applying any of it. */
function parsePatch(body: unknown): ConfigPatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(fieldErrors(400, { non_field_errors: ['Expected a JSON object of settings.'] }));
  }
  const errors: FieldErrors = {};
  for (const [key, value] of Object.entries(body)) {
    const check = SETTINGS[key as keyof ConfigPatch] as Check | undefined;
    const problem = check ? check(value) : `Unknown setting. Known: ${Object.keys(SETTINGS).join(', ')}.`;
    if (problem) errors[key] = [problem];
  }
  if (Object.keys(errors).length > 0) throw new ApiError(fieldErrors(400, errors));
  return body as ConfigPatch;
}

export function register(router: Router): void {
  router.get('/_sandbox/ledger', ({ state }) =>
    json({
      balance: toCredits(state.ledger.balanceMilli),
      used: toCredits(state.ledger.usedMilli),
      balance_milli: state.ledger.balanceMilli,
      used_milli: state.ledger.usedMilli,
      charges: state.ledger.charges,
    }),
  );
  router.get('/_sandbox/config', ({ state }) => json(describeConfig(state)));
  // Read raw, as JSON: dispatch has already refused any other content type (a cross-site form post).
  router.post(
    '/_sandbox/config',
    ({ state, rawBody }) => {
      const parsed = parseJson(rawBody.length > 0 ? rawBody : Buffer.from('{}'));
      if (!parsed.ok) return parsed.reply;
      configure(state, parsePatch(parsed.body));
      return json(describeConfig(state));
    },
    { body: 'raw' },
  );
}
