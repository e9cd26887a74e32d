import type { Plan } from './api/plan.js';
import { planUrl } from './api/plan.js';
import { CreditsError, UsageError } from './errors.js';
import { redactValue } from './http/redact.js';
import type { Terminal } from './io/terminal.js';
import { creditCount } from './output/humanize.js';

/** Above this worst case (credits), an interactive run asks first; `confirm-above` changes it. */
export const DEFAULT_CONFIRM_ABOVE = 10;

/** What the money gate is told about the run, resolved once by the app (flag > env > profile). */
export interface MoneyPolicy {
  dryRun: boolean;
  /** `--max-credits` in thousandths; undefined when unset. */
  maxCreditsMilli: number | undefined;
  /** `confirm-above` in thousandths: a terminal run whose worst case is above it asks first. */
  confirmAboveMilli: number;
}

/** A plan as `--dry-run` prints it (json/jsonl as this record, text otherwise; lib/output/plan.ts). */
export interface PlanRecord {
  dry_run: true;
  method: string;
  url: string;
  body: unknown;
  worst_case_credits: number | null;
  cost_basis: string | null;
}

export interface GatePorts {
  term: Terminal;
  policy: MoneyPolicy;
  baseUrl: URL;
  /** Prints the dry run's plan through lib/output, on stdout in the format asked for (never to `-o`: a dry run writes no file). */
  printPlan(record: PlanRecord): Promise<void>;
}

/** `1234` -> `1.234`; trailing zeros trimmed. */
export function formatCredits(milli: number): string {
  return (milli / 1000).toFixed(3).replace(/\.?0+$/, '') || '0';
}

/** Parses a `--max-credits` value (the app picks flag > CREATORS_MAX_CREDITS > profile) into thousandths; undefined when unset. */
export function parseMaxCredits(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`Invalid --max-credits '${raw}': expected a number, 0 or more.`);
  return Math.round(n * 1000);
}

/** The `confirm-above` setting in thousandths (default 10 credits). */
export function parseConfirmAbove(raw: string | undefined): number {
  const threshold = raw === undefined ? DEFAULT_CONFIRM_ABOVE : Number(raw);
  return Math.round(threshold * 1000);
}

/**
 * The money gate every plan passes before it is sent: enforces `--max-credits` (exit 5, nothing sent;
 * an unknown worst case is refused under a budget), answers `--dry-run` by printing the plan, and on a
 * terminal asks before a run whose worst case is above `confirm-above`. True when the plan may be sent.
 */
export async function gate(ports: GatePorts, plan: Plan): Promise<boolean> {
  const budget = ports.policy.maxCreditsMilli;
  const url = planUrl(ports.baseUrl, plan);
  if (budget !== undefined && plan.worstCaseMilli === null && !ports.policy.dryRun) {
    // An unknown worst case is not a bounded one: under a budget, refuse rather than hope.
    throw new CreditsError(
      `The cost of ${plan.method} ${url.pathname} cannot be known in advance, so --max-credits ${formatCredits(budget)} cannot bound it; nothing was sent.`,
      { code: 'max_credits_unbounded', hint: 'Run it without --max-credits (and CREATORS_MAX_CREDITS unset) to send it anyway.' },
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

/**
 * On a terminal, a run whose worst case is above the threshold asks before sending (`--yes` answers).
 * Scripts are not asked: without a terminal, `--max-credits` is their guard.
 */
async function confirmExpensive(ports: GatePorts, plan: Plan): Promise<boolean> {
  const { term } = ports;
  if (term.yes || plan.worstCaseMilli === null || !term.interactive) return true;
  if (!(plan.worstCaseMilli > ports.policy.confirmAboveMilli)) return true;
  // The run buys its first page (within the threshold) and then asks with the real count (confirmRest):
  // a cap-based worst case 57 times too high would teach people to answer yes without reading.
  if (plan.confirmAfterFirstMilli !== undefined && plan.confirmAfterFirstMilli <= ports.policy.confirmAboveMilli) return true;
  const ok = await term.confirm(`This may cost up to ${creditCount(plan.worstCaseMilli)}${plan.costBasis ? ` (${plan.costBasis})` : ''}. Continue?`);
  if (!ok) term.notice('Nothing was sent.');
  return ok;
}

/** What a paging run knows after its first page, for `confirmRest`. */
export interface RestOfRun {
  /** The first request's price as the gate saw it (`Plan.confirmAfterFirstMilli`). */
  firstMilli: number;
  /** Spent so far (the first page). */
  spentMilli: number;
  /** The most the rest of the run can cost, from the real count. */
  restMilli: number;
  /** The question, e.g. `176 matches: 3 more pages, up to 1.26 credits more. Continue?`. */
  question: string;
}

/**
 * The question a paging run asks after its first page when the gate left it to the run
 * (`Plan.confirmAfterFirstMilli` within `confirm-above`): asked on a terminal, without `--yes`, when
 * what the whole run can cost (spent plus the rest, from the real count) is above the threshold.
 * True when the run may go on; "no" keeps what was bought.
 */
export async function confirmRest(ports: Pick<GatePorts, 'term' | 'policy'>, rest: RestOfRun): Promise<boolean> {
  const { term, policy } = ports;
  if (policy.dryRun || term.yes || !term.interactive) return true;
  // Above the threshold the gate asked before the first page already.
  if (rest.firstMilli > policy.confirmAboveMilli) return true;
  if (rest.restMilli <= 0 || !(rest.spentMilli + rest.restMilli > policy.confirmAboveMilli)) return true;
  return term.confirm(rest.question);
}
