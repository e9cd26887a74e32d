import { lstatSync } from 'node:fs';
import type { Plan } from '../../lib/api/plan.js';
import type { BatchStatus } from '../../lib/api/batch-status.js';
import type { RequestOptions } from '../../lib/http/types.js';
import { configDirectory } from '../../lib/config.js';
import { UsageError } from '../../lib/errors.js';
import type { Terminal } from '../../lib/io/terminal.js';
import type { MaxAge, PurchaseMemoryImpl } from '../../lib/store/memory.js';
import type { StoreAddress } from '../../lib/store/location.js';
import type { OpenOptions } from '../../lib/store/open.js';
import type { Store } from '../../lib/store/types.js';
import type { Deps } from '../deps.js';
import type { ProfileConfig } from './config.js';

/** What the store port is built from (context.ts hands it the run's globals, terminal and profile config). */
export interface StoreHost {
  readonly deps: Deps;
  readonly globals: { store?: boolean | undefined; maxAge?: number | null | undefined };
  readonly profileName: string;
  readonly dryRun: boolean;
  readonly term: Terminal;
  /** The command being run, for the spend log (set by program.ts before the run). */
  readonly command: string;
  /** The profile's settings, base URL and answer cap (`CREATORS_MAX_RESPONSE_MB`, as the HTTP client has it). */
  readonly config: Pick<ProfileConfig, 'setting' | 'baseUrl' | 'maxResponseBytes'>;
}

/**
 * The profile's purchase store, one port for the run (`ctx.store`): where it is, the store opened once
 * for buying through (the purchase memory, the shared pace, budgets), and the store as the `store` and
 * `spend` commands see it. Nothing is loaded until a command asks: free reads never open it.
 */
export class StorePort {
  private storePromise: Promise<Store | undefined> | undefined;
  private memoryPromise: Promise<PurchaseMemoryImpl | undefined> | undefined;
  /** With `--no-store`: the store opened only to log this run's charges. */
  private spendOnly: Promise<PurchaseMemoryImpl | undefined> | undefined;
  /** The store once opened (the shared pace follows it from then on). */
  private openedStore: Store | undefined;
  /** Stores opened by `local` (the `store` and `spend` commands), closed at the end of the run. */
  private readonly localStores: Store[] = [];
  private addressPromise: Promise<StoreAddress> | undefined;

  constructor(private readonly host: StoreHost) {}

  /**
   * Where this profile's store is: `CREATORS_STORE` > the `store` setting > the config directory; a
   * `postgres://` URL is a team store. As given (a URL's password included): for opening it, never for printing.
   */
  private async address(): Promise<string> {
    return (await this.where()).address;
  }

  /** The store's address once for the run: its warning said once, a refused setting refused on each ask (exit 2). */
  private async where(): Promise<StoreAddress> {
    this.addressPromise ??= this.findAddress();
    return this.addressPromise;
  }

  private async findAddress(): Promise<StoreAddress> {
    const { deps, profileName, term } = this.host;
    const [{ isPgUrl, pgTarget }, { storeAddress, storeValuePasswords }] = await Promise.all([
      import('../../lib/store/open.js'),
      import('../../lib/store/location.js'),
    ]);
    const env = deps.env.CREATORS_STORE;
    const setting = env === undefined ? await this.host.config.setting('store') : undefined;
    // A team store's password stays out of every line printed, debug lines and a refused setting's error included.
    for (const password of storeValuePasswords(env ?? setting ?? '')) term.secrets.add(password);
    const found = storeAddress({ configDir: configDirectory(deps), profile: profileName, cwd: deps.cwd, env, setting });
    if (isPgUrl(found.address)) term.secrets.add(pgTarget(found.address, deps.env).password);
    if (found.warning) term.warn(found.warning);
    return found;
  }

  /**
   * The location's rules checked before a paid request, even by a command that opens the store only later
   * or not at all (`api`): a refused setting stops the run before anything is bought. Creates nothing.
   */
  async check(): Promise<void> {
    if (this.host.globals.store === false) return;
    const { address } = await this.where();
    const { isPgUrl, checkStoreFile } = await import('../../lib/store/open.js');
    if (!isPgUrl(address)) checkStoreFile(address);
  }

  /** Where this profile's store is, fit to print: the file, or the team store's URL without its password. */
  async location(): Promise<string> {
    const { storeDisplay } = await import('../../lib/store/open.js');
    return storeDisplay(await this.address(), this.host.deps.env);
  }

