import type { PlanRecord } from '../../lib/api/plan.js';
import { DryRunComplete } from '../../lib/errors.js';
import { redactUrl } from '../../lib/http/redact.js';
import type { Terminal } from '../../lib/io/terminal.js';
import type { OutputSettings } from '../../lib/output/types.js';

/**
 * A `--dry-run`'s plan: the free reads sent to check the run's input (`GET <url>`, from the HTTP
 * client), and the plan printed after them (by the money gate, or in place of a free read's answer).
 */
export class DryRunPlan {
  private readonly inputChecks: string[] = [];

  constructor(
    private readonly term: Terminal,
    /** Where the plan goes (`ctx.dryRunOutput()`). */
    private readonly output: () => Promise<OutputSettings>,
  ) {}

  /** A read sent to check the run's input, named by the plan printed after it. */
  inputChecked(req: { method: string; url: URL }): void {
    this.inputChecks.push(`${req.method} ${redactUrl(req.url.href)}`);
  }

  /** Prints a dry run's plan (stdout, or a free `-o`), naming the input checks sent before it. */
  async print(record: PlanRecord): Promise<void> {
    const { printPlan } = await import('../../lib/output/plan.js');
    const checks = [...this.inputChecks];
    await printPlan(this.term, await this.output(), checks.length > 0 ? { ...record, input_checks: checks } : record);
  }

  /**
   * `--dry-run` of a free read (`dict`, `keys list`, `events list`...): the read's plan is printed in place
   * of its answer and the run ends there (exit 0), having sent nothing. Reads a real run makes first to
   * check its input are sent instead (`inputChecked`), and named by the plan.
   */
  async freeRead(req: { method: string; url: URL }): Promise<never> {
    await this.print({
      dry_run: true,
      method: req.method,
      url: req.url.href,
      body: null,
      worst_case_credits: 0,
      cost_basis: 'free read',
    });
    throw new DryRunComplete(`${req.method} ${req.url.pathname}`);
  }
}
