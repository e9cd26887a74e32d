/**
 * The sandbox's whole world: one in-memory object per running sandbox, handed to every route.
 * Core fields live here; a later feature either adds a typed field below or keeps its own
 * data in a named slot (`slot(state, 'batches', () => new Map())`) without touching this file.
 */
import { randomBytes } from 'node:crypto';
import { CreatorStore } from './data/creators.js';
import { createLedger, setCredits, toCredits, type Ledger } from './ledger.js';

/** An API key or OAuth access token: the fields of the real token object (api-contract §12). */
export interface ApiKeyRecord {
  id: number;
  name: string;
  token: string;
  scopes: string[];
  active: boolean;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  /** Sandbox bookkeeping: where the credential came from. */
  kind: 'api_key' | 'oauth_access';
  /** The account the credential acts for; rate limits and credits are per account. */
  account: string;
}

/** Knobs that tests and `/_sandbox/config` may change while the sandbox runs. */
export interface SandboxConfig {
  /** Requests per sliding 60 s window per account. */
  rateLimit: number;
  /** Trial account: only `trialAllowance` successful requests. */
  trial: boolean;
  trialAllowance: number;
  /** Discovery credits per (UTC) day before 429 `daily_limit_exceeded`. */
  dailyDiscoveryLimit: number;
  /** Unique creators Discovery may return per billing period before the fair-use 429. */
  fairUseCap: number;
  /** Number of the first Discovery page on the wire (`paging.page`): 0 (official clients) or 1 (FAQ). */
  pageBase: number;
}

export interface SandboxState {
  readonly seed: number;
  /** The clock; every time the sandbox reads goes through it so tests can move time. */
  readonly now: () => number;
  readonly log: (line: string) => void;
  config: SandboxConfig;
  /** Known credentials by token value. */
  apiKeys: Map<string, ApiKeyRecord>;
  ledger: Ledger;
  /** Sliding-window throttle: request times (ms) per account. */
  throttle: Map<string, number[]>;
  /** Successful (2xx) authenticated requests, which a trial account may make `trialAllowance` of. */
  trial: { used: number };
  /** Discovery usage, for the daily limit and the fair-use cap. */
  discovery: { milliByDay: Map<string, number>; uniqueCreators: Set<string> };
  /** Deterministic synthetic creators, generated per platform on first use. */
  creators: CreatorStore;
  /** Per-feature state (see `slot`). */
  slots: Map<string, unknown>;
  /** Counters behind `nextId`. */
  ids: Map<string, number>;
}

export interface StateOptions {
  seed: number;
  now: () => number;
  log: (line: string) => void;
  apiKey: string;
  credits: number;
  rateLimit: number;
  trial: boolean;
  dailyDiscoveryLimit: number;
  fairUseCap: number;
  /** Default 0. */
  pageBase?: number;
}

/** The sandbox account every credential belongs to unless a feature says otherwise. */
export const DEFAULT_ACCOUNT = 'acct_sandbox';

/** Trial accounts get this many successful requests (service-spec.md, Limits). */
export const TRIAL_ALLOWANCE = 30;

export function createState(options: StateOptions): SandboxState {
  const state: SandboxState = {
    seed: options.seed,
    now: options.now,
    log: options.log,
    config: {
      rateLimit: options.rateLimit,
      trial: options.trial,
      trialAllowance: TRIAL_ALLOWANCE,
      dailyDiscoveryLimit: options.dailyDiscoveryLimit,
      fairUseCap: options.fairUseCap,
      pageBase: options.pageBase ?? 0,
    },
    apiKeys: new Map(),
    ledger: createLedger(options.credits),
    throttle: new Map(),
    trial: { used: 0 },
    discovery: { milliByDay: new Map(), uniqueCreators: new Set() },
    creators: new CreatorStore(options.seed),
    slots: new Map(),
    ids: new Map(),
  };
  addApiKey(state, { token: options.apiKey, name: 'Sandbox key' });
  return state;
}

/** A random key in the shape the sandbox hands out: `sbx_live_` + 32 hex characters. */
export function generateApiKey(): string {
  return `sbx_live_${randomBytes(16).toString('hex')}`;
}

/** Next integer id of a kind (1, 2, 3...), e.g. `nextId(state, 'api_key')`. */
export function nextId(state: SandboxState, kind: string): number {
  const id = (state.ids.get(kind) ?? 0) + 1;
  state.ids.set(kind, id);
  return id;
}

/** The current sandbox time as ISO 8601. */
export function isoNow(state: SandboxState): string {
  return new Date(state.now()).toISOString();
}

/** Registers a credential so the auth guard accepts it. */
export function addApiKey(
  state: SandboxState,
  input: Partial<Omit<ApiKeyRecord, 'id' | 'created_at'>> & { token?: string },
): ApiKeyRecord {
  const record: ApiKeyRecord = {
    id: nextId(state, 'api_key'),
    name: input.name ?? 'API key',
    token: input.token ?? generateApiKey(),
    scopes: input.scopes ?? ['all'],
    active: input.active ?? true,
    expires_at: input.expires_at ?? null,
    created_at: isoNow(state),
    last_used_at: input.last_used_at ?? null,
    kind: input.kind ?? 'api_key',
    account: input.account ?? DEFAULT_ACCOUNT,
  };
  state.apiKeys.set(record.token, record);
  return record;
}

/** A feature's own state, created on first use: `slot(state, 'batches', () => new Map())`. */
export function slot<T>(state: SandboxState, name: string, init: () => T): T {
  if (!state.slots.has(name)) state.slots.set(name, init());
  return state.slots.get(name) as T;
}

/** Runtime changes from tests (in process) or `POST /_sandbox/config`. */
export interface ConfigPatch {
  rateLimit?: number;
  /** Sets the balance, in credits. */
  credits?: number;
  trial?: boolean;
  /** Successful requests already used from the trial allowance. */
  trialUsed?: number;
  dailyDiscoveryLimit?: number;
  fairUseCap?: number;
  pageBase?: number;
}

/** Applies a patch. Turning `trial` on starts a fresh allowance unless `trialUsed` says otherwise. */
export function configure(state: SandboxState, patch: ConfigPatch): void {
  if (patch.rateLimit !== undefined) state.config.rateLimit = patch.rateLimit;
  if (patch.credits !== undefined) setCredits(state, patch.credits);
  if (patch.trial !== undefined) {
    if (patch.trial && !state.config.trial) state.trial.used = 0;
    state.config.trial = patch.trial;
  }
  if (patch.trialUsed !== undefined) state.trial.used = patch.trialUsed;
  if (patch.dailyDiscoveryLimit !== undefined) state.config.dailyDiscoveryLimit = patch.dailyDiscoveryLimit;
  if (patch.fairUseCap !== undefined) state.config.fairUseCap = patch.fairUseCap;
  if (patch.pageBase !== undefined) state.config.pageBase = patch.pageBase;
}

/** The knobs as `/_sandbox/config` reports them. */
export function describeConfig(state: SandboxState): Record<string, unknown> {
  return {
    seed: state.seed,
    rateLimit: state.config.rateLimit,
    credits: toCredits(state.ledger.balanceMilli),
    trial: state.config.trial,
    trialAllowance: state.config.trialAllowance,
    trialUsed: state.trial.used,
    dailyDiscoveryLimit: state.config.dailyDiscoveryLimit,
    fairUseCap: state.config.fairUseCap,
    pageBase: state.config.pageBase,
  };
}
