import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plan } from '../lib/api/plan.js';
import { cleanApiKey } from './api-key-source.js';
import type { SessionPorts } from '../lib/auth/session.js';
import { checkProfileName, configDirectory, type ConfigStore } from '../lib/config.js';
import type { MoneyPolicy } from '../lib/cost.js';
import type { PlanRecord } from '../lib/api/plan.js';
import { DryRunComplete, UsageError } from '../lib/errors.js';
import { matchChoice, parseCreditsMilli, parseRetries, parseTimeoutSeconds } from '../lib/options.js';
import { checkPlatform } from '../lib/platforms.js';
import type { HttpClient } from '../lib/http/client.js';
import { redactUrl } from '../lib/http/redact.js';
import { DEFAULT_BASE_URL, parseBaseUrl } from '../lib/http/url.js';
import { cursorAllowed, unicodeAllowed } from '../lib/io/charset.js';
import { Terminal } from '../lib/io/terminal.js';
import { askedFormat, errorFormat, resolveOutputSettings } from '../lib/output/settings.js';
import { FORMATS, type Format, type OutputSettings } from '../lib/output/types.js';
import type { Deps } from './deps.js';
import type { Runway } from '../lib/listening/runway.js';
import { StorePort } from './store.js';

/**
 * The global options of the contract, as commander hands them over (camelCase), the numbers read
 * (program.ts's `GLOBAL_VALUES`, before the verb runs).
 */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  apiKeyFile?: string;
  profile?: string;
  format?: string;
  json?: boolean;
  /** `--fields`: the dot paths in order (program.ts's `GLOBAL_VALUES`). */
  fields?: string[];
  output?: string;
  quiet?: boolean;
  csvSafe?: boolean;
  bom?: boolean;
  /** False with `--no-pager`. */
  pager?: boolean;
  color?: boolean;
  debug?: boolean;
  /** `--timeout <s>`: seconds. */
  timeout?: number;
  retries?: number;
  dryRun?: boolean;
  /** `--max-credits <n>` in thousandths of a credit; null when given empty (no budget, whatever the env says). */
  maxCredits?: number | null;
  /** `--max-age <duration>` in ms: reuse answers bought within it (0: buy fresh); null when given empty (the defaults). */
  maxAge?: number | null;
  /** False with `--no-store`. */
  store?: boolean;
  yes?: boolean;
}

export type CredentialSource = 'flag' | 'file' | 'env' | 'profile' | 'login';

export interface ResolvedCredential {
  value: string;
  source: CredentialSource;
  kind: 'api-key' | 'oauth';
  /** Access-token expiry (ms since epoch) for OAuth credentials. */
  expiresAt?: number | undefined;
}

/**
 * The composition root: what every command receives. The injected deps plus the global options
 * resolved once (flag > environment > profile config > default), and the run's shared members: the
 * terminal object, the HTTP client, the purchase store (store.ts), the money gate. Costly members
 * (config store, HTTP client, store) are built on first use, so `--help` and argument errors never
 * load conf or undici. Workflows get their ports from ports.ts; nothing in `src/lib` sees this class.
 */
export class Context {
  /** The terminal object: streams, TTY-ness, colour, notices, spinner, progress, prompts, input, what is live on screen. */
  readonly term: Terminal;
  readonly profileName: string;
  readonly dryRun: boolean;
  /** The profile's purchase store (src/app/store.ts): opened by the first purchase, closed by `close()`. */
  readonly store: StorePort;
  private configPromise: Promise<ConfigStore> | undefined;
  private configFileSeen: boolean | undefined;
  private httpPromise: Promise<HttpClient> | undefined;
  private apiKeyFromFile: Promise<string> | undefined;
  private outputSettings: OutputSettings | undefined;
  /** `--dry-run`: the free reads sent to check the run's input (`GET <url>`), named by the plan printed after them. */
  private readonly inputChecks: string[] = [];
  /** Set by `billed()`: this run charged monitoring. */
  private billedRun = false;
  /** The account's monitoring as a command last read it (balance, daily charge). */
  private knownRunway: Runway | undefined;
  /** The command being run (`enrich handle`), for the spend log; set by program.ts. */
  command = '';

