/**
 * `creators mcp`: the Model Context Protocol server. Each tool call is the CLI command it names, run in this
 * process (run-cli.ts) with the server's profile, credentials, base URL, store and settings, so the plans, the
 * money gate, the budgets and the purchase store are the CLI's own. On top, the rules an agent in a loop needs:
 * a session budget counted from worst cases before sending, and a human asked (elicitation) above confirm-above.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format as formatArgs } from 'node:util';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { BATCH_MODES } from '../../contract/platforms.js';
import { batchRowPriceMilli } from '../../lib/api/batch.js';
import { formatCredits } from '../../lib/words.js';
import { parseJson, stringifyJson } from '../../lib/exact-json.js';
import { escapeControls, escapeJsonC1 } from '../../lib/io/safe-text.js';
import { CliError } from '../../lib/errors.js';
import { closest } from '../../lib/output/fields-check.js';
import type { Context } from '../context.js';
import { CliRunner, forwardedGlobals, type CliRun, type MainFn } from './run-cli.js';
import { openResultsDir, presentFile, resultUri, RESULT_URI_TEMPLATE, safe, type Presented } from './results.js';
import { DEFAULT_BUDGET_CREDITS, TOOLS, type ToolLine, type ToolSpec } from './tools.js';

export interface McpOptions {
  budgetMilli: number | undefined;
  readOnly: boolean;
}

type Args = Record<string, unknown>;

/** The server's version: the package's (dist/ is flat beside ../package.json, as program.ts reads it). */
function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
}

/** Serves until the client closes standard input (or the process is told to stop), then waits for calls in flight. */
export async function serveMcp(ctx: Context, options: McpOptions, main: MainFn): Promise<void> {
  const { io } = ctx.deps;
  // stdout is the protocol's: anything a package logs goes to stderr.
  const toStderr = (...a: unknown[]): void => void io.stderr.write(`${formatArgs(...a)}\n`);
  console.log = console.info = console.debug = console.warn = toStderr;

  const policy = await ctx.money.policy();
  const session = new Session(options, new CliRunner(main, ctx.deps, await forwardedGlobals(ctx)), policy, ctx.deps);
  const server = new McpServer(
    { name: 'creators', title: 'Creator Discovery, Enrichment and Monitoring API', version: version() },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Every paid tool states its price; answers already bought come from the purchase store at 0 credits, so asking again is free. ' +
        `This session may spend ${formatCredits(session.budgetMilli)} credits (worst cases counted before sending). ` +
        'Call quote (free) to price a call without sending it, and store_lookup (free) to see what is already held. ' +
        'Every result states the credits it spent and the balance left.',
    },
  );
  session.server = server;

  const served = TOOLS.filter((t) => !options.readOnly || (!t.paid && !t.writes));
  for (const spec of served) {
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: strictInput(spec.input),
        annotations: {
          title: spec.title,
          readOnlyHint: !spec.writes,
          destructiveHint: false,
          idempotentHint: spec.idempotent,
          openWorldHint: spec.openWorld,
        },
      },
      (args: Args) => session.track(session.call(spec, args)),
    );
  }
  const quotable = TOOLS.filter((t) => t.paid).map((t) => t.name) as [string, ...string[]];
  server.registerTool(
    'quote',
    {
      title: 'Price a call without sending it',
      description:
        'Free: the worst-case cost of a paid tool call with these arguments, after what the store already holds (those parts cost 0). ' +
        'Nothing is sent or bought. Use it before a call that may be expensive.',
      inputSchema: strictInput({
        tool: z.enum(quotable, {
          error: (i) => `Unknown paid tool '${String(i.input)}'. Paid tools: ${quotable.join(', ')}.`,
        }),
        arguments: z.record(z.string(), z.unknown()).optional().describe('the arguments the call would take'),
      }),
      annotations: {
        title: 'Price a call without sending it',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    (args: { tool: string; arguments?: Args | undefined }) =>
      session.track(session.quoteTool(args.tool, args.arguments ?? {})),
  );
  server.registerResource(
    'results',
    new ResourceTemplate(RESULT_URI_TEMPLATE, {
      list: () => ({
        resources: session.resultFiles().map((name) => ({ uri: resultUri(name), name, mimeType: mimeOf(name) })),
      }),
    }),
    {
      title: 'Whole results of earlier tool calls',
      description: 'A large tool result in full, in the format the call asked for',
    },
    (uri, variables) => {
      const name = String(variables.name);
      if (!session.resultFiles().includes(name)) throw new Error(`No result named ${name}.`);
      // The file keeps the CLI's -o bytes; what reaches the model is sanitised as the inline rows are (csv/tsv keep strangers' raw control and bidi characters).
      const text = readFileSync(join(session.resultsDir, name), 'utf8');
      return { contents: [{ uri: uri.href, mimeType: mimeOf(name), text: safe(text, extensionOf(name)) }] };
    },
  );

  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => {
    io.stdin.once('end', resolve);
    io.stdin.once('close', resolve);
    ctx.deps.signal?.addEventListener('abort', () => resolve(), { once: true });
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  ctx.term.notice(
    `creators mcp: ${served.length + 1} tools${options.readOnly ? ' (read-only: free tools only)' : ''}, session budget ${formatCredits(session.budgetMilli)} credits; large results in ${session.resultsDir}.`,
  );
  await closed;
  // A client gone mid-call: what is in flight finishes, so a paid answer lands in the store.
  await session.settled();
  await server.close().catch(() => undefined);
}

/**
 * An argument the tool does not know is refused, not dropped: a misspelt `Mode` or `max_result` silently left
 * out would buy the default (a full enrichment, a bigger search) instead of what the agent asked for.
 */
function strictInput<S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      return (
        issue.keys
          .map((key) => {
            const near = closest(key, known);
            return `Unknown argument '${key}'${near ? `: did you mean ${near}?` : '.'} Nothing was sent.`;
          })
          .join(' ') + ` This tool takes: ${known.join(', ') || 'no arguments'}.`
      );
    },
  });
}

