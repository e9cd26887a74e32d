import { existsSync } from 'node:fs';
import type { Plan } from '../lib/api/plan.js';
import { configDirectory } from '../lib/config.js';
import { UsageError } from '../lib/errors.js';
import type { Terminal } from '../lib/io/terminal.js';
import type { MaxAge, PurchaseMemoryImpl } from '../lib/store/memory.js';
import type { OpenOptions } from '../lib/store/open.js';
import type { Store } from '../lib/store/types.js';
import type { Deps } from './deps.js';

/** What the store port reads from the Context (the Context itself: this file must not import it, no circle). */
export interface StoreHost {
  readonly deps: Deps;
  readonly globals: { store?: boolean | undefined; maxAge?: number | null | undefined };
  readonly profileName: string;
  readonly dryRun: boolean;
  readonly term: Terminal;
  /** The command being run, for the spend log (set by program.ts before the run). */
  readonly command: string;
  setting(key: string): Promise<string | undefined>;
  baseUrl(): Promise<URL>;
}

/**
 * The profile's purchase store, one port for the run (`ctx.store`): where it is, the store opened once
 * for buying through (the purchase memory, the shared pace, budgets), and the store as the `store` and
 * `spend` commands see it. Nothing is loaded until a command asks: free reads never open it.
 */
export class StorePort {
  private storePromise: Promise<Store | undefined> | undefined;
  private memoryPromise: Promise<PurchaseMemoryImpl | undefined> | undefined;
  /** The store once opened (the shared pace follows it from then on). */
  private openedStore: Store | undefined;
  /** Stores opened by `local` (the `store` and `spend` commands), closed at the end of the run. */
  private readonly localStores: Store[] = [];

  constructor(private readonly host: StoreHost) {}

  /**
   * Where this profile's store is: `CREATORS_STORE` > the `store` setting > the config directory; a
   * `postgres://` URL is a team store. As given (a URL's password included): for opening it, never for printing.
   */
  private async address(): Promise<string> {
    const { deps, profileName, term } = this.host;
    const { storeFile, isPgUrl, pgTarget } = await import('../lib/store/open.js');
    const address = storeFile({ configDir: configDirectory(deps), profile: profileName, cwd: deps.cwd, setting: deps.env.CREATORS_STORE ?? (await this.host.setting('store')) });
    // A team store's password stays out of every line printed, debug lines included.
    if (isPgUrl(address)) term.secrets.add(pgTarget(address, deps.env).password);
    return address;
  }

  /** Where this profile's store is, fit to print: the file, or the team store's URL without its password. */
  async location(): Promise<string> {
    const { storeDisplay } = await import('../lib/store/open.js');
    return storeDisplay(await this.address(), this.host.deps.env);
  }

  /** How this profile's store is opened (`store migrate|push`, which open it themselves). */
  async openOptions(o: { dryRun?: boolean }): Promise<OpenOptions> {
    return { file: await this.address(), env: this.host.deps.env, busyTimeoutMs: this.busyTimeoutMs(), readOnly: o.dryRun };
  }

  /** This profile's local store file (the default place, whatever `store` says): where `store push` copies from. */
  async localFile(): Promise<string> {
    const { localStoreFile } = await import('../lib/store/open.js');
    const { deps, profileName } = this.host;
    return localStoreFile({ configDir: configDirectory(deps), profile: profileName, cwd: deps.cwd });
  }

  /**
   * The profile's store, opened once: undefined with `--no-store` (said once) or in a dry run before any
   * store exists (a dry run opens it read-only: it changes nothing anywhere).
   */
  open(): Promise<Store | undefined> {
    this.storePromise ??= this.openOnce();
    return this.storePromise;
  }

  private async openOnce(): Promise<Store | undefined> {
    if (this.host.globals.store === false) {
      this.host.term.notice('--no-store: answers are neither taken from nor kept in the store; this run may pay again for what was bought before.');
      return undefined;
    }
    const { openStore } = await import('../lib/store/open.js');
    this.openedStore = await openStore({ file: await this.address(), env: this.host.deps.env, busyTimeoutMs: this.busyTimeoutMs(), readOnly: this.host.dryRun });
    return this.openedStore;
  }

  /** The store if this run opened it already (the shared pace takes its slots from it), else undefined. */
  get opened(): Store | undefined {
    return this.openedStore;
  }

  /** `CREATORS_STORE_BUSY_TIMEOUT` (seconds) in milliseconds, or undefined for the engine's default. */
  private busyTimeoutMs(): number | undefined {
    const raw = this.host.deps.env.CREATORS_STORE_BUSY_TIMEOUT;
    const busyS = raw === undefined || raw === '' ? undefined : Number(raw);
    if (busyS !== undefined && !(Number.isFinite(busyS) && busyS >= 0)) throw new UsageError(`Invalid CREATORS_STORE_BUSY_TIMEOUT '${raw}': expected seconds, 0 or more.`);
    return busyS === undefined ? undefined : busyS * 1000;
  }

