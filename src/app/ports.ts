import type { Plan } from '../lib/api/plan.js';
import type { LoginPorts } from '../lib/auth/login.js';
import type { RunPorts } from '../lib/batch/run.js';
import type { UploadPorts } from '../lib/batch/upload.js';
import type { WaitPorts } from '../lib/batch/wait.js';
import type { EnrichPorts } from '../lib/bulk/enrich.js';
import type { EntriesPorts } from '../lib/discovery/exclusions.js';
import type { DiscoveryInputPorts } from '../lib/discovery/input.js';
import type { DiscoveryPorts } from '../lib/discovery/run.js';
import type { BodyPorts } from '../lib/body.js';
import type { TailDeps } from '../lib/events/tail.js';
import type { HttpClient } from '../lib/http/client.js';
import type { ListeningPorts } from '../lib/listening/workflows.js';
import type { OutputSettings } from '../lib/output/types.js';
import type { Context } from './context.js';

/**
 * The HTTP client, always a thunk: built once per run (`ctx.http()`) and only when something is sent,
 * so undici and the config file stay unloaded until then.
 */
interface Client {
  http(): Promise<HttpClient>;
}

function client(ctx: Context): Client {
  return { http: () => ctx.http() };
}

/**
 * The client built now, where the command always built it before its workflow starts: a bad
 * `--timeout` or base URL fails here, before the output settings are read and before a dry run's plan.
 */
async function clientNow(ctx: Context): Promise<Client> {
  await ctx.http();
  return client(ctx);
}

/** The client and the money gate every paying workflow takes. */
function paying(c: Client, ctx: Context): Client & { gate(plan: Plan): Promise<boolean> } {
  return { ...c, gate: (plan) => ctx.money.gate(plan) };
}

/**
 * Every workflow's ports, built from the Context in this one place (verbs ask `ports.discovery(ctx)`;
 * lib never sees the Context). Static imports here are types only: verb files import this module.
 */
