import type { Budget, Plan } from '../../lib/api/plan.js';
import type { MoneyPolicy, RestOfRun } from '../../lib/cost.js';
import type { HttpClient } from '../../lib/http/client.js';
import type { Terminal } from '../../lib/io/terminal.js';
import type { Runway } from '../../lib/listening/runway.js';
import { parseCreditsMilli } from '../../lib/options.js';
import type { Deps } from '../deps.js';
import type { GlobalOptions } from '../global-options.js';
import type { ProfileConfig } from './config.js';
import type { DryRunPlan } from './dry-run.js';
import type { StorePort } from './store.js';

export interface MoneyParts {
  deps: Deps;
  globals: Pick<GlobalOptions, 'maxCredits'>;
  profileName: string;
  dryRun: boolean;
  term: Terminal;
  config: ProfileConfig;
  store: StorePort;
  plan: DryRunPlan;
  /** The run's client, for the runway warning's reads. */
  http(): Promise<HttpClient>;
}

/**
 * The money gate of the run (`ctx.money`): `--dry-run`, `--max-credits` (flag > env > profile), the
 * confirmation above `confirm-above`, the profile's budgets, and the runway warning after a paid run.
 */
export class MoneyGate {
  /** Set by `billed()`: this run charged monitoring. */
  private billedRun = false;
  /** The account's monitoring as a command last read it (balance, daily charge). */
  private knownRunway: Runway | undefined;

  constructor(private readonly parts: MoneyParts) {}

  /** The money policy of this run. */
  async policy(): Promise<MoneyPolicy> {
    const { parseConfirmAbove } = await import('../../lib/cost.js');
    const { deps, config } = this.parts;
    const flag = this.parts.globals.maxCredits;
    const raw =
      flag === undefined ? (deps.env.CREATORS_MAX_CREDITS ?? (await config.setting('max-credits'))) : undefined;
    return {
      dryRun: this.parts.dryRun,
      // The env and the setting are named as the flag, as they always were.
      maxCreditsMilli:
        flag !== undefined
          ? (flag ?? undefined)
          : raw === undefined || raw === ''
            ? undefined
            : parseCreditsMilli(raw, '--max-credits'),
      confirmAboveMilli: parseConfirmAbove(await config.setting('confirm-above')),
    };
  }

  /** The run's `--max-credits` as a paging plan takes it (the pages it pays for), or undefined when unset. */
  async budget(): Promise<Budget | undefined> {
    const milli = (await this.policy()).maxCreditsMilli;
    return milli === undefined ? undefined : { milli, named: '--max-credits' };
  }

  /** Passes a plan through the gate (a dry run's plan printed like data). True when the command may send it. */
  async gate(plan: Plan): Promise<boolean> {
    const { store, term, config } = this.parts;
    // A store setting that cannot be used stops a paid run before anything is sent.
    if (plan.worstCaseMilli !== 0) await store.check();
    const { gate } = await import('../../lib/cost.js');
    const go = await gate(
      {
        term,
        policy: await this.policy(),
        baseUrl: await config.baseUrl(),
        // The plan printer is loaded only by a dry run.
        printPlan: (record) => this.parts.plan.print(record),
      },
      plan,
    );
    if (go && plan.worstCaseMilli !== 0) await this.reserveBudget(plan);
    return go;
  }

  /** After a paging run's first page, the question with the real count (lib/cost.ts `confirmRest`). */
  async confirmRest(rest: RestOfRun): Promise<boolean> {
    const { confirmRest } = await import('../../lib/cost.js');
    return confirmRest({ term: this.parts.term, policy: await this.policy() }, rest);
  }

  /**
   * The profile's `daily-budget` and `monthly-budget`: the plan's worst case is checked against the
   * period's logged spend plus what other live runs reserved, and reserved, in one store transaction
   * (lib/store). Refused: exit 5, nothing sent.
   */
  private async reserveBudget(plan: Plan): Promise<void> {
    const { config, store, term } = this.parts;
    const [daily, monthly] = [await config.setting('daily-budget'), await config.setting('monthly-budget')];
    if (daily === undefined && monthly === undefined) return;
    const memory = await store.memory();
    if (!memory) {
      term.warn(
        'Budgets (daily-budget, monthly-budget) are not enforced with --no-store: this run is not counted against them.',
      );
      return;
    }
    const { reserveBudget } = await import('../../lib/store/budget.js');
    await reserveBudget(memory, {
      profile: this.parts.profileName,
      now: memory.now(),
      worstMilli: plan.worstCaseMilli,
      daily,
      monthly,
    });
  }

  /** A change that charged monitoring, with the account's monitoring after it (reused by the runway warning). */
  billed(after?: Runway): void {
    this.billedRun = true;
    if (after) this.knownRunway = after;
  }

  /**
   * The one place every paid run's terminal summary gets its runway warning: after a command that spent
   * (its answers logged by the purchase memory, or a monitoring charge), on a terminal, when the balance
   * covers fewer days of the daily monitoring charge than `runway-warn-days` (default 7; 0 turns it off).
   * Two free reads (credits, listening usage) unless the command already made them; a failed read says
   * nothing. Never throws.
   */
  async runwaySummary(): Promise<void> {
    const { term, store, config } = this.parts;
    if (this.parts.dryRun || term.quiet || !term.stderrIsTTY) return;
    try {
      const memory = await store.madeMemory();
      if (!this.billedRun && !(memory !== undefined && memory.spentMilli > 0)) return;
      const { DEFAULT_RUNWAY_WARN_DAYS, readRunway, runwayWarning } = await import('../../lib/listening/runway.js');
      const warnDays = await config.number(
        undefined,
        'runway-warn-days',
        DEFAULT_RUNWAY_WARN_DAYS,
        'runway-warn-days setting',
      );
      if (warnDays <= 0) return;
      const runway = this.knownRunway ?? (await readRunway(await this.parts.http()));
      const line = runwayWarning(runway, warnDays);
      if (line) term.warn(line);
    } catch {
      // The warning is advice: a failed read must not turn a finished run into an error.
    }
  }
}
