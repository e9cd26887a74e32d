import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { homedir } from 'node:os';
import { UsageError } from './errors.js';
import { SOCIAL_PLATFORMS } from '../contract/platforms.js';
import { shownStoreValue, storeSettingProblem } from './store/location.js';

/** Per-profile settings and credentials in `$XDG_CONFIG_HOME/creators/config.json` (or `CREATORS_CONFIG_DIR`), 0600. */

export interface ConfigKeySpec {
  description: string;
  secret?: boolean;
  validate?: (value: string) => string | undefined;
  /** How the value is printed when it is not a secret but may hold one (a URL's password). */
  shown?: (value: string) => string;
}

const positiveNumber = (value: string): string | undefined =>
  Number.isFinite(Number(value)) && Number(value) > 0 ? undefined : 'must be a positive number';
const nonNegativeNumber = (value: string): string | undefined =>
  value.trim() !== '' && Number.isFinite(Number(value)) && Number(value) >= 0
    ? undefined
    : 'must be a number, 0 or more';

const booleanSetting = (value: string): string | undefined =>
  value === 'true' || value === 'false' ? undefined : 'must be true or false';

export const CONFIG_KEYS: Record<string, ConfigKeySpec> = {
  'base-url': {
    description: 'API origin (default https://api-dashboard.influencers.club)',
    validate: (v) => (/^https?:\/\/[^\s/]+/i.test(v) ? undefined : 'must be an http(s) URL'),
  },
  'api-key': { description: 'API key used as the bearer credential', secret: true },
  format: {
    description: 'default output format: table, json, jsonl, csv or tsv',
    validate: (v) =>
      ['table', 'json', 'jsonl', 'csv', 'tsv'].includes(v) ? undefined : 'must be one of table, json, jsonl, csv, tsv',
  },
  platform: {
    description: 'default platform for commands that take a platform',
    validate: (v) =>
      SOCIAL_PLATFORMS.includes(v.toLowerCase() as (typeof SOCIAL_PLATFORMS)[number])
        ? undefined
        : `must be one of ${SOCIAL_PLATFORMS.join(', ')}`,
  },
  'max-credits': {
    description: 'refuse commands whose worst-case cost exceeds this (0: free commands only)',
    validate: nonNegativeNumber,
  },
  'confirm-above': {
    description: 'on a terminal, ask before runs whose worst case exceeds this many credits (default 10)',
    validate: nonNegativeNumber,
  },
  timeout: { description: 'per-request timeout in seconds', validate: positiveNumber },
  retries: {
    description: 'retry budget for safe requests',
    validate: (v) => (/^\d+$/.test(v) ? undefined : 'must be a whole number'),
  },
  'rate-limit': { description: 'requests per minute this process stays under (default 300)', validate: positiveNumber },
  'csv-safe': {
    description: "csv/tsv: prefix cells starting with = + - @ tab or CR with ' (true or false; default false)",
    validate: booleanSetting,
  },
  bom: {
    description: 'csv/tsv: start with a UTF-8 byte order mark, for Excel (true or false; default false)',
    validate: booleanSetting,
  },
  pager: {
    description:
      'pager for long output on a terminal: a command line (default $PAGER, else less -FRX), or false for none',
    validate: (v) => (v.trim() === '' ? 'must be a command line, true or false' : undefined),
  },
  store: {
    description:
      'the purchase memory: a file path (kept absolute; default <config dir>/store/<profile>.db) or a postgres:// URL (env CREATORS_STORE)',
    validate: storeSettingProblem,
    shown: shownStoreValue,
  },
  'max-age': {
    description:
      'reuse answers from the store bought within this window: 14d, 24h, 0 (default: creators 14d, pages 24h)',
    validate: (v) =>
      /^\s*\d+(\.\d+)?\s*[smhdw]?\s*$/i.test(v) ? undefined : 'must be a duration such as 14d, 24h, 30m or 0',
  },
  'skip-bought': {
    description:
      'search/similar leave out creators already bought on that platform within the creator window (true or false)',
    validate: booleanSetting,
  },
  'daily-budget': {
    description: "refuse runs whose worst case would take today's logged spend past this many credits",
    validate: nonNegativeNumber,
  },
  'monthly-budget': {
    description: "refuse runs whose worst case would take this month's logged spend past this many credits",
    validate: nonNegativeNumber,
  },
  'runway-warn-days': {
    description:
      'warn in the summary of a paid run when the balance covers fewer days of monitoring than this (default 7)',
    validate: nonNegativeNumber,
  },
  'page-base': {
    description: 'first Discovery page number on the wire: 0 or 1',
    validate: (v) => (v === '0' || v === '1' ? undefined : 'must be 0 or 1'),
  },
};