export const ports = {
  /**
   * Reading the shared Discovery flags: with `--skip-bought` (flag, else the `skip-bought` setting)
   * the creators the store says were bought within the creator window.
   */
  async discoveryInput(ctx: Context, flags: { skipBought?: boolean | undefined }): Promise<DiscoveryInputPorts> {
    const on = flags.skipBought ?? (await ctx.config.setting('skip-bought')) === 'true';
    return {
      input: ctx.term,
      filters: async (source) => {
        const [{ readInputJson }, { UsageError }] = await Promise.all([
          import('../lib/io/input.js'),
          import('../lib/errors.js'),
        ]);
        const base = await readInputJson(ctx.term, source, '--filters');
        if (base === null || typeof base !== 'object' || Array.isArray(base)) {
          throw new UsageError('--filters must hold a JSON object of filters.', {
            hint: 'e.g. {"number_of_followers": {"min": 10000}}',
          });
        }
        return base as Record<string, unknown>;
      },
      notices: ctx.term,
      bought: on
        ? {
            creators: async (platform) => {
              const store = await ctx.store.open();
              const windowMs = (await ctx.store.maxAge()).creator;
              // --no-store: nothing to ask. A dry run before any store exists: nothing bought yet.
              if (!store) return ctx.globals.store === false ? undefined : { handles: [], windowMs };
              const handles =
                windowMs > 0
                  ? await store.boughtCreators((await ctx.config.baseUrl()).href, platform, ctx.deps.now() - windowMs)
                  : [];
              return { handles, windowMs };
            },
            told: async (outcome) => (await import('./skip-bought.js')).tellSkipBought(ctx.term, outcome),
          }
        : undefined,
    };
  },

  /** A listening body's `--body`: read from a file or stdin, refused when it is not a JSON object. */
  body(ctx: Context): BodyPorts {
    return {
      async bodyObject(source) {
        const [{ readInputJson }, { UsageError }] = await Promise.all([
          import('../lib/io/input.js'),
          import('../lib/errors.js'),
        ]);
        const parsed = await readInputJson(ctx.term, source, '--body');
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          throw new UsageError(`--body '${source}' must hold a JSON object, e.g. {"name": "Launch watch"}.`);
        }
        return parsed as Record<string, unknown>;
      },
    };
  },

  /** The Discovery workflow (search and similar alike). */
  async discovery(ctx: Context): Promise<DiscoveryPorts> {
    const { pageBase } = await import('../lib/discovery/paging.js');
    return {
      ...paying(await clientNow(ctx), ctx),
      // What the store would answer: pages a run takes from it are not priced (nor bought).
      stored: (plan) => ctx.store.storedAnswer(plan),
      storeClause: () => ctx.store.storeClause(),
      output: await ctx.output(),
      confirmRest: (rest) => ctx.money.confirmRest(rest),
      term: ctx.term,
      now: ctx.deps.now,
      pageBase: pageBase(ctx.deps.env.CREATORS_PAGE_BASE ?? (await ctx.config.setting('page-base'))),
      dryRun: ctx.dryRun,
      hasCredential: async () => (await ctx.credential()) !== undefined,
      signal: ctx.deps.signal,
    };
  },

  /**
   * Bulk enrichment: the client and output settings are built when the run reaches them (a bad input
   * file is reported first); the purchase memory answers the rows already bought.
   */
  async bulk(ctx: Context, o: { restart?: boolean | undefined } = {}): Promise<EnrichPorts> {
    const policy = await ctx.money.policy();
    if (o.restart) ctx.store.buyFresh();
    return {
      ...paying(client(ctx), ctx),
      term: ctx.term,
      output: () => ctx.output(),
      // A dry run and a budget need the rows counted before anything is sent.
      mustCount: policy.dryRun || policy.maxCreditsMilli !== undefined,
      now: ctx.deps.now,
      signal: ctx.deps.signal,
      memory: () => ctx.store.memory(),
    };
  },

  /** The listening workflows (create, update, delete, add and remove creators). */
  async listening(ctx: Context): Promise<ListeningPorts> {
    return {
      ...paying(await clientNow(ctx), ctx),
      term: ctx.term,
      dryRun: ctx.dryRun,
      now: ctx.deps.now,
      charged: (after) => ctx.money.billed(after),
      named: { budget: '--max-credits' },
    };
  },

  /** `exclusions add|remove`. */
  async entries(ctx: Context): Promise<EntriesPorts> {
    return { ...paying(await clientNow(ctx), ctx), term: ctx.term, output: await ctx.output() };
  },

  /** `batch upload`. */
  upload(ctx: Context, output: OutputSettings): UploadPorts {
    return { ...paying(client(ctx), ctx), term: ctx.term, output, opened: (job) => ctx.store.noteJob(job) };
  },

  /** `batch run`: the journal lives in the config directory. */
  async batchRun(ctx: Context): Promise<RunPorts> {
    const { configDirectory } = await import('../lib/config.js');
    return {
      ...paying(client(ctx), ctx),
      term: ctx.term,
      now: ctx.deps.now,
      sleep: ctx.deps.sleep,
      signal: ctx.deps.signal,
      journalDir: configDirectory(ctx.deps),
      charged: (status) => ctx.store.logJob(status),
      opened: (job) => ctx.store.noteJob(job),
    };
  },

  /** `login`: the profile's config store, where the registered client and the tokens are saved. */
  async login(ctx: Context): Promise<LoginPorts> {
    return {
      ...paying(client(ctx), ctx),
      store: await ctx.config.store(),
      baseUrl: await ctx.config.baseUrl(),
      now: ctx.deps.now,
      signal: ctx.deps.signal,
      term: ctx.term,
      env: ctx.deps.env,
      openBrowser: ctx.deps.openBrowser,
    };
  },

  /** `batch poll`: waiting for a job (the client built first, as the command always did). */
  async batchWait(ctx: Context): Promise<WaitPorts> {
    return {
      ...(await clientNow(ctx)),
      term: ctx.term,
      now: ctx.deps.now,
      sleep: ctx.deps.sleep,
      signal: ctx.deps.signal,
      charged: (status) => ctx.store.logJob(status),
    };
  },

  /** `events tail`: the command adds how events are printed (`emit`) and how a forward's status is shown. */
  async tail(ctx: Context): Promise<Omit<TailDeps, 'emit' | 'forwardStatus'>> {
    return {
      ...(await clientNow(ctx)),
      now: ctx.deps.now,
      sleep: ctx.deps.sleep,
      signal: ctx.deps.signal,
      dispatcher: ctx.deps.dispatcher,
      warn: (m) => ctx.term.warn(m),
      notice: (m) => ctx.term.notice(m),
    };
  },
};