  /** How this profile's store is opened (`store migrate|push`, which open it themselves). */
  async openOptions(o: { dryRun?: boolean }): Promise<OpenOptions> {
    const where = await this.where();
    return {
      file: where.address,
      env: this.host.deps.env,
      busyTimeoutMs: this.busyTimeoutMs(),
      readOnly: o.dryRun,
      dryRun: o.dryRun,
      privateFolder: where.isDefault,
    };
  }

  /** This profile's local store file (the default place, whatever `store` says): where `store push` copies from. */
  async localFile(): Promise<string> {
    const { localStoreFile } = await import('../../lib/store/open.js');
    const { deps, profileName } = this.host;
    return localStoreFile({ configDir: configDirectory(deps), profile: profileName, cwd: deps.cwd });
  }

  /** Where this profile keeps paid answers its store could not take (lib/store/outbox.ts), whatever store it uses. */
  async outboxFile(): Promise<string> {
    const { outboxFile } = await import('../../lib/store/outbox.js');
    return outboxFile(configDirectory(this.host.deps), this.host.profileName);
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
      this.host.term.notice(
        '--no-store: answers are neither taken from nor kept in the store; this run may pay again for what was bought before.',
      );
      return undefined;
    }
    const { openStore } = await import('../../lib/store/open.js');
    const where = await this.where();
    const dryRun = this.host.dryRun;
    this.openedStore = await openStore({
      file: where.address,
      env: this.host.deps.env,
      busyTimeoutMs: this.busyTimeoutMs(),
      readOnly: dryRun,
      dryRun,
      privateFolder: where.isDefault,
      now: this.host.deps.now,
      signal: this.host.deps.signal,
    });
    return this.openedStore;
  }

  /** The store if this run opened it already (the shared pace takes its slots from it), else undefined. */
  get opened(): Store | undefined {
    return this.openedStore;
  }

  /** `CREATORS_STORE_BUSY_TIMEOUT` (seconds) in milliseconds, or undefined for the engine's default. */
  private busyTimeoutMs(): number | undefined {
    return this.envSecondsMs('CREATORS_STORE_BUSY_TIMEOUT');
  }

  /** An environment setting in seconds (0 or more) as milliseconds, undefined when unset or empty. */
  private envSecondsMs(name: 'CREATORS_STORE_BUSY_TIMEOUT' | 'CREATORS_STORE_CLAIM_WAIT'): number | undefined {
    const raw = this.host.deps.env[name];
    const seconds = raw === undefined || raw === '' ? undefined : Number(raw);
    if (seconds !== undefined && !(Number.isFinite(seconds) && seconds >= 0))
      throw new UsageError(`Invalid ${name} '${raw}': expected seconds, 0 or more.`);
    return seconds === undefined ? undefined : seconds * 1000;
  }

  /**
   * The store as the `store` and `spend` commands see it, whatever `--no-store` says (they are about
   * the store, not buying through it): opened read-only, unless `write` outside a dry run, and never
   * created; undefined when this profile has none yet. Not the purchase memory: nothing is bought
   * through it and it takes no part in the shared pace. Closed by `close()`.
   */
  async local(o: { write?: boolean; file?: string; migrate?: boolean } = {}): Promise<Store | undefined> {
    const { openStore, isPgUrl } = await import('../../lib/store/open.js');
    const where = o.file === undefined ? await this.where() : undefined;
    const file = o.file ?? (where as StoreAddress).address;
    const dryRun = this.host.dryRun;
    const options = {
      file,
      env: this.host.deps.env,
      busyTimeoutMs: this.busyTimeoutMs(),
      dryRun,
      privateFolder: where?.isDefault,
    };
    // A link or a device is refused even when nothing would be opened (lstat: a dangling link exists too).
    if (!isPgUrl(file) && !lexists(file)) return undefined;
    const store = await openStore({
      ...options,
      readOnly: !o.write || dryRun,
      migrate: o.migrate && !dryRun,
      now: this.host.deps.now,
    });
    if (store) this.localStores.push(store);
    return store;
  }

  /** The freshness windows of this run: `--max-age` > CREATORS_MAX_AGE > the `max-age` setting > per kind defaults. */
  async maxAge(): Promise<MaxAge> {
    const { DEFAULT_MAX_AGE_MS } = await import('../../lib/store/memory.js');
    const env = this.host.deps.env;
    const flag = this.host.globals.maxAge;
    // A parsed --max-age (null: the flag given empty, the per-kind defaults).
    if (flag !== undefined) return flag === null ? { ...DEFAULT_MAX_AGE_MS } : { creator: flag, page: flag };
    const raw = env.CREATORS_MAX_AGE ?? (await this.host.config.setting('max-age'));
    if (raw === undefined || raw.trim() === '') return { ...DEFAULT_MAX_AGE_MS };
    const { parseDuration } = await import('../../lib/options.js');
    const ms = parseDuration(raw, env.CREATORS_MAX_AGE !== undefined ? 'CREATORS_MAX_AGE' : 'max-age setting');
    return { creator: ms, page: ms };
  }

  /** The purchase memory of this run (lib/store/memory.ts), or undefined without a store. */
  memory(): Promise<PurchaseMemoryImpl | undefined> {
    this.memoryPromise ??= (async () => {
      const store = await this.open();
      if (!store) return undefined;
      const outbox = await this.outboxFile();
      // What an earlier run paid for and its store could not take goes in before anything is bought (a dry
      // run changes nothing). A store that still refuses stops the run here: buying would need it too.
      const { drainOutbox, withOutboxAnswers } = await import('../../lib/store/outbox.js');
      if (!this.host.dryRun) {
        const drained = await drainOutbox(outbox, store, `${process.pid}-${this.host.deps.now()}`);
        // Said only for what the store lacked: a line written while a slow commit waited, which then landed, adds nothing.
        const n = drained?.answers ?? 0;
        const charges = drained?.spend ?? 0;
        if (n > 0) {
          this.host.term.notice(
            `${n} paid ${n === 1 ? 'answer' : 'answers'} an earlier run could not keep in the store ${n === 1 ? 'is' : 'are'} in it now (from the outbox ${outbox}).`,
          );
        } else if (charges > 0) {
          this.host.term.notice(
            `${charges} ${charges === 1 ? 'charge' : 'charges'} an earlier run could not log ${charges === 1 ? 'is' : 'are'} in the spend log now (from the outbox ${outbox}).`,
          );
        }
      }
      // A dry run plans as the real run will find the store, the outbox drained.
      return this.memoryOver(this.host.dryRun ? withOutboxAnswers(store, outbox) : store, outbox);
    })();
    return this.memoryPromise;
  }

  private async memoryOver(store: Store, outbox?: string): Promise<PurchaseMemoryImpl> {
    const { PurchaseMemoryImpl } = await import('../../lib/store/memory.js');
    const { deps, term } = this.host;
    // The store's time for what is shared (bought_at, the spend log, budget days): a team store's server's.
    const offset = await store.clockOffset(deps.now);
    if (Math.abs(offset) > CLOCK_SAID_MS) {
      const { spanText } = await import('../../lib/store/views.js');
      term.notice(
        `This machine's clock is ${spanText(offset)} ${offset > 0 ? 'behind' : 'ahead of'} the team store's; its times are used for what is bought and spent.`,
      );
    }
    return new PurchaseMemoryImpl({
      // No answer is kept bigger than an answer may be on the wire.
      maxAnswerBytes: this.host.config.maxResponseBytes(),
      store,
      baseUrl: (await this.host.config.baseUrl()).href,
      profile: this.host.profileName,
      command: this.host.command,
      maxAge: await this.maxAge(),
      claimWaitMs: this.envSecondsMs('CREATORS_STORE_CLAIM_WAIT'),
      now: offset === 0 ? deps.now : () => deps.now() + offset,
      sleep: deps.sleep,
      signal: deps.signal,
      warn: (line) => term.warn(line),
      notice: (line) => term.notice(line),
      outbox: outbox ?? (await this.outboxFile()),
    });
  }

  /**
   * Where this run's charges are logged: the purchase memory; with `--no-store`, a store opened for the spend
   * log alone (cli.md: runs with --no-store are in the spend log; nothing is read from it or kept in it but
   * charges). Undefined in a dry run (nothing is charged), or when a `--no-store` run cannot open it (said once).
   */
  spendLog(): Promise<PurchaseMemoryImpl | undefined> {
    if (this.host.dryRun) return Promise.resolve(undefined);
    if (this.host.globals.store !== false) return this.memory();
    this.spendOnly ??= (async () => {
      const { openStore } = await import('../../lib/store/open.js');
      const store = await openStore({
        file: await this.address(),
        env: this.host.deps.env,
        busyTimeoutMs: this.busyTimeoutMs(),
      });
      if (!store) return undefined;
      this.localStores.push(store);
      return this.memoryOver(store);
    })().catch((err: unknown) => {
      this.host.term.warn(
        `This run's charges are not in the spend log: the store could not be opened (${err instanceof Error ? err.message : String(err)}).`,
      );
      return undefined;
    });
    return this.spendOnly;
  }

  /**
   * Logs what a POST the purchase memory did not see cost (`creators api` without a budget, any purchase with
   * `--no-store`). A free answer opens nothing. A charge the store cannot take fails the command at its end,
   * as a purchase's does; with `--no-store` it is a warning.
   */
  async logCharge(req: RequestOptions, data: unknown): Promise<void> {
    if (this.host.dryRun) return;
    const { readCharge } = await import('../../lib/api/charge.js');
    const charge = readCharge(req, data, true);
    if (!charge.milli && !charge.refused) return;
    const memory = await this.spendLog();
    if (!memory) return;
    await memory.logCharge(req, data).catch((err: unknown) => this.chargeNotLogged(memory, err));
  }

  /** A batch job's charge, read from a status that shows it has stopped charging (lib/store/jobs.ts). */
  async logJob(status: BatchStatus): Promise<void> {
    if (this.host.dryRun || status.phase === 'pending') return;
    const memory = await this.spendLog();
    if (!memory) return;
    try {
      const { logJobCharge } = await import('../../lib/store/jobs.js');
      const { refused } = await logJobCharge(memory, status, memory.now());
      if (refused !== undefined) {
        this.host.term.warn(
          `Batch ${status.batch_id} says it used ${refused} credits, not a charge its ${status.total_rows ?? 'unknown number of'} rows can make; nothing is logged for it.`,
        );
      }
    } catch (err) {
      this.chargeNotLogged(memory, err);
    }
  }

  /** A batch job just created: budgets hold its worst case until it is seen finished (lib/store/jobs.ts). */
  async noteJob(job: { id: string; worstMilli: number; platform?: string | undefined }): Promise<void> {
    if (this.host.dryRun) return;
    const memory = await this.spendLog();
    if (!memory) return;
    try {
      const { noteJobOpen } = await import('../../lib/store/jobs.js');
      await noteJobOpen(memory, job, memory.now());
    } catch (err) {
      this.chargeNotLogged(memory, err);
    }
  }

  private chargeNotLogged(memory: PurchaseMemoryImpl, err: unknown): void {
    if (this.host.globals.store !== false) {
      memory.failure ??= err;
      return;
    }
    this.host.term.warn(
      `This run's charges are not all in the spend log: ${err instanceof Error ? err.message : String(err)}`,
    );
  }

  /**
   * For a summary line that says what came from the store: `, bought within 24 hours; --max-age 0 buys fresh`
   * ('' when nothing did). The end of the run then says nothing more of it: the summary said it once.
   */
  async storeClause(): Promise<string> {
    const memory = await this.madeMemory();
    if (!memory || memory.tally.reused === 0) return '';
    memory.announced = true;
    const { durationText } = await import('../../lib/output/humanize.js');
    const within = memory.tally.windowMs === undefined ? '' : `, bought within ${durationText(memory.tally.windowMs)}`;
    return `${within}; --max-age 0 buys fresh`;
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
    return hit === undefined ? undefined : (await import('../../lib/store/memory.js')).storedData(hit);
  }

  /**
   * A finished command whose paid answers the store could not keep (a full disk) fails: what was paid
   * for was printed, and the error says where the store is and what to do.
   */
  async finish(): Promise<void> {
    const memory = await this.madeMemory();
    if (memory?.failure !== undefined) throw memory.failure;
  }

  private paceSaidAt = Number.NEGATIVE_INFINITY;

  /**
   * A wait for the account's shared pace longer than a few seconds is said (at most every half minute): other
   * runs on the same store are spending the account's rate, and a silent sleep looks like a hang.
   */
  sayPaceWait(waitMs: number, intervalMs: number): void {
    const now = this.host.deps.now();
    // A slow account's own interval is no news.
    if (waitMs < Math.max(PACE_WAIT_SAID_MS, 2 * intervalMs) || now - this.paceSaidAt < 30_000) return;
    this.paceSaidAt = now;
    this.host.term.notice(
      `Waiting ${Math.ceil(waitMs / 1000)} s for the account's rate, shared through the store with other runs using it (creators store doctor shows them).`,
    );
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
        // Paid answers the store could not take: in the outbox, or in the store by now.
        const settled = await memory.settle();
        if (settled) term.warn(settled);
        const { reuseNotice } = await import('../../lib/store/open.js');
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

/** A clock this far from a team store's is said once (NTP keeps honest machines well within it). */
const CLOCK_SAID_MS = 60_000;

/** A pace wait said on stderr from this long. */
const PACE_WAIT_SAID_MS = 5_000;

/** How long before its window ends a stored answer stops counting in a run's plan (at most a tenth of the window). */
const STORED_MARGIN_MS = 5 * 60_000;

/** Whether anything is at `file`, a dangling link included. */
function lexists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
