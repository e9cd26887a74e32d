import type { HttpClient } from '../lib/http/client.js';
import type { Terminal } from '../lib/io/terminal.js';
import type { OutputSettings } from '../lib/output/types.js';
import type { Deps } from './deps.js';
import { ProfileConfig } from './factory/config.js';
import { Credentials, type ResolvedCredential } from './factory/credentials.js';
import { DryRunPlan } from './factory/dry-run.js';
import { buildHttpClient } from './factory/http.js';
import { MoneyGate } from './factory/money.js';
import { OutputChoice } from './factory/output.js';
import { StorePort } from './factory/store.js';
import { buildTerminal } from './factory/terminal.js';
import type { GlobalOptions } from './global-options.js';

/**
 * What every command receives: the run's inputs, and one member per part of the run, each built by its
 * own file in `factory/` the first time a command asks for it and then kept (gh's Factory of thunks). A
 * verb builds only what it asks for: `--help`, argument errors and free reads never load conf, undici
 * or the store. Workflows get their ports from ports.ts; nothing in `src/lib` sees the Context.
 */
export interface Context {
  readonly deps: Deps;
  readonly globals: GlobalOptions;
  /** `--profile` > CREATORS_PROFILE > `default` (checked by `config.checkProfile()` as the command starts). */
  readonly profileName: string;
  readonly dryRun: boolean;
  /** The command being run (`enrich handle`), for the spend log; set by program.ts. */
  command: string;
  /** The terminal object (factory/terminal.ts): streams, TTY-ness, colour, notices, spinner, prompts. */
  readonly term: Terminal;
  /** The profile's config file and settings (factory/config.ts): `setting`, `baseUrl`, `platform`... */
  readonly config: ProfileConfig;
  /** The bearer credential in effect and its source (factory/credentials.ts); joins the run's secrets. */
  credential(): Promise<ResolvedCredential | undefined>;
  /** The run's HTTP client (factory/http.ts). */
  http(): Promise<HttpClient>;
  /** The output settings (factory/output.ts). */
  output(): Promise<OutputSettings>;
  /** Where a dry run's plan goes: `-o` when that file does not exist yet, else stdout (factory/output.ts). */
  dryRunOutput(): Promise<OutputSettings>;
  /** The money gate (factory/money.ts): policy, `gate(plan)`, budgets, the runway warning. */
  readonly money: MoneyGate;
  /** The purchase store (factory/store.ts): the purchase memory, the spend log, the store commands' store. */
  readonly store: StorePort;
}

/** The Context of one run: the parts are wired here, each built on first ask. */
export function createContext(deps: Deps, globals: GlobalOptions): Context {
  // An empty CREATORS_PROFILE is unset, as for the other variables; an empty --profile is refused (checkProfile).
  const profileName = globals.profile ?? (deps.env.CREATORS_PROFILE || undefined) ?? 'default';
  const dryRun = Boolean(globals.dryRun);
  const term = once(() => buildTerminal(deps, globals));
  const config = once(() => new ProfileConfig(deps, globals.baseUrl, profileName));
  const output = once(() => new OutputChoice(deps, globals, term(), config()));
  const plan = once(() => new DryRunPlan(term(), () => output().forDryRun()));
  const credentials: () => Credentials = once(
    () => new Credentials({ deps, globals, term: term(), config: config(), http }),
  );
  const store = once(
    () =>
      new StorePort({
        deps,
        globals,
        profileName,
        dryRun,
        get term() {
          return term();
        },
        get command() {
          return ctx.command;
        },
        get config() {
          return config();
        },
      }),
  );
  const http: () => Promise<HttpClient> = once(() =>
    buildHttpClient({
      deps,
      globals,
      profileName,
      dryRun,
      term: term(),
      config: config(),
      credentials: credentials(),
      store: store(),
      plan: plan(),
    }),
  );
  const money = once(
    () =>
      new MoneyGate({
        deps,
        globals,
        profileName,
        dryRun,
        term: term(),
        config: config(),
        store: store(),
        plan: plan(),
        http,
      }),
  );
  const ctx: Context = {
    deps,
    globals,
    profileName,
    dryRun,
    command: '',
    get term() {
      return term();
    },
    get config() {
      return config();
    },
    credential: () => credentials().current(),
    http,
    output: () => output().settings(),
    dryRunOutput: () => output().forDryRun(),
    get money() {
      return money();
    },
    get store() {
      return store();
    },
  };
  return ctx;
}

/** Built by the first call, the same value after. */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