  constructor(
    readonly deps: Deps,
    readonly globals: GlobalOptions,
  ) {
    const env = deps.env;
    // An empty CREATORS_PROFILE is unset, as for the other variables; an empty --profile is refused (checkProfile).
    this.profileName = globals.profile ?? (env.CREATORS_PROFILE || undefined) ?? 'default';
    this.dryRun = Boolean(globals.dryRun);
    this.term = new Terminal(deps.io, {
      quiet: Boolean(globals.quiet),
      color: colourAllowed(globals, env),
      debug: Boolean(globals.debug) || env.CREATORS_DEBUG === '1' || env.CREATORS_DEBUG === 'true',
      yes: Boolean(globals.yes),
      cwd: deps.cwd,
      secrets: deps.secrets,
      waitSpinnerDelayMs: deps.waitSpinnerDelayMs,
      unicode: unicodeAllowed(env, deps.platform ?? process.platform),
      cursor: cursorAllowed(env),
    });
    this.store = new StorePort(this);
  }

  /**
   * The profile name checked as the command starts (program.ts): a blank or malformed `--profile` or
   * CREATORS_PROFILE is a usage error even in a run that never opens the config file.
   */
  checkProfile(): void {
    checkProfileName(this.profileName);
  }

  /** The profile's config store (conf), opened on first use. */
  config(): Promise<ConfigStore> {
    this.configPromise ??= import('../lib/config.js').then(({ ConfigStore }) =>
      ConfigStore.open(this.deps, this.profileName),
    );
    return this.configPromise;
  }

  /** The profile's config store when a config file exists; undefined without loading conf when none does. */
  async configIfAny(): Promise<ConfigStore | undefined> {
    return this.hasConfigFile() ? this.config() : undefined;
  }

  /**
   * Whether a config file exists. Without one there is nothing to read, and conf (tens of ms to load)
   * is not loaded just to find that out: CI runs configured by environment start faster.
   */
  private hasConfigFile(): boolean {
    // Only a "yes" is remembered: a command may create the file (login, config set) and read it back.
    if (this.configFileSeen || this.configPromise) return true;
    this.configFileSeen = existsSync(join(configDirectory(this.deps), 'config.json'));
    return this.configFileSeen;
  }

  /** A profile setting, or undefined (without opening the store when there is no config file). */
  async setting(key: string): Promise<string | undefined> {
    if (!this.hasConfigFile()) return undefined;
    const value = (await this.config()).get(key);
    return value === undefined || value === null ? undefined : String(value);
  }

  /** The base URL: flag > CREATORS_BASE_URL > profile > the production default. */
  async baseUrl(): Promise<URL> {
    const raw =
      this.globals.baseUrl ?? this.deps.env.CREATORS_BASE_URL ?? (await this.setting('base-url')) ?? DEFAULT_BASE_URL;
    return parseBaseUrl(raw);
  }

  /**
   * The bearer credential in effect and where it came from: `--api-key` > `--api-key-file` > env >
   * stored login/key. A key with a line break or a non-ASCII character is a usage error naming its
   * source. Whatever it is, it joins the run's secrets: no message printed after this shows it.
   */
  async credential(): Promise<ResolvedCredential | undefined> {
    const found = await this.findCredential();
    this.term.secrets.add(found?.value);
    return found;
  }

