import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkProfileName, configDirectory, type ConfigStore } from '../../lib/config.js';
import { UsageError } from '../../lib/errors.js';
import { checkPlatform } from '../../lib/platforms.js';
import { DEFAULT_BASE_URL } from '../../lib/http/url.js';
import type { Deps } from '../deps.js';

/**
 * The profile's config file (conf) and the settings read through it (`ctx.config`). conf is loaded on
 * first use, and not at all when no config file exists: `--help`, argument errors and CI runs configured
 * by environment never pay for it.
 */
export class ProfileConfig {
  private storePromise: Promise<ConfigStore> | undefined;
  private fileSeen: boolean | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly baseUrlFlag: string | undefined,
    readonly profileName: string,
  ) {}

  /**
   * The profile name checked as the command starts (program.ts): a blank or malformed `--profile` or
   * CREATORS_PROFILE is a usage error even in a run that never opens the config file.
   */
  checkProfile(): void {
    checkProfileName(this.profileName);
  }

  /** The profile's config store (conf), opened on first use. */
  store(): Promise<ConfigStore> {
    this.storePromise ??= import('../../lib/config.js').then(({ ConfigStore }) =>
      ConfigStore.open(this.deps, this.profileName),
    );
    return this.storePromise;
  }

  /** The profile's config store when a config file exists; undefined without loading conf when none does. */
  async storeIfAny(): Promise<ConfigStore | undefined> {
    return this.hasFile() ? this.store() : undefined;
  }

  /** Whether a config file exists (conf takes tens of ms to load: not loaded just to find that out). */
  hasFile(): boolean {
    // Only a "yes" is remembered: a command may create the file (login, config set) and read it back.
    if (this.fileSeen || this.storePromise) return true;
    this.fileSeen = existsSync(join(configDirectory(this.deps), 'config.json'));
    return this.fileSeen;
  }

  /** A profile setting, or undefined (without opening the store when there is no config file). */
  async setting(key: string): Promise<string | undefined> {
    if (!this.hasFile()) return undefined;
    const value = (await this.store()).get(key);
    return value === undefined || value === null ? undefined : String(value);
  }

  /** The base URL: flag > CREATORS_BASE_URL > profile > the production default. */
  async baseUrl(): Promise<URL> {
    const raw =
      this.baseUrlFlag ?? this.deps.env.CREATORS_BASE_URL ?? (await this.setting('base-url')) ?? DEFAULT_BASE_URL;
    return parseBaseUrl(raw);
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
  async number(flag: string | undefined, key: string, fallback: number, what: string): Promise<number> {
    const raw = flag ?? (await this.setting(key));
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`Invalid ${what} '${raw}': expected a non-negative number.`);
    return n;
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
}

/**
 * The base URL from the flag, the env or the profile: an optional path prefix is kept (for proxies); a bad value is a
 * usage error naming where it is given (nothing is sent).
 */
export function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Invalid base URL '${raw}'.`, {
      hint: 'Give an absolute http(s) URL such as https://api-dashboard.influencers.club (--base-url or CREATORS_BASE_URL).',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`Invalid base URL '${raw}': the scheme must be http or https.`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`Invalid base URL '${raw}': it must not carry a query or fragment.`);
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
