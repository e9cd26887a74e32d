import type { Deps, Io } from './deps.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configDirectory, type ConfigStore } from './config.js';
import { UsageError } from './errors.js';
import type { HttpClient } from './http/client.js';
import { DEFAULT_BASE_URL, parseBaseUrl } from './http/url.js';
import { FORMATS, type Format, type OutputSettings } from './output/types.js';
import { formatFromPath } from './output/format-from-path.js';
import { checkOutputPath } from './output/preflight.js';
import { resolve } from 'node:path';

/** The global options of the contract, as commander hands them over (camelCase). */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  format?: string;
  json?: boolean;
  fields?: string;
  output?: string;
  quiet?: boolean;
  color?: boolean;
  debug?: boolean;
  timeout?: string;
  retries?: string;
  dryRun?: boolean;
  maxCredits?: string;
  yes?: boolean;
}

export type CredentialSource = 'flag' | 'env' | 'profile' | 'login';

export interface ResolvedCredential {
  value: string;
  source: CredentialSource;
  kind: 'api-key' | 'oauth';
  /** Access-token expiry (ms since epoch) for OAuth credentials. */
  expiresAt?: number | undefined;
}

/**
 * What every command receives: the injected deps plus the global options resolved once
 * (flag > environment > profile config > default). Costly members (config store, HTTP client)
 * are built on first use, so `--help` and argument errors never load conf or undici.
 */
export class Context {
  readonly io: Io;
  readonly profileName: string;
  readonly debug: boolean;
  readonly quiet: boolean;
  readonly dryRun: boolean;
  readonly yes: boolean;
  /** ANSI colour allowed on stderr. */
  readonly stderrColor: boolean;
  private configPromise: Promise<ConfigStore> | undefined;
  private configFileSeen: boolean | undefined;
  private httpPromise: Promise<HttpClient> | undefined;
  private outputSettings: OutputSettings | undefined;

  constructor(
    readonly deps: Deps,
    readonly globals: GlobalOptions,
  ) {
    this.io = deps.io;
    const env = deps.env;
    this.profileName = globals.profile ?? env.CREATORS_PROFILE ?? 'default';
    this.debug = Boolean(globals.debug) || env.CREATORS_DEBUG === '1' || env.CREATORS_DEBUG === 'true';
    this.quiet = Boolean(globals.quiet);
    this.dryRun = Boolean(globals.dryRun);
    this.yes = Boolean(globals.yes);
    this.stderrColor = colourAllowed(globals, env) && deps.io.stderrIsTTY;
  }

  /** The profile's config store (conf), opened on first use. */
  config(): Promise<ConfigStore> {
    this.configPromise ??= import('./config.js').then(({ ConfigStore }) => ConfigStore.open(this.deps, this.profileName));
    return this.configPromise;
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
    const raw = this.globals.baseUrl ?? this.deps.env.CREATORS_BASE_URL ?? (await this.setting('base-url')) ?? DEFAULT_BASE_URL;
    return parseBaseUrl(raw);
  }

  /** The bearer credential in effect and where it came from: flag > env > stored login/key. */
  async credential(): Promise<ResolvedCredential | undefined> {
    const strip = (v: string): string => v.trim().replace(/^Bearer\s+/i, '');
    if (this.globals.apiKey !== undefined && strip(this.globals.apiKey)) {
      return { value: strip(this.globals.apiKey), source: 'flag', kind: 'api-key' };
    }
    const envKey = this.deps.env.CREATORS_API_KEY;
    if (envKey !== undefined && strip(envKey)) return { value: strip(envKey), source: 'env', kind: 'api-key' };
    if (!this.hasConfigFile()) return undefined;
    const store = await this.config();
    const oauth = store.get('oauth') as { access_token?: string; expires_at?: number } | undefined;
    if (oauth?.access_token) {
      // Refreshed through the token store when about to expire; skipped when bound to another base URL.
      const { freshLogin } = await import('./auth/session.js');
      const login = await freshLogin(this);
      if (login) return { value: login.access_token, source: 'login', kind: 'oauth', expiresAt: login.expires_at };
    }
    const stored = store.get('api-key');
    if (typeof stored === 'string' && strip(stored)) return { value: strip(stored), source: 'profile', kind: 'api-key' };
    return undefined;
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
    const timeoutS = await this.numberOption(this.globals.timeout, 'timeout', 30, '--timeout');
    if (timeoutS <= 0) throw new UsageError(`Invalid --timeout '${this.globals.timeout ?? timeoutS}': expected a number of seconds above 0.`);
    const retries = await this.numberOption(this.globals.retries, 'retries', 3, '--retries');
    if (!Number.isInteger(retries)) throw new UsageError(`Invalid --retries '${this.globals.retries ?? retries}': expected a whole number.`);
    // Pacing can be tuned (an account with a higher limit, benchmarks) but never switched off.
    const rate = await this.numberOption(this.deps.env.CREATORS_RATE_LIMIT, 'rate-limit', 300, 'rate limit (CREATORS_RATE_LIMIT)');
    if (rate <= 0) throw new UsageError(`Invalid rate limit '${rate}': expected requests per minute above 0.`);
    const [{ HttpClient }, { createDispatcher, proxyConfigured }, { nodeTransport }] = await Promise.all([
      import('./http/client.js'),
      import('./http/dispatcher.js'),
      import('./http/transport.js'),
    ]);
    const dispatcher = this.deps.dispatcher ?? (await createDispatcher(this.deps.env));
    return new HttpClient({
      baseUrl,
      credential: async () => (await this.credential())?.value,
      dispatcher,
      // Downloads through node:http (faster at this size), unless a proxy or a test dispatcher must see them.
      streamTransport: this.deps.dispatcher === undefined && !proxyConfigured(this.deps.env) ? nodeTransport : undefined,
      timeoutMs: timeoutS * 1000,
      retries,
      rateLimitPerMinute: rate,
      now: this.deps.now,
      sleep: this.deps.sleep,
      debug: this.debug ? (line) => this.io.stderr.write(`[debug] ${line}\n`) : undefined,
      notice: (line) => this.notice(line),
      signal: this.deps.signal,
      userAgent: 'creators-cli',
      onUnauthorized: (rejected) => this.refreshAfter401(rejected),
    });
  }