export type ProfileData = Record<string, unknown>;

/** Where the config store lives: an explicit directory (tests), else from the environment. */
export interface ConfigLocation {
  env: Record<string, string | undefined>;
  configDir?: string | undefined;
}

export function configDirectory(deps: ConfigLocation): string {
  if (deps.configDir) return deps.configDir;
  if (deps.env.CREATORS_CONFIG_DIR) return deps.env.CREATORS_CONFIG_DIR;
  const xdg = deps.env.XDG_CONFIG_HOME || join(deps.env.HOME || homedir(), '.config');
  return join(xdg, 'creators');
}

interface ConfLike {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  readonly path: string;
  readonly store: Record<string, unknown>;
}

/**
 * A profile name: 1-64 letters, digits, dots, dashes or underscores; anything else (a blank `--profile ''`) is a usage
 * error.
 */
export function checkProfileName(profile: string): void {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(profile)) {
    throw new UsageError(`Invalid profile name '${profile}'.`, {
      hint: 'Use letters, digits, dot, dash or underscore (1 to 64 of them).',
    });
  }
}

/** Profiles over a conf store. Created lazily by the context: `--help` never loads conf. */
export class ConfigStore {
  private constructor(
    private readonly conf: ConfLike,
    readonly profile: string,
  ) {}

  static async open(deps: ConfigLocation, profile: string): Promise<ConfigStore> {
    checkProfileName(profile);
    const cwd = configDirectory(deps);
    const { default: Conf } = await import('conf');
    let conf: ConfLike;
    try {
      conf = new Conf({
        projectName: 'creators',
        projectSuffix: '',
        cwd,
        configFileMode: 0o600,
      }) as unknown as ConfLike;
    } catch (err) {
      throw new UsageError(`Cannot read the config file in ${cwd}: ${(err as Error).message}`, {
        hint: 'Fix or remove the file, or point CREATORS_CONFIG_DIR elsewhere.',
      });
    }
    // conf leaves the directory 0755; credentials live here, so keep it private.
    try {
      chmodSync(dirname(conf.path), 0o700);
    } catch {
      // The directory may belong to someone else (a shared XDG dir); the file itself is still 0600.
    }
    return new ConfigStore(conf, profile);
  }

  get path(): string {
    return this.conf.path;
  }

  private key(name: string): string {
    // conf treats dots as path separators; profile names may contain dots, so escape them.
    return `profiles.${this.profile.replace(/\./g, '\\.')}.${name.replace(/\./g, '\\.')}`;
  }

  /** A value of the current profile. */
  get(name: string): unknown {
    return this.conf.get(this.key(name));
  }

  set(name: string, value: unknown): void {
    this.conf.set(this.key(name), value);
  }

  unset(name: string): void {
    this.conf.delete(this.key(name));
  }

  /** All values of the current profile. */
  all(): ProfileData {
    const profiles = (this.conf.store.profiles ?? {}) as Record<string, ProfileData>;
    return { ...(profiles[this.profile] ?? {}) };
  }

  /** Names of every stored profile. */
  profiles(): string[] {
    return Object.keys((this.conf.store.profiles ?? {}) as Record<string, unknown>);
  }
}

export function validateConfigValue(key: string, value: string): string {
  const spec = CONFIG_KEYS[key];
  if (!spec) {
    throw new UsageError(`Unknown config key '${key}'.`, {
      hint: `Known keys: ${Object.keys(CONFIG_KEYS).join(', ')}.`,
    });
  }
  const problem = spec.validate?.(value);
  if (problem) throw new UsageError(`Invalid value for '${key}': ${problem}.`);
  return value;
}

/** A setting's value as `config get`/`list` print it: a secret masked (unless `full`), a URL's password as `***`. */
export function shownSetting(key: string, value: string, full = false): string {
  const spec = CONFIG_KEYS[key];
  if (full) return value;
  if (spec?.secret) return maskSecret(value);
  return spec?.shown ? spec.shown(value) : value;
}

/** At most a quarter of a secret is ever shown, so a short one shows almost nothing. */
export function maskSecret(secret: string): string {
  if (secret.length < 16) return '****';
  const keep = Math.min(4, Math.floor(secret.length / 8));
  return `${secret.slice(0, keep)}…${secret.slice(-keep)}`;
}
