import { defineCommand, integer, type ValueKind } from '../app/command.js';
import { UsageError } from '../lib/errors.js';

/** The starting balance: the sandbox's ledger holds thousandths of a credit. */
const BALANCE: ValueKind<number> = {
  parse(raw, flag) {
    const credits = Number(raw);
    if (
      !Number.isFinite(credits) ||
      credits < 0 ||
      credits > 1e9 ||
      Math.abs(credits * 1000 - Math.round(credits * 1000)) > 1e-6
    ) {
      throw new UsageError(
        `Invalid ${flag} '${raw}': expected a number from 0 to 1000000000 with at most three decimals.`,
      );
    }
    return credits;
  },
};

/**
 * `creators sandbox`: the local API in the foreground until Ctrl-C (or SIGTERM), then exit 0. On a terminal it prints
 * how to use it; piped, it prints one JSON line `{base_url, api_key}` for scripts. It answers only to a loopback Host,
 * its control routes take only JSON, and OAuth clients may register loopback redirect URIs only (plus --allow-redirect).
 */
export default defineCommand({
  name: 'sandbox',
  description: 'Run the local sandbox API in the foreground and print its base URL and a key',
  endsOnCtrlC: true,
  flags: {
    port: {
      flags: '--port <n>',
      description: 'port to listen on (default: a free one)',
      value: integer({
        min: 0,
        check: (n, _raw, flag) =>
          n > 65535 ? new UsageError(`Invalid ${flag} '${n}': expected 0 (any free port) to 65535.`) : undefined,
      }),
    },
    seed: { flags: '--seed <n>', description: 'seed of the synthetic creators', default: '42', value: integer() },
    rateLimit: {
      flags: '--rate-limit <n>',
      description: 'requests per minute before 429',
      default: '300',
      value: integer({ min: 1 }),
    },
    credits: { flags: '--credits <n>', description: 'starting balance', default: '1000', value: BALANCE },
    trial: { flags: '--trial', description: 'behave like a trial account (30 successful requests)' },
    pageBase: {
      flags: '--page-base <n>',
      description: 'first Discovery page number it accepts: 0 (default) or 1',
      value: integer({
        min: 0,
        check: (n, _raw, flag) =>
          n !== 0 && n !== 1 ? new UsageError(`Invalid ${flag} '${n}': expected 0 or 1.`) : undefined,
      }),
    },
    latency: {
      flags: '--latency <spec>',
      description:
        "reply times per route family, median±spread: 'discovery=1.2s±0.5,enrich=2s±1,default=150ms', or 'real' (a guess); default none",
    },
    faults: {
      flags: '--faults <spec>',
      description:
        "inject faults: 'kind[:arg] [METHOD] [/path/glob] [count=n|p=0.1]; ...' (* within a path segment, ** any depth; see /_sandbox/faults)",
    },
    allowRedirect: {
      flags: '--allow-redirect <url>',
      description:
        'an OAuth redirect URI clients may register besides loopback ones; repeatable (auto-approve still sends codes to loopback only)',
      repeat: true,
    },
  },
  examples: [
    ['creators sandbox --port 8787', 'then in another shell:'],
    ['CREATORS_BASE_URL=http://127.0.0.1:8787 CREATORS_API_KEY=<key> creators credits', 'use it'],
    ['creators sandbox --rate-limit 30 --credits 5', 'practise limits and empty balances'],
    ['creators sandbox --latency real --seed 7', 'answer about as slowly as the real service might (a guess)'],
    [
      "creators sandbox --faults '503 GET * p=0.2; drop-after POST /public/v1/discovery/ count=1'",
      'a chaotic API (seeded by --seed)',
    ],
    [
      'creators sandbox --allow-redirect https://app.example/callback',
      'let a web app register a non-loopback redirect URI',
    ],
  ],
  async run(ctx, { flags }) {
    const port = flags.port ?? 0;
    const { pageBase, seed, rateLimit, credits } = flags;
    const allowRedirects = flags.allowRedirect ?? [];
    for (const uri of allowRedirects) {
      if (!URL.canParse(uri) || !/^https?:$/.test(new URL(uri).protocol)) {
        throw new UsageError(
          `Invalid --allow-redirect '${uri}': expected an http(s) URL, exactly as clients will register it.`,
        );
      }
    }
    // The one place the CLI reaches into the sandbox: the sandbox never imports CLI code.
    const [{ startSandbox }, rules, latencyModel, { plural, printText }] = await Promise.all([
      import('../sandbox/server.js'),
      import('../sandbox/faults/rules.js'),
      import('../sandbox/latency.js'),
      import('../lib/output/index.js'),
    ]);
    let latency: ReturnType<typeof latencyModel.parseLatencySpec> | undefined;
    if (flags.latency !== undefined) {
      try {
        latency = latencyModel.parseLatencySpec(flags.latency);
      } catch (err) {
        if (!(err instanceof latencyModel.LatencySpecError)) throw err;
        throw new UsageError(`Invalid --latency: ${err.message}`);
      }
    }
    const latencyText = latencyModel.describeLatency(latency ?? {});
    let faults: ReturnType<typeof rules.parseFaultSpec> | undefined;
    if (flags.faults !== undefined) {
      try {
        faults = rules.parseFaultSpec(flags.faults);
      } catch (err) {
        if (!(err instanceof rules.FaultSpecError)) throw err;
        throw new UsageError(`Invalid --faults: ${err.message}`);
      }
    }
    // The banner is printed while the server runs on: never held for a pager.
    const output = { ...(await ctx.output()), pager: undefined };
    if (ctx.dryRun) {
      // A dry run starts nothing: it says what would listen, with which settings.
      const plan = {
        dry_run: true,
        listen: `127.0.0.1:${port === 0 ? 'any free port' : port}`,
        seed,
        rate_limit: rateLimit,
        credits,
        trial: flags.trial,
        page_base: pageBase ?? 0,
        latency: latencyText,
        faults: (faults ?? []).map((f) => rules.describeRule(f)),
        allow_redirects: allowRedirects,
      };
      const text =
        output.format === 'json' || output.format === 'jsonl'
          ? `${JSON.stringify(plan, null, output.format === 'json' ? 2 : undefined)}\n`
          : `Dry run: no sandbox was started.\nIt would listen on ${plan.listen} (seed ${seed}, ${plural(rateLimit, 'request')} a minute, ${plural(credits, 'credit')}${flags.trial ? ', trial account' : ''}, page base ${plan.page_base}${latency ? `, latency ${latencyText}` : ''}).\n` +
            plan.faults.map((f) => `  fault: ${f}\n`).join('');
      await printText(ctx.term, output, text);
      return;
    }
    let sandbox: Awaited<ReturnType<typeof startSandbox>>;
    try {
      sandbox = await startSandbox({
        port,
        seed,
        rateLimit,
        credits,
        trial: flags.trial === true,
        ...(pageBase === 0 || pageBase === 1 ? { pageBase } : {}),
        ...(faults ? { faults } : {}),
        ...(allowRedirects.length > 0 ? { allowRedirects } : {}),
        ...(latency ? { latency } : {}),
        log: ctx.term.debug ? (line: string) => ctx.term.debugLine(line, 'sandbox') : undefined,
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new UsageError(`Port ${port} is already in use.`, {
          hint: 'Pick another --port, or 0 for any free port.',
        });
      if (code === 'EACCES')
        throw new UsageError(`Not allowed to listen on port ${port}.`, {
          hint: 'Use a port above 1023, or 0 for any free port.',
        });
      throw err;
    }
    try {
      if (ctx.term.stdoutIsTTY) {
        const faultLines = faults?.length
          ? `Faults (counts at ${sandbox.url}/_sandbox/faults):\n${faults.map((f) => `  ${rules.describeRule(f)}\n`).join('')}`
          : '';
        await printText(
          ctx.term,
          output,
          `Sandbox API listening on ${sandbox.url}\n\n` +
            `  export CREATORS_BASE_URL=${sandbox.url}\n` +
            `  export CREATORS_API_KEY=${sandbox.apiKey}\n\n` +
            `Seed ${seed}, ${plural(rateLimit, 'request')}/minute, ${plural(credits, 'credit')}${latency && latencyText !== 'none' ? `, latency ${latencyText}` : ''}. Press Ctrl-C to stop.\n` +
            faultLines,
        );
      } else {
        await printText(ctx.term, output, `${JSON.stringify({ base_url: sandbox.url, api_key: sandbox.apiKey })}\n`);
      }
      await new Promise<void>((resolve) => {
        const signal = ctx.deps.signal;
        if (!signal) return;
        if (signal.aborted) resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      await sandbox.close();
    }
    ctx.term.notice('Sandbox stopped.');
  },
});
