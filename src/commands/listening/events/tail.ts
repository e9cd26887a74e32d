import { resolve } from 'node:path';
import type { Context } from '../../../app/context.js';
import type { ListeningRecord } from '../../../lib/api/listening.js';
import { UsageError } from '../../../lib/errors.js';
import { checkCursorPath } from '../../../lib/events/cursor.js';
import { parseForwardUrl } from '../../../lib/events/forward.js';
import { tailEvents } from '../../../lib/events/tail.js';
import { parseIntegerOption } from '../../../lib/options.js';
import { selectFields, writeChunk } from '../../../lib/output/index.js';
import { eventFilters } from './filters.js';
import { humanLine } from './line.js';

/** Events asked for per page while tailing; the server may apply fewer (the walk copes). */
const TAIL_PAGE_SIZE = 50;

/**
 * `creators events tail`: prints each new event once, in order of occurrence, as it appears (human
 * lines on a terminal, JSON lines otherwise); `--cursor-file` carries the position across runs;
 * `--forward-to` POSTs each event to a local receiver first; `--once` prints what is new and exits.
 */
export async function run(ctx: Context, _args: string[], opts: Record<string, unknown>): Promise<void> {
  const filters = eventFilters(opts);
  const intervalS = opts.interval === undefined ? 10 : Number(opts.interval);
  if (!Number.isFinite(intervalS) || intervalS <= 0 || intervalS > 86_400) {
    throw new UsageError(`Invalid --interval '${String(opts.interval)}': expected seconds, more than 0 (e.g. 10 or 0.5).`);
  }
  const backlog = opts.backlog === 'all' ? Infinity : (parseIntegerOption(opts.backlog, '--backlog', 0) ?? 10);
  const forwardTo = opts.forwardTo === undefined ? undefined : parseForwardUrl(String(opts.forwardTo));
  if (opts.forwardTo !== undefined && !forwardTo) {
    throw new UsageError(`Invalid --forward-to '${String(opts.forwardTo)}': expected an http(s) URL such as http://127.0.0.1:8000/hook.`);
  }
  const cursorFile = typeof opts.cursorFile === 'string' ? resolve(ctx.deps.cwd, opts.cursorFile) : undefined;
  if (cursorFile) await checkCursorPath(cursorFile);
  if (ctx.globals.output) {
    throw new UsageError('events tail writes to stdout only.', { hint: 'Redirect it (>> events.jsonl), or use `events list -o file`.' });
  }
  const output = await ctx.output();
  if (output.format === 'csv' || output.format === 'tsv') {
    throw new UsageError(`events tail prints JSON lines or human lines, not ${output.format}.`, { hint: 'Use --format jsonl, or `events list --format csv`.' });
  }
  const human = output.format === 'table';
  const http = await ctx.http();
  if (!opts.once && ctx.io.stderrIsTTY) ctx.notice(`Watching events every ${intervalS} s (Ctrl-C to stop)...`);

  const emit = async (event: ListeningRecord, status: number | undefined): Promise<void> => {
    if (human) {
      await writeChunk(ctx.io.stdout, `${humanLine(event, status, ctx.io.columns)}\n`);
      return;
    }
    const shown = output.fields ? selectFields(event, output.fields) : event;
    await writeChunk(ctx.io.stdout, `${JSON.stringify(shown)}\n`);
    if (status !== undefined) ctx.notice(`forwarded event ${String(event.id)}: HTTP ${status}`);
  };
  const handed = await tailEvents(
    {
      http,
      now: ctx.deps.now,
      sleep: ctx.deps.sleep,
      signal: ctx.deps.signal,
      dispatcher: ctx.deps.dispatcher,
      emit,
      warn: (m) => ctx.warn(m),
    },
    { filters, pageSize: TAIL_PAGE_SIZE, backlog, intervalMs: intervalS * 1000, once: Boolean(opts.once), cursorFile, forwardTo },
  );
  if (ctx.io.stderrIsTTY) ctx.notice(`${handed} new event(s).`);
}