  /**
   * After a 401: one forced refresh, only when the rejected credential is the stored login's access
   * token (an API key from a flag, env or the profile is never swapped for something else).
   */
  private async refreshAfter401(rejected: string): Promise<string | undefined> {
    const current = await this.credential();
    if (current?.source !== 'login') return undefined;
    if (current.value !== rejected) return current.value;
    const { freshLogin } = await import('./auth/session.js');
    const login = await freshLogin(this, { rejected });
    return login && login.access_token !== rejected ? login.access_token : undefined;
  }

  /** Output settings: format from flag > `-o` extension > env > profile > terminal default. */
  async output(): Promise<OutputSettings> {
    if (this.outputSettings) return this.outputSettings;
    const g = this.globals;
    if (g.json && g.format !== undefined && g.format !== 'json') {
      throw new UsageError(`--json and --format ${g.format} ask for two formats.`, { hint: 'Keep one of them.' });
    }
    let format: string | undefined = g.json ? 'json' : g.format;
    let explicit = format !== undefined;
    if (!format && g.output) format = formatFromPath(g.output);
    if (!format && this.deps.env.CREATORS_FORMAT) format = this.deps.env.CREATORS_FORMAT;
    if (!format) format = await this.setting('format');
    explicit = explicit || format !== undefined;
    if (!format) format = this.io.stdoutIsTTY && !g.output ? 'table' : 'json';
    const settings: OutputSettings = {
      format: checkFormat(format),
      formatExplicit: explicit,
      fields: parseFields(g.fields),
      // `-o -` means stdout; relative paths are taken from the injected cwd.
      outputPath: g.output && g.output !== '-' ? resolve(this.deps.cwd, g.output) : undefined,
      color: colourAllowed(g, this.deps.env) && this.io.stdoutIsTTY && (!g.output || g.output === '-'),
      quiet: this.quiet,
    };
    if (settings.outputPath) checkOutputPath(settings.outputPath);
    this.outputSettings = settings;
    return settings;
  }

  /**
   * The format the user asked for explicitly (flag or env), known without opening the store; used
   * for error printing: errors are JSON only when JSON was asked for, not merely because stdout is a pipe.
   */
  quickFormat(): Format | undefined {
    const g = this.globals;
    const f = g.json ? 'json' : (g.format ?? this.deps.env.CREATORS_FORMAT);
    return f && (FORMATS as readonly string[]).includes(f) ? (f as Format) : undefined;
  }

  /** A notice on stderr (waits, summaries); silenced by `--quiet`. */
  notice(message: string): void {
    if (!this.quiet) this.io.stderr.write(`${message}\n`);
  }

  /** A warning on stderr; shown even with `--quiet`. */
  warn(message: string): void {
    this.io.stderr.write(`${this.stderrColor ? '\x1b[33mwarning:\x1b[39m' : 'warning:'} ${message}\n`);
  }
}

function colourAllowed(g: GlobalOptions, env: Record<string, string | undefined>): boolean {
  return g.color !== false && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

function checkFormat(format: string): Format {
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`Unknown format '${format}'.`, { hint: `Use one of: ${FORMATS.join(', ')}.` });
  }
  return format as Format;
}

function parseFields(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const fields = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new UsageError('--fields needs at least one field name, e.g. --fields profile.username,user_id');
  return fields;
}