  private async findCredential(): Promise<ResolvedCredential | undefined> {
    if (this.globals.apiKey !== undefined) {
      const key = cleanApiKey(this.globals.apiKey, 'flag');
      if (key) return { value: key, source: 'flag', kind: 'api-key' };
    }
    if (this.globals.apiKeyFile !== undefined) {
      // Read once: standard input can only be read once, and a file need not be read per request.
      const path = this.globals.apiKeyFile;
      this.apiKeyFromFile ??= import('./api-key-source.js').then(async ({ readApiKeyFile }) => {
        const key = await readApiKeyFile(
          { cwd: this.deps.cwd, stdin: this.term.stdin, stdinIsTTY: this.term.stdinIsTTY },
          path,
        );
        if (!key)
          throw new UsageError(`--api-key-file ${path === '-' ? '- (standard input)' : `'${path}'`} is empty.`, {
            hint: 'Put the API key in it, alone on one line.',
          });
        return key;
      });
      return { value: await this.apiKeyFromFile, source: 'file', kind: 'api-key' };
    }
    const envKey = this.deps.env.CREATORS_API_KEY;
    if (envKey !== undefined) {
      const key = cleanApiKey(envKey, 'env');
      if (key) return { value: key, source: 'env', kind: 'api-key' };
    }
    if (!this.hasConfigFile()) return undefined;
    const store = await this.config();
    const oauth = store.get('oauth') as
      | { access_token?: string; refresh_token?: string; expires_at?: number }
      | undefined;
    // Held from here on, whether or not they still work: a failed refresh may be answered with them quoted.
    this.term.secrets.add(oauth?.access_token);
    this.term.secrets.add(oauth?.refresh_token);
    if (oauth?.access_token) {
      // Refreshed through the token store when about to expire; skipped when bound to another base URL.
      const { freshLogin } = await import('../lib/auth/session.js');
      const login = await freshLogin(await this.sessionPorts());
      if (login) return { value: login.access_token, source: 'login', kind: 'oauth', expiresAt: login.expires_at };
    }
    const stored = store.get('api-key');
    if (typeof stored === 'string') {
      const key = cleanApiKey(stored, 'config');
      if (key) return { value: key, source: 'profile', kind: 'api-key' };
    }
    return undefined;
  }

  /**
   * The platform of a command: `--platform`, else the profile's `platform` setting, checked against
   * `allowed` (lower-cased). Neither given is a usage error naming the flag (and `why`, e.g.
   * "for --mode full") with the allowed values.
   */
  async platform(flag: string | undefined, allowed: readonly string[], why?: string): Promise<string> {
    const platform = await this.optionalPlatform(flag, allowed);
    if (platform !== undefined) return platform;
    throw new UsageError(`--platform is required${why ? ` ${why}` : ''}.`, {
      hint: `Use one of: ${allowed.join(', ')} (or set a default: creators config set platform ${allowed[0] ?? 'instagram'}).`,
    });
  }

  /** As `platform`, but undefined when neither the flag nor the setting gives one. */
  async optionalPlatform(flag: string | undefined, allowed: readonly string[]): Promise<string | undefined> {
    const raw = flag ?? (await this.setting('platform'));
    return raw === undefined || raw.trim() === '' ? undefined : checkPlatform(raw, allowed);
  }

