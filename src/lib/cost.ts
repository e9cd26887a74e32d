import type { Plan, PlanRecord } from './api/plan.js';
import { planUrl } from './api/plan.js';
import { CreditsError } from './errors.js';
import { redactValue } from './http/redact.js';
import type { Terminal } from './io/terminal.js';
import { creditCount, formatCredits } from './words.js';

/** Above this worst case (credits), an interactive run asks first; `confirm-above` changes it. */
export const DEFAULT_CONFIRM_ABOVE = 10;

/** What the money gate is told about the run, resolved once by the app (flag > env > profile). */
export interface MoneyPolicy {
  dryRun: boolean;
  /** `--max-credits` in thousandths; undefined when unset. */
  maxCreditsMilli: number | undefined;
  confirmAboveMilli: number;
}

export interface GatePorts {
  term: Terminal;
  policy: MoneyPolicy;
  baseUrl: URL;
  /**
   * Prints the dry run's plan through lib/output, on stdout in the format asked for (never to `-o`: a dry run writes no
   * file).
   */
  printPlan(record: PlanRecord): Promise<void>;
}

/**
 * Parses a `--max-credits` value (the app picks flag > CREATORS_MAX_CREDITS > profile) into thousandths; undefined when
 * unset.
 */
export function parseConfirmAbove(raw: string | undefined): number {
  const threshold = raw === undefined ? DEFAULT_CONFIRM_ABOVE : Number(raw);
  return Math.round(threshold * 1000);
}

/** Every plan passes here before it is sent: `--max-credits` (exit 5), `--dry-run`, then `confirm-above`. */
export async function gate(ports: GatePorts, plan: Plan): Promise<boolean> {
  const budget = ports.policy.maxCreditsMilli;
  const url = planUrl(ports.baseUrl, plan);
  if (budget !== undefined && plan.worstCaseMilli === null && !ports.policy.dryRun) {
    // An unknown worst case is not a bounded one: under a budget, refuse rather than hope.
    throw new CreditsError(
      `The cost of ${plan.method} ${url.pathname} cannot be known in advance, so --max-credits ${formatCredits(budget)} cannot bound it; nothing was sent.`,
      {
        code: 'max_credits_unbounded',
        hint: 'Run it without --max-credits (and CREATORS_MAX_CREDITS unset) to send it anyway.',
      },
    );
  }
  if (budget !== undefined && plan.worstCaseMilli !== null && plan.worstCaseMilli > budget) {
    throw new CreditsError(
      `Worst-case cost ${creditCount(plan.worstCaseMilli)} exceeds --max-credits ${formatCredits(budget)}; nothing was sent.`,
      { code: 'max_credits_exceeded', hint: plan.costBasis ? `Cost basis: ${plan.costBasis}.` : undefined },
    );
  }
  if (!ports.policy.dryRun) return confirmExpensive(ports, plan);
  await ports.printPlan({
    dry_run: true,
    method: plan.method,
    url: url.href,
    body: plan.body === undefined ? null : redactValue(plan.body, 0, false),
    worst_case_credits: plan.worstCaseMilli === null ? null : plan.worstCaseMilli / 1000,
    cost_basis: plan.costBasis ?? null,
  });
  return false;
}

/** Scripts are not asked: without a terminal, `--max-credits` is their guard. */
async function confirmExpensive(ports: GatePorts, plan: Plan): Promise<boolean> {
  const { term } = ports;
  if (term.yes || plan.worstCaseMilli === null || !term.interactive) return true;
  if (!(plan.worstCaseMilli > ports.policy.confirmAboveMilli)) return true;
  // The run buys its first page (within the threshold) and then asks with the real count (confirmRest):
  // a cap-based worst case 57 times too high would teach people to answer yes without reading.
  if (plan.confirmAfterFirstMilli !== undefined && plan.confirmAfterFirstMilli <= ports.policy.confirmAboveMilli)
    return true;
  const ok = await term.confirm(
    `This may cost up to ${creditCount(plan.worstCaseMilli)}${plan.costBasis ? ` (${plan.costBasis})` : ''}. Continue?`,
  );
  if (!ok) term.notice('Nothing was sent.');
  return ok;
}

export interface RestOfRun {
  /** The first request's price as the gate saw it (`Plan.confirmAfterFirstMilli`). */
  firstMilli: number;
  spentMilli: number;
  restMilli: number;
  question: string;
}

/**
 * Asks when the whole run (spent plus the rest, from the real count) is above `confirm-above`; "no" keeps what was
 * bought.
 */
export async function confirmRest(ports: Pick<GatePorts, 'term' | 'policy'>, rest: RestOfRun): Promise<boolean> {
  const { term, policy } = ports;
  if (policy.dryRun || term.yes || !term.interactive) return true;
  // Above the threshold the gate asked before the first page already.
  if (rest.firstMilli > policy.confirmAboveMilli) return true;
  if (rest.restMilli <= 0 || !(rest.spentMilli + rest.restMilli > policy.confirmAboveMilli)) return true;
  return term.confirm(rest.question);
}