  /**
   * The store as the `store` and `spend` commands see it, whatever `--no-store` says (they are about
   * the store, not buying through it): opened read-only, unless `write` outside a dry run, and never
   * created; undefined when this profile has none yet. Not the purchase memory: nothing is bought
   * through it and it takes no part in the shared pace. Closed by `close()`.
   */
  async local(o: { write?: boolean; file?: string; migrate?: boolean } = {}): Promise<Store | undefined> {
    const { openStore, isPgUrl } = await import('../lib/store/open.js');
    const file = o.file ?? (await this.address());
    if (!isPgUrl(file) && !existsSync(file)) return undefined;
    const dryRun = this.host.dryRun;
    const store = await openStore({ file, env: this.host.deps.env, busyTimeoutMs: this.busyTimeoutMs(), readOnly: !o.write || dryRun, migrate: o.migrate && !dryRun });
    if (store) this.localStores.push(store);
    return store;
  }

  /** The freshness windows of this run: `--max-age` > CREATORS_MAX_AGE > the `max-age` setting > per kind defaults. */
  async maxAge(): Promise<MaxAge> {
    const { DEFAULT_MAX_AGE_MS } = await import('../lib/store/memory.js');
    const env = this.host.deps.env;
    const flag = this.host.globals.maxAge;
    // A parsed --max-age (null: the flag given empty, the per-kind defaults).
    if (flag !== undefined) return flag === null ? { ...DEFAULT_MAX_AGE_MS } : { creator: flag, page: flag };
    const raw = env.CREATORS_MAX_AGE ?? (await this.host.setting('max-age'));
    if (raw === undefined || raw.trim() === '') return { ...DEFAULT_MAX_AGE_MS };
    const { parseDuration } = await import('../lib/options.js');
    const ms = parseDuration(raw, env.CREATORS_MAX_AGE !== undefined ? 'CREATORS_MAX_AGE' : 'max-age setting');
    return { creator: ms, page: ms };
  }

  /** The purchase memory of this run (lib/store/memory.ts), or undefined without a store. */
  memory(): Promise<PurchaseMemoryImpl | undefined> {
    this.memoryPromise ??= (async () => {
      const store = await this.open();
      if (!store) return undefined;
      const { PurchaseMemoryImpl } = await import('../lib/store/memory.js');
      const { deps } = this.host;
      // The response cap (checked when the HTTP client is made): no answer is kept bigger than an answer may be.
      const capMb = Number(deps.env.CREATORS_MAX_RESPONSE_MB);
      return new PurchaseMemoryImpl({
        maxAnswerBytes: Number.isFinite(capMb) && capMb > 0 ? Math.round(capMb * 1024 * 1024) : undefined,
        store,
        baseUrl: (await this.host.baseUrl()).href,
        profile: this.host.profileName,
        command: this.host.command,
        maxAge: await this.maxAge(),
        now: deps.now,
        sleep: deps.sleep,
        signal: deps.signal,
      });
    })();
    return this.memoryPromise;
  }

  /** The purchase memory if this run made it (a run that bought or set a budget), without making it. */
  async madeMemory(): Promise<PurchaseMemoryImpl | undefined> {
    return this.memoryPromise?.catch(() => undefined);
  }

  /**
   * The answer the store would give this billable request now (marked as from the store), or undefined
   * (not held, not fresh, or no store): what a run's plan names and does not price. Only a look. An
   * answer within a few minutes of leaving its window is not counted: the run may reach it after it
   * has left, and then buys it, so the plan prices it (its worst case stays a bound).
   */
  async storedAnswer(plan: Plan): Promise<unknown> {
    const memory = await this.memory();
    const window = plan.purchase ? memory?.windowFor(plan.purchase) : undefined;
    const hit = window === undefined ? undefined : await memory?.peek(plan, Math.min(STORED_MARGIN_MS, window / 10));
    return hit === undefined ? undefined : (await import('../lib/store/memory.js')).storedData(hit);
  }

  /**
   * A finished command whose paid answers the store could not keep (a full disk) fails: what was paid
   * for was printed, and the error says where the store is and what to do.
   */
  async finish(): Promise<void> {
    const memory = await this.madeMemory();
    if (memory?.failure !== undefined) throw memory.failure;
  }

  /** `--restart` of a bulk run: this run buys fresh, whatever the store holds (as `--max-age 0`). */
  buyFresh(): void {
    this.host.globals.maxAge = 0;
  }

  /**
   * The end of the run: what came from the store said once, the budget reservation ended, the store
   * closed. Never throws (the command's own result or error stands).
   */
  async close(): Promise<void> {
    try {
      await this.closeOpened();
    } finally {
      for (const store of this.localStores.splice(0)) await store.close().catch(() => undefined);
    }
  }

  private async closeOpened(): Promise<void> {
    if (!this.memoryPromise && !this.storePromise) return;
    const term = this.host.term;
    try {
      const memory = await this.madeMemory();
      if (memory) {
        // Paid answers a team store out of reach missed: kept once it is back, or in the local file.
        const settled = await memory.settle(async () => {
          const where = await this.localFile();
          const { openStore } = await import('../lib/store/open.js');
          const store = await openStore({ file: where, busyTimeoutMs: this.busyTimeoutMs() });
          if (store) this.localStores.push(store);
          return store ? { store, where } : undefined;
        });
        if (settled) term.warn(settled);
        const { reuseNotice } = await import('../lib/store/open.js');
        const line = memory.announced ? undefined : reuseNotice(memory.tally);
        if (line) term.notice(line);
        await this.openedStore?.endRun(memory.holder.run).catch(() => undefined);
      }
      await this.openedStore?.close();
    } catch {
      // Closing must not hide the command's outcome.
    }
  }
}

/** How long before its window ends a stored answer stops counting in a run's plan (at most a tenth of the window). */
const STORED_MARGIN_MS = 5 * 60_000;