  /** Numeric option: flag > profile > default, checked. */
  async numberOption(flag: string | undefined, key: string, fallback: number, what: string): Promise<number> {
    const raw = flag ?? (await this.setting(key));
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`Invalid ${what} '${raw}': expected a non-negative number.`);
    return n;
  }

  /** The HTTP client for this run, built once. */
  http(): Promise<HttpClient> {
    this.httpPromise ??= this.buildHttp();
    return this.httpPromise;
  }

  private async buildHttp(): Promise<HttpClient> {
    const baseUrl = await this.baseUrl();
    // The profile's settings are read as the flags are, and named as them.
    const timeoutSetting = this.globals.timeout === undefined ? await this.setting('timeout') : undefined;
    const timeoutS =
      this.globals.timeout ?? (timeoutSetting === undefined ? 30 : parseTimeoutSeconds(timeoutSetting, '--timeout'));
    const retriesSetting = this.globals.retries === undefined ? await this.setting('retries') : undefined;
    const retries =
      this.globals.retries ?? (retriesSetting === undefined ? 3 : parseRetries(retriesSetting, '--retries'));
    // Pacing can be tuned (an account with a higher limit, benchmarks) but never switched off.
    const rate = await this.numberOption(
      this.deps.env.CREATORS_RATE_LIMIT,
      'rate-limit',
      300,
      'rate limit (CREATORS_RATE_LIMIT)',
    );
    if (rate <= 0) throw new UsageError(`Invalid rate limit '${rate}': expected requests per minute above 0.`);
    const maxResponseBytes = this.maxResponseBytes();
    const [{ HttpClient }, { createDispatcher, proxyConfigured, proxyFor }, { keepAliveGetTransport, nodeTransport }] =
      await Promise.all([
        import('../lib/http/client.js'),
        import('../lib/http/dispatcher.js'),
        import('../lib/http/transport.js'),
      ]);
    // GETs through node:http (downloads: faster at that size; the other reads: undici is not even loaded),
    // unless a proxy or a test dispatcher must see them. undici is made by the first request that needs it.
    const plain = this.deps.dispatcher === undefined && !proxyConfigured(this.deps.env);
    return new HttpClient({
      baseUrl,
      credential: async () => (await this.credential())?.value,
      dispatcher: this.deps.dispatcher ?? (() => createDispatcher(this.deps.env)),
      streamTransport: plain ? nodeTransport : undefined,
      getTransport: plain ? keepAliveGetTransport() : undefined,
      proxyFor: this.deps.dispatcher === undefined ? (url) => proxyFor(this.deps.env, url) : undefined,
      timeoutMs: timeoutS * 1000,
      retries,
      maxResponseBytes,
      rateLimitPerMinute: rate,
      now: this.deps.now,
      sleep: this.deps.sleep,
      debug: this.term.debug ? (line) => this.term.debugLine(line) : undefined,
      notice: (line) => this.term.notice(line),
      waits: this.term,
      dryRun: this.dryRun,
      dryRead: (req) => this.dryRead(req),
      dryRunChecked: (req) => this.inputChecks.push(`${req.method} ${redactUrl(req.url.href)}`),
      signal: this.deps.signal,
      userAgent: 'creators-cli',
      onUnauthorized: (rejected) => this.refreshAfter401(rejected),
      secrets: this.term.secrets,
      // The store is opened by the first purchase (or the money gate), not by free reads.
      memory: {
        request: async (req, send) => {
          const memory = req.purchase || this.store.opened ? await this.store.memory() : undefined;
          if (memory) return memory.request(req, send);
          // Charged outside the memory (a raw call, --no-store): still in the spend log.
          const res = await send();
          await this.store.logCharge(req, res.data);
          return res;
        },
      },
      // Once the store is open, every process sharing it shares the account's pace.
      sharedPace: {
        take: async (intervalMs, toleranceMs, now) => {
          const slot = await this.store.opened
            ?.pace(paceAccount(baseUrl, this.profileName))
            .take(intervalMs, toleranceMs, now);
          if (slot !== undefined) this.store.sayPaceWait(slot - now, intervalMs);
          return slot;
        },
        delay: (waitMs) => this.store.opened?.pace(paceAccount(baseUrl, this.profileName)).delay(waitMs),
      },
    });
  }

  /** `CREATORS_MAX_RESPONSE_MB` in bytes (undefined: the client's default): the cap of an answer, on the wire and in the store. */
  maxResponseBytes(): number | undefined {
    const raw = this.deps.env.CREATORS_MAX_RESPONSE_MB;
    const mb = raw === undefined || raw === '' ? undefined : Number(raw);
    if (mb !== undefined && !(Number.isFinite(mb) && mb > 0)) {
      throw new UsageError(`Invalid CREATORS_MAX_RESPONSE_MB '${raw}': expected a number of megabytes above 0.`);
    }
    return mb === undefined ? undefined : Math.round(mb * 1024 * 1024);
  }

  /** The run's end (program.ts): what the store could not keep fails the command. */
  finish(): Promise<void> {
    return this.store.finish();
  }

  /** The end of the run: the store's notices said and the store closed. Never throws. */
  close(): Promise<void> {
    return this.store.close();
  }

  /**
   * After a 401: one forced refresh, only when the rejected credential is the stored login's access
   * token (an API key from a flag, env or the profile is never swapped for something else).
   */
  private async refreshAfter401(rejected: string): Promise<string | undefined> {
    const current = await this.credential();
    if (current?.source !== 'login') return undefined;
    if (current.value !== rejected) return current.value;
    const { freshLogin } = await import('../lib/auth/session.js');
    const login = await freshLogin(await this.sessionPorts(), { rejected });
    return login && login.access_token !== rejected ? login.access_token : undefined;
  }

  /**
   * The ports the stored login is read and refreshed with (lib/auth/session.ts): the Context's own, for
   * the credential; its client is built only by a refresh.
   */
  private async sessionPorts(): Promise<SessionPorts> {
    return {
      store: await this.config(),
      baseUrl: await this.baseUrl(),
      http: () => this.http(),
      now: this.deps.now,
      sleep: this.deps.sleep,
      signal: this.deps.signal,
    };
  }

  /** Output settings, decided in one place (lib/output/settings.ts): flag > `-o` extension > env > profile > terminal. */
  async output(): Promise<OutputSettings> {
    if (this.outputSettings) return this.outputSettings;
    const g = this.globals;
    const env = this.deps.env;
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
      profileFormat: asked === undefined ? await this.setting('format') : undefined,
      stdoutIsTTY: this.term.stdoutIsTTY,
      color: colourAllowed(g, env),
      unicode: unicodeAllowed(env, this.deps.platform ?? process.platform),
      quiet: this.term.quiet,
      cwd: this.deps.cwd,
      csvSafe: g.csvSafe,
      bom: g.bom,
      profileCsvSafe: g.csvSafe === undefined ? await this.setting('csv-safe') : undefined,
      profileBom: g.bom === undefined ? await this.setting('bom') : undefined,
    });
    // Long output on a terminal is paged (flag > CREATORS_PAGER > profile > PAGER > less); never to a file or a pipe.
    if (this.deps.startPager !== undefined && this.term.stdoutIsTTY && g.pager !== false) {
      const { choosePager } = await import('../lib/output/pager.js');
      settings.pager = choosePager({
        stdoutIsTTY: this.term.stdoutIsTTY,
        toFile: settings.outputPath !== undefined,
        flag: g.pager,
        env,
        setting: env.CREATORS_PAGER === undefined ? await this.setting('pager') : undefined,
        start: this.deps.startPager,
      });
    }
    this.outputSettings = settings;
    return settings;
  }

  /**
   * Where a dry run prints its plan. The contract gives it to `-o` when that path is free (a plan is
   * not data, and nothing else is written). An existing target is left exactly as it is: it may hold a
   * stopped run's paid records (the resume journal's partial output), so the plan goes to stdout
   * instead, in the format asked for, and a notice says so.
   */
  private dryRunOutputNoticed = false;
  async dryRunOutput(): Promise<OutputSettings> {
    const settings = await this.output();
    const target = settings.outputPath;
    if (target === undefined || target === '-' || !existsSync(resolve(this.deps.cwd, target))) return settings;
    if (!this.dryRunOutputNoticed)
      this.term.notice(
        `Dry run: ${this.globals.output ?? target} exists and was left unchanged; the plan is on standard output.`,
      );
    this.dryRunOutputNoticed = true;
    return { ...settings, outputPath: undefined };
  }

  /**
   * The format the user asked for explicitly (flag or env), known without opening the store; used
   * for error printing: errors are JSON only when JSON was asked for, not merely because stdout is a pipe.
   */
  quickFormat(): Format | undefined {
    return errorFormat({
      json: this.globals.json,
      format: this.globals.format,
      envFormat: this.deps.env.CREATORS_FORMAT,
    });
  }

  /** The money policy of this run: `--dry-run`, `--max-credits` (flag > env > profile), `confirm-above`. */
  async moneyPolicy(): Promise<MoneyPolicy> {
    const { parseConfirmAbove } = await import('../lib/cost.js');
    const flag = this.globals.maxCredits;
    const raw =
      flag === undefined ? (this.deps.env.CREATORS_MAX_CREDITS ?? (await this.setting('max-credits'))) : undefined;
    return {
      dryRun: this.dryRun,
      // The env and the setting are named as the flag, as they always were.
      maxCreditsMilli:
        flag !== undefined
          ? (flag ?? undefined)
          : raw === undefined || raw === ''
            ? undefined
            : parseCreditsMilli(raw, '--max-credits'),
      confirmAboveMilli: parseConfirmAbove(await this.setting('confirm-above')),
    };
  }

  /**
   * Passes a plan through the money gate (`--max-credits`, `--dry-run` plan printed like data, the
   * confirmation above `confirm-above`). True when the command may send it.
   */
  async gate(plan: Plan): Promise<boolean> {
    // A store setting that cannot be used stops a paid run before anything is sent.
    if (plan.worstCaseMilli !== 0) await this.store.check();
    const { gate } = await import('../lib/cost.js');
    const go = await gate(
      {
        term: this.term,
        policy: await this.moneyPolicy(),
        baseUrl: await this.baseUrl(),
        // The plan printer is loaded only by a dry run.
        printPlan: (record) => this.printPlan(record),
      },
      plan,
    );
    if (go && plan.worstCaseMilli !== 0) await this.reserveBudget(plan);
    return go;
  }

  /** After a paging run's first page, the question with the real count (lib/cost.ts `confirmRest`). */
  async confirmRest(rest: import('../lib/cost.js').RestOfRun): Promise<boolean> {
    const { confirmRest } = await import('../lib/cost.js');
    return confirmRest({ term: this.term, policy: await this.moneyPolicy() }, rest);
  }

  /** Prints a dry run's plan (stdout, or a free `-o`), naming the input checks sent before it. */
  private async printPlan(record: PlanRecord): Promise<void> {
    const { printPlan } = await import('../lib/output/plan.js');
    const checks = [...this.inputChecks];
    await printPlan(
      this.term,
      await this.dryRunOutput(),
      checks.length > 0 ? { ...record, input_checks: checks } : record,
    );
  }

  /**
   * `--dry-run` of a free read (`dict`, `keys list`, `events list`...): the read's plan is printed in place
   * of its answer and the run ends there (exit 0), having sent nothing. Reads a real run makes first to
   * check its input are sent instead (`inputCheck`), and named by the plan.
   */
  private async dryRead(req: { method: string; url: URL }): Promise<never> {
    await this.printPlan({
      dry_run: true,
      method: req.method,
      url: req.url.href,
      body: null,
      worst_case_credits: 0,
      cost_basis: 'free read',
    });
    throw new DryRunComplete(`${req.method} ${req.url.pathname}`);
  }

  /**
   * The profile's `daily-budget` and `monthly-budget`: the plan's worst case is checked against the
   * period's logged spend plus what other live runs reserved, and reserved, in one store transaction
   * (lib/store). Refused: exit 5, nothing sent.
   */
  private async reserveBudget(plan: Plan): Promise<void> {
    const [daily, monthly] = [await this.setting('daily-budget'), await this.setting('monthly-budget')];
    if (daily === undefined && monthly === undefined) return;
    const memory = await this.store.memory();
    if (!memory) {
      this.term.warn(
        'Budgets (daily-budget, monthly-budget) are not enforced with --no-store: this run is not counted against them.',
      );
      return;
    }
    const { reserveBudget } = await import('../lib/store/budget.js');
    await reserveBudget(memory, {
      profile: this.profileName,
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
    if (this.dryRun || this.term.quiet || !this.term.stderrIsTTY) return;
    try {
      const memory = await this.store.madeMemory();
      if (!this.billedRun && !(memory !== undefined && memory.spentMilli > 0)) return;
      const { DEFAULT_RUNWAY_WARN_DAYS, readRunway, runwayWarning } = await import('../lib/listening/runway.js');
      const warnDays = await this.numberOption(
        undefined,
        'runway-warn-days',
        DEFAULT_RUNWAY_WARN_DAYS,
        'runway-warn-days setting',
      );
      if (warnDays <= 0) return;
      const runway = this.knownRunway ?? (await readRunway(await this.http()));
      const line = runwayWarning(runway, warnDays);
      if (line) this.term.warn(line);
    } catch {
      // The warning is advice: a failed read must not turn a finished run into an error.
    }
  }

  /** A notice on stderr (waits, summaries); silenced by `--quiet`. */
  notice(message: string): void {
    this.term.notice(message);
  }

  /** A warning on stderr; shown even with `--quiet`. */
  warn(message: string): void {
    this.term.warn(message);
  }
}

/** The account whose pace processes share: the API and the profile's credential. */
function paceAccount(baseUrl: URL, profile: string): string {
  return `${baseUrl.href} ${profile}`;
}

function colourAllowed(g: GlobalOptions, env: Record<string, string | undefined>): boolean {
  return g.color !== false && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}
