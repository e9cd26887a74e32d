import type { Context } from '../../app/context.js';
import { UsageError } from '../../lib/errors.js';
import { parseIntegerOption } from '../../lib/options.js';

/**
 * `creators sandbox`: the local API in the foreground until Ctrl-C (or SIGTERM), then exit 0. On a terminal it prints
 * how to use it; piped, it prints one JSON line `{base_url, api_key}` for scripts.
 */
export async function run(ctx: Context, _args: string[], opts: Record<string, unknown>): Promise<void> {
  const port = parseIntegerOption(opts.port, '--port', 0) ?? 0;
  if (port > 65535) throw new UsageError(`Invalid --port '${port}': expected 0 (any free port) to 65535.`);
  const pageBase = opts.pageBase === undefined ? undefined : parseIntegerOption(opts.pageBase, '--page-base', 0);
  if (pageBase !== undefined && pageBase !== 0 && pageBase !== 1) throw new UsageError(`Invalid --page-base '${pageBase}': expected 0 or 1.`);
  const seed = parseIntegerOption(opts.seed, '--seed') ?? 42;
  const rateLimit = parseIntegerOption(opts.rateLimit, '--rate-limit', 1) ?? 300;
  const credits = Number(opts.credits ?? 1000);
  if (!Number.isFinite(credits) || credits < 0) {
    throw new UsageError(`Invalid --credits '${String(opts.credits)}': expected a number, 0 or more.`);
  }
  // The one place the CLI reaches into the sandbox: the sandbox never imports CLI code.
  const { startSandbox } = await import('../../sandbox/server.js');
  let faults: ReturnType<typeof import('../../sandbox/faults/rules.js').parseFaultSpec> | undefined;
  if (opts.faults !== undefined) {
    const { parseFaultSpec, FaultSpecError } = await import('../../sandbox/faults/rules.js');
    try {
      faults = parseFaultSpec(String(opts.faults));
    } catch (err) {
      if (!(err instanceof FaultSpecError)) throw err;
      throw new UsageError(`Invalid --faults: ${err.message}`);
    }
  }
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      port,
      seed,
      rateLimit,
      credits,
      trial: Boolean(opts.trial),
      ...(pageBase !== undefined ? { pageBase: pageBase as 0 | 1 } : {}),
      ...(faults ? { faults } : {}),
      log: ctx.debug ? (line: string) => ctx.io.stderr.write(`[sandbox] ${line}\n`) : undefined,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${port} is already in use.`, { hint: 'Pick another --port, or 0 for any free port.' });
    if (code === 'EACCES') throw new UsageError(`Not allowed to listen on port ${port}.`, { hint: 'Use a port above 1023, or 0 for any free port.' });
    throw err;
  }
  if (ctx.io.stdoutIsTTY) {
    ctx.io.stdout.write(
      `Sandbox API listening on ${sandbox.url}\n\n` +
        `  export CREATORS_BASE_URL=${sandbox.url}\n` +
        `  export CREATORS_API_KEY=${sandbox.apiKey}\n\n` +
        `Seed ${seed}, ${rateLimit} requests/minute, ${credits} credits. Press Ctrl-C to stop.\n`,
    );
    if (faults?.length) {
      const { describeRule } = await import('../../sandbox/faults/rules.js');
      ctx.io.stdout.write(`Faults (counts at ${sandbox.url}/_sandbox/faults):\n${faults.map((f) => `  ${describeRule(f)}\n`).join('')}`);
    }
  } else {
    ctx.io.stdout.write(`${JSON.stringify({ base_url: sandbox.url, api_key: sandbox.apiKey })}\n`);
  }
  try {
    await new Promise<void>((resolve) => {
      const signal = ctx.deps.signal;
      if (!signal) return;
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await sandbox.close();
  }
  ctx.notice('Sandbox stopped.');
}