function removeAll(paths: readonly string[]): void {
  for (const path of paths) rmSync(path, { force: true });
}

function extensionOf(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

function mimeOf(name: string): string {
  if (name.endsWith('.csv')) return 'text/csv';
  if (name.endsWith('.tsv')) return 'text/tab-separated-values';
  if (name.endsWith('.jsonl')) return 'application/jsonl';
  return 'application/json';
}

/** The most a batch row can cost: the highest price of the modes a job can run. */
const BATCH_PRICE_MAX_MILLI = Math.max(...BATCH_MODES.map((m) => batchRowPriceMilli(m)));

interface Quote {
  worstMilli: number | null;
  basis: string | null;
}

/** One client's session: the budget, the paid calls one at a time, the calls in flight, the results folder. */
class Session {
  server: McpServer | undefined;
  readonly budgetMilli: number;
  private spentMilli = 0;
  private paidQueue: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Set<Promise<unknown>>();
  private resultsDirPath: string | undefined;
  private counter = 0;

  constructor(
    options: McpOptions,
    private readonly runner: CliRunner,
    private readonly policy: { maxCreditsMilli: number | undefined; confirmAboveMilli: number },
    private readonly deps: { env: Record<string, string | undefined>; now(): number },
  ) {
    this.budgetMilli = options.budgetMilli ?? DEFAULT_BUDGET_CREDITS * 1000;
  }

  get resultsDir(): string {
    this.resultsDirPath ??= openResultsDir(this.deps.env, this.deps.now());
    return this.resultsDirPath;
  }

  resultFiles(): string[] {
    if (this.resultsDirPath === undefined) return [];
    return readdirSync(this.resultsDirPath).filter((n) => !n.startsWith('.') && !n.startsWith('input-'));
  }

  track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** A tool call; never throws: every failure is a tool result with isError and the CLI's one-line cause. */
  async call(spec: ToolSpec, args: Args): Promise<CallToolResult> {
    try {
      if (!spec.paid) return await this.run(spec, args, undefined);
      // Paid calls one at a time: the budget check and the purchase are one step for the session.
      const turn = this.paidQueue.then(() => this.paidCall(spec, args));
      this.paidQueue = turn.catch(() => undefined);
      return await turn;
    } catch (err) {
      return this.failure(errorText(err), 0);
    }
  }

  private async paidCall(spec: ToolSpec, args: Args): Promise<CallToolResult> {
    const quote = await this.quote(spec, args);
    if ('failed' in quote) return quote.failed;
    const worst = quote.worstMilli;
    const left = this.budgetMilli - this.spentMilli;
    if (worst === null) {
      return this.failure(
        `The cost of this call cannot be known in advance, so the session budget cannot bound it; nothing was sent.\nAsk for fewer pages (pages) or a bounded count (max_results).`,
        0,
      );
    }
    if (worst > left) {
      return this.failure(
        `Session budget reached: this call may cost up to ${formatCredits(worst)} credits${quote.basis ? ` (${quote.basis})` : ''}, and this session has spent ` +
          `${formatCredits(this.spentMilli)} of its ${formatCredits(this.budgetMilli)} credits (${formatCredits(Math.max(0, left))} left). Nothing was sent.\n` +
          `To allow more, the user restarts the server with a higher budget (creators mcp --budget ${Math.ceil(Math.max(this.budgetMilli * 2, this.spentMilli + worst) / 1000)}), ` +
          'or asks for less (a smaller limit or max_results, fewer handles, a cheaper mode).',
        0,
      );
    }
    if (worst > this.policy.confirmAboveMilli) {
      const refused = await this.confirm(worst, quote.basis, args.confirm_credits);
      if (refused) return refused;
    }
    // The CLI's gate bounds the run again by what the session has left (and the profile's own max-credits).
    const cap = this.policy.maxCreditsMilli === undefined ? left : Math.min(left, this.policy.maxCreditsMilli);
    return this.run(spec, args, cap, worst);
  }

  /** Above confirm-above: the user is asked when the client can ask, else the call is refused with its cost. */
  private async confirm(worst: number, basis: string | null, confirmed: unknown): Promise<CallToolResult | undefined> {
    const cost = `${formatCredits(worst)} credits${basis ? ` (${basis})` : ''}`;
    const threshold = formatCredits(this.policy.confirmAboveMilli);
    const server = this.server;
    // Form elicitation (an empty `elicitation: {}` is read as form by the SDK); a client with URL mode alone is refused as one without.
    // A client that can ask the user is always asked: confirm_credits is the agent's word, not the user's.
    if (server?.server.getClientCapabilities()?.elicitation?.form) {
      const answer = await server.server
        .elicitInput({
          mode: 'form',
          message: `This call may cost up to ${cost}, above your confirm-above setting (${threshold} credits). Spend it?`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: `Spend up to ${formatCredits(worst)} credits` } },
            required: ['confirm'],
          },
        })
        .catch(() => undefined);
      // Only an explicit yes buys: an accept without content, or with anything but true, is not one.
      if (answer?.action === 'accept' && answer.content?.confirm === true) return undefined;
      if (answer !== undefined)
        return this.failure(
          `The user did not agree to spend up to ${cost}; nothing was sent and nothing was bought.`,
          0,
        );
      // The client could not ask (an error, no answer in time): as a client without elicitation.
    }
    if (typeof confirmed === 'number' && Math.round(confirmed * 1000) >= worst) return undefined;
    return this.failure(
      `This call may cost up to ${cost}, above the confirm-above setting (${threshold} credits); nothing was sent.\n` +
        `Ask the user; if they agree, call again with confirm_credits: ${formatCredits(worst)}.`,
      0,
    );
  }

  /** The plan of a call as `--dry-run` prints it: the worst case after what the store holds. Nothing is sent. */
  private async quote(spec: ToolSpec, args: Args): Promise<Quote | { failed: CallToolResult }> {
    if (spec.name === 'batch_resume') return this.resumeQuote(String(args.id));
    const { line, inputs } = this.lineOf(spec, args);
    const dry = await this.runner
      .run([...line.argv, '--dry-run', '--json'], line.stdin)
      .finally(() => removeAll(inputs));
    if (dry.code !== 0) return { failed: await this.cliFailure(dry) };
    const plans = jsonDocuments(dry.stdout).filter(
      (p): p is { worst_case_credits: number | null; cost_basis: string | null } =>
        typeof p === 'object' && p !== null && 'worst_case_credits' in p,
    );
    if (plans.length === 0) return { worstMilli: 0, basis: 'free' };
    let worst: number | null = 0;
    for (const p of plans)
      worst = worst === null || p.worst_case_credits === null ? null : worst + Math.round(p.worst_case_credits * 1000);
    return {
      worstMilli: worst,
      basis:
        plans
          .map((p) => p.cost_basis)
          .filter(Boolean)
          .join('; ') || null,
    };
  }

  /** A resumed job charges its remaining rows as it runs (the CLI's plan says 0): at most the highest batch price each. */
  private async resumeQuote(id: string): Promise<Quote | { failed: CallToolResult }> {
    const status = await this.runner.run(['batch', 'status', id, '--json']);
    if (status.code !== 0) return { failed: await this.cliFailure(status) };
    const found = jsonDocuments(status.stdout)[0] as { total_rows?: unknown; processed_rows?: unknown } | undefined;
    const { total_rows: total, processed_rows: processed } = found ?? {};
    if (typeof total !== 'number' || typeof processed !== 'number') return { worstMilli: null, basis: null };
    const remaining = Math.max(0, total - processed);
    return {
      worstMilli: remaining * BATCH_PRICE_MAX_MILLI,
      basis: `${remaining} rows not yet processed x ${formatCredits(BATCH_PRICE_MAX_MILLI)}, the highest batch price`,
    };
  }

  /** The `quote` tool. */
  async quoteTool(name: string, args: Args): Promise<CallToolResult> {
    try {
      const spec = TOOLS.find((t) => t.name === name);
      if (!spec) return this.failure(`Unknown tool '${name}'.`, 0);
      const parsed = strictInput(spec.input).safeParse(args);
      if (!parsed.success)
        return this.failure(
          `Invalid arguments for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}`,
          0,
        );
      const quote = await this.quote(spec, parsed.data as Args);
      if ('failed' in quote) return quote.failed;
      const left = this.budgetMilli - this.spentMilli;
      const worst = quote.worstMilli;
      const lines = [
        worst === null
          ? 'Worst case: cannot be known in advance (the session budget refuses it).'
          : `Worst case: ${formatCredits(worst)} credits${quote.basis ? ` (${quote.basis})` : ''}. Nothing was sent.`,
        `Session: ${formatCredits(this.spentMilli)} of ${formatCredits(this.budgetMilli)} credits spent, ${formatCredits(Math.max(0, left))} left.`,
        worst !== null && worst > left ? 'This call is above what the session has left: it would be refused.' : '',
        worst !== null && worst > this.policy.confirmAboveMilli
          ? `Above the confirm-above setting (${formatCredits(this.policy.confirmAboveMilli)} credits): the user is asked first.`
          : '',
      ];
      lines.push(await this.moneyLine(0, 0));
      return {
        content: [{ type: 'text', text: lines.filter(Boolean).join('\n') }],
        structuredContent: { worst_case_credits: worst === null ? null : worst / 1000, cost_basis: quote.basis },
      };
    } catch (err) {
      return this.failure(errorText(err), 0);
    }
  }

  /** Runs the call for real (`capMilli`: its `--max-credits`), writing its data to a file in the asked format. */
  private async run(
    spec: ToolSpec,
    args: Args,
    capMilli: number | undefined,
    worstMilli?: number,
  ): Promise<CallToolResult> {
    const { line, inputs } = this.lineOf(spec, args);
    const narrowed = spec.narrow !== undefined && args.handles !== undefined;
    const format = narrowed ? 'json' : typeof args.format === 'string' ? args.format : 'json';
    const file = join(this.resultsDir, `${String(++this.counter).padStart(3, '0')}-${spec.name}.${format}`);
    const argv = [...line.argv, '--format', format, '-o', file];
    if (capMilli !== undefined) argv.push('--max-credits', formatCredits(Math.max(0, capMilli)));
    const real = await this.runner.run(argv, line.stdin).finally(() => removeAll(inputs));
    // A job charged as it runs holds its worst case against the session at once.
    this.spentMilli +=
      spec.chargesLater && real.code === 0 ? Math.max(real.spentMilli, worstMilli ?? 0) : real.spentMilli;
    if (real.code !== 0) return this.cliFailure(real);
    if (narrowed && existsSync(file))
      writeFileSync(
        file,
        `${escapeJsonC1(stringifyJson(spec.narrow?.(parseJson(readFileSync(file, 'utf8')), args), 2))}\n`,
      );
    const shown = presentFile(file, format, real.stdout);
    return this.result(real, shown);
  }

  /** The call's command line, and the input files it wrote (the user's handles or emails: removed once read). */
  private lineOf(spec: ToolSpec, args: Args): { line: ToolLine; inputs: string[] } {
    const inputs: string[] = [];
    const line = spec.line(args, (name, content) => {
      const path = join(this.resultsDir, `input-${name}`);
      writeFileSync(path, content, { mode: 0o600 });
      inputs.push(path);
      return path;
    });
    return { line, inputs };
  }

  private async result(run: CliRun, shown: Presented): Promise<CallToolResult> {
    const text = [await this.moneyLine(run.spentMilli, run.reused), ...notes(run.stderr), '', shown.text].join('\n');
    const content: CallToolResult['content'] = [{ type: 'text', text }];
    if (shown.file)
      content.push({
        type: 'resource_link',
        uri: resultUri(shown.file.name),
        name: shown.file.name,
        mimeType: mimeOf(shown.file.name),
        description: `the whole result (${shown.file.summary})`,
      });
    return { content };
  }

  /** A failed command: the CLI's one-line cause and next step, with what was spent. */
  private async cliFailure(run: CliRun): Promise<CallToolResult> {
    const error = cliError(run.stderr);
    const lines = [error, ...notes(run.stderr).filter((n) => !error.includes(n))];
    return this.failure(lines.join('\n'), run.spentMilli, run.reused);
  }

  private async failure(message: string, spentMilli: number, reused = 0): Promise<CallToolResult> {
    // The CLI's JSON error line decodes to the raw text: a service's message or an echoed id may carry controls.
    return {
      content: [{ type: 'text', text: `${escapeControls(message)}\n${await this.moneyLine(spentMilli, reused)}` }],
      isError: true,
    };
  }

  /** Credits spent by the call, what came from the store, the balance left and the session's spend. */
  private async moneyLine(spentMilli: number, reused: number): Promise<string> {
    const fromStore =
      reused > 0 ? ` (${reused} ${reused === 1 ? 'answer' : 'answers'} from the store at 0 credits)` : '';
    const session = `Session: ${formatCredits(this.spentMilli)} of ${formatCredits(this.budgetMilli)} credits.`;
    return `Spent ${formatCredits(spentMilli)} credits${fromStore}. Balance: ${await this.balance()}. ${session}`;
  }

  private async balance(): Promise<string> {
    try {
      const run = await this.runner.run(['credits', '--json']);
      const found = jsonDocuments(run.stdout)[0] as { credits_available?: unknown } | undefined;
      if (run.code === 0 && found?.credits_available !== undefined) return `${String(found.credits_available)} credits`;
      // Its cause alone: the next step is the call's own (the same hint twice in a result is noise).
      return `unknown (${escapeControls(cliError(run.stderr).split('\n')[0] ?? '')})`;
    } catch (err) {
      return `unknown (${errorText(err)})`;
    }
  }
}

