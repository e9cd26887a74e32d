import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../lib/errors.js';
import { unicodeAllowed } from '../../lib/io/charset.js';
import type { Terminal } from '../../lib/io/terminal.js';
import { matchChoice } from '../../lib/options.js';
import { askedFormat, errorFormat, resolveOutputSettings } from '../../lib/output/settings.js';
import { FORMATS, type Format, type OutputSettings } from '../../lib/output/types.js';
import type { Deps } from '../deps.js';
import type { GlobalOptions } from '../global-options.js';
import type { ProfileConfig } from './config.js';
import { colourAllowed } from './terminal.js';

/**
 * The run's output settings (`ctx.output()`), decided once in lib/output/settings.ts: flag > `-o`
 * extension > env > profile > terminal; and where a dry run's plan goes (`ctx.dryRunOutput()`).
 */
export class OutputChoice {
  private settingsPromise: Promise<OutputSettings> | undefined;
  private dryRunNoticed = false;

  constructor(
    private readonly deps: Deps,
    private readonly globals: GlobalOptions,
    private readonly term: Terminal,
    private readonly config: ProfileConfig,
  ) {}

  settings(): Promise<OutputSettings> {
    if (this.settingsPromise) return this.settingsPromise;
    const decided = this.decide();
    this.settingsPromise = decided;
    // Kept only once decided: a refused combination is refused again on the next ask.
    decided.catch(() => {
      if (this.settingsPromise === decided) this.settingsPromise = undefined;
    });
    return decided;
  }

  private async decide(): Promise<OutputSettings> {
    const g = this.globals;
    const env = this.deps.env;
    const term = this.term;
    if (g.json && g.format !== undefined && matchChoice(g.format, FORMATS) !== 'json') {
      throw new UsageError(`--json and --format ${g.format} ask for two formats.`, { hint: 'Keep one of them.' });
    }
    // The profile is read only when nothing before it decided the format.
    const asked = askedFormat({ json: g.json, format: g.format, output: g.output, envFormat: env.CREATORS_FORMAT });
    const settings = resolveOutputSettings({
      json: g.json,
      format: g.format,
      fields: g.fields,
      output: g.output,
      envFormat: env.CREATORS_FORMAT,
      profileFormat: asked === undefined ? await this.config.setting('format') : undefined,
      stdoutIsTTY: term.stdoutIsTTY,
      color: colourAllowed(g, env),
      unicode: unicodeAllowed(env, this.deps.platform ?? process.platform),
      quiet: term.quiet,
      cwd: this.deps.cwd,
      csvSafe: g.csvSafe,
      bom: g.bom,
      profileCsvSafe: g.csvSafe === undefined ? await this.config.setting('csv-safe') : undefined,
      profileBom: g.bom === undefined ? await this.config.setting('bom') : undefined,
      named: { fields: '--fields' },
    });
    // Long output on a terminal is paged (flag > CREATORS_PAGER > profile > PAGER > less); never to a file or a pipe.
    if (this.deps.startPager !== undefined && term.stdoutIsTTY && g.pager !== false) {
      const { choosePager } = await import('../../lib/output/pager.js');
      settings.pager = choosePager({
        stdoutIsTTY: term.stdoutIsTTY,
        toFile: settings.outputPath !== undefined,
        flag: g.pager,
        env,
        setting: env.CREATORS_PAGER === undefined ? await this.config.setting('pager') : undefined,
        start: this.deps.startPager,
      });
    }
    return settings;
  }

  /**
   * Where a dry run prints its plan. The contract gives it to `-o` when that path is free (a plan is
   * not data, and nothing else is written). An existing target is left exactly as it is: it may hold a
   * stopped run's paid records (the resume journal's partial output), so the plan goes to stdout
   * instead, in the format asked for, and a notice says so.
   */
  async forDryRun(): Promise<OutputSettings> {
    const settings = await this.settings();
    const target = settings.outputPath;
    if (target === undefined || target === '-' || !existsSync(resolve(this.deps.cwd, target))) return settings;
    if (!this.dryRunNoticed)
      this.term.notice(
        `Dry run: ${this.globals.output ?? target} exists and was left unchanged; the plan is on standard output.`,
      );
    this.dryRunNoticed = true;
    return { ...settings, outputPath: undefined };
  }
}

/**
 * The format the user asked for explicitly (flag or env), known without opening the config file; used
 * for error printing: errors are JSON only when JSON was asked for, not merely because stdout is a pipe.
 */
export function errorFormatAsked(globals: GlobalOptions, env: Record<string, string | undefined>): Format | undefined {
  return errorFormat({ json: globals.json, format: globals.format, envFormat: env.CREATORS_FORMAT });
}