/** The JSON documents of a command's output (one, or several one after another). */
function jsonDocuments(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  try {
    return [JSON.parse(trimmed)];
  } catch {
    return trimmed
      .split(/\n(?=[{[])/)
      .map((part) => {
        try {
          return JSON.parse(part) as unknown;
        } catch {
          return undefined;
        }
      })
      .filter((d) => d !== undefined);
  }
}

/** The CLI's error line (JSON in json mode: message, then its hint), else its stderr as written. */
function cliError(stderr: string): string {
  for (const line of stderr.split('\n').reverse()) {
    if (!line.startsWith('{"error"')) continue;
    try {
      const { error } = JSON.parse(line) as {
        error: { message: string; hint?: string | null; retry_after?: number | null };
      };
      const wait = error.retry_after ? ` Retry after ${error.retry_after} s.` : '';
      return `${error.message}${wait}${error.hint ? `\n${error.hint}` : ''}`;
    } catch {
      break;
    }
  }
  return stderr.trim() || 'The command failed without a message.';
}

/** Notices and warnings the command wrote (already sanitised by the terminal), without its error line. */
function notes(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('{"error"'))
    .map((l) => `Note: ${l}`);
}

function errorText(err: unknown): string {
  if (err instanceof CliError) return `${err.message}${err.hint ? `\n${err.hint}` : ''}`;
  return err instanceof Error ? err.message : String(err);
}
