import { defineCommand, integer, seconds } from '../../app/command.js';
import { ports } from '../../app/ports.js';
import type { ListeningRecord } from '../../lib/api/listening.js';
import { InterruptedError, StoppedError, UsageError } from '../../lib/errors.js';
import { EVENT_FILTER_FLAGS, eventQuery, onUnknownType } from './flags.js';
import { EVENTS_PAGE_SIZE } from '../../contract/limits.js';

/** Event lines after which a `--fields` path none of them had is warned about (a tail may never end). */
const FIELDS_CHECK_AFTER = 100;

/**
 * `creators events tail`: prints each new event once, in order of occurrence, as it appears (human
 * lines on a terminal, JSON lines otherwise); `--cursor-file` carries the position across runs;
 * `--forward-to` POSTs each event to a local receiver first; `--once` prints what is new and exits.
 * The cursor file is locked for the run (another tail on it exits 9 before reading anything) and names
 * the server, profile and filters it counts (another is exit 2 unless `--cursor-reset`). Under
 * `--dry-run` the plan of the first read is printed and nothing is sent: no event is read or forwarded,
 * and the cursor file is neither written nor locked.
 */
export default defineCommand({
  name: 'tail',
  description: 'Print each new event once, in order of occurrence, as it appears',
  flags: {
    interval: {
      flags: '--interval <s>',
      description: 'seconds between polls (default 10)',
      value: seconds('expected seconds, more than 0 (e.g. 10 or 0.5).', 86_400),
    },
    once: { flags: '--once', description: 'print what is new and exit (for cron)' },
    cursorFile: {
      flags: '--cursor-file <path>',
      complete: 'files',
      description:
        'remember the last event handled here, across runs (locked for the run: a second tail on it exits 9)',
    },
    forwardTo: {
      flags: '--forward-to <url>',
      description:
        'POST each event as JSON to this URL first (up to 5 attempts with backoff; never skipped); the X-Creators-Event-Id header names the event, so a receiver can drop repeats',
    },
    cursorReset: {
      flags: '--cursor-reset',
      description:
        'start the cursor file over (from the latest events, as --backlog says) when it was written for another server, profile or filters',
    },
    backlog: {
      flags: '--backlog <n|all>',
      description: 'without a cursor: how many existing events to start with (default 10)',
      value: {
        parse: (raw: string, flag: string) =>
          raw === 'all' ? Number.POSITIVE_INFINITY : integer({ min: 0 }).parse(raw, flag),
      },
    },
    ...EVENT_FILTER_FLAGS,
  },
  examples: [
    ['creators events tail', 'watch on a terminal; Ctrl-C to stop'],
    [
      'creators events tail --once --cursor-file ~/.events.cursor >> events.jsonl',
      'cron: exactly what is new since the last run',
    ],
    ['creators events tail --forward-to http://127.0.0.1:8000/hook --cursor-file hook.cursor', 'feed a local webhook'],
    ['creators events tail --type follower_threshold --interval 60', 'only milestones, once a minute'],
  ],
  async run(ctx, { flags }) {
    const [
      { resolve },
      { eventFilters },
      { checkCursorPath },
      { parseForwardUrl },
      { tailEvents },
      { humanLine },
      { escapeControls, jsonText, plural, selectFields, truncate, writeChunk },
      { FieldsCheck },
    ] = await Promise.all([
      import('node:path'),
      import('../../lib/events/filters.js'),
      import('../../lib/events/cursor.js'),
      import('../../lib/events/forward.js'),
      import('../../lib/events/tail.js'),
      import('../../lib/events/line.js'),
      import('../../lib/output/index.js'),
      import('../../lib/output/fields-check.js'),
    ]);
    const filters = eventFilters(
      eventQuery(flags),
      onUnknownType(flags, (line) => ctx.term.warn(line)),
    );
    const intervalS = flags.interval ?? 10;
    const backlog = flags.backlog ?? 10;
    const forwardTo = flags.forwardTo === undefined ? undefined : parseForwardUrl(flags.forwardTo);
    if (flags.forwardTo !== undefined && !forwardTo) {
      throw new UsageError(
        `Invalid --forward-to '${flags.forwardTo}': expected an http(s) URL such as http://127.0.0.1:8000/hook.`,
      );
    }
    const cursorFile = flags.cursorFile === undefined ? undefined : resolve(ctx.deps.cwd, flags.cursorFile);
    if (cursorFile) await checkCursorPath(cursorFile);
    if (ctx.globals.output) {
      throw new UsageError('events tail writes to stdout only.', {
        hint: 'Redirect it (>> events.jsonl), or use `events list -o file`.',
      });
    }
    const output = await ctx.output();
    if (output.format === 'csv' || output.format === 'tsv') {
      throw new UsageError(`events tail prints JSON lines or human lines, not ${output.format}.`, {
        hint: 'Use --format jsonl, or `events list --format csv`.',
      });
    }
    const human = output.format === 'table';
    ctx.term.ownDisplay(); // events as they come are this command's live display: no wait spinner
    const tailPorts = await ports.tail(ctx);
    const server = { baseUrl: (await ctx.config.baseUrl()).href, profile: ctx.profileName };
    if (!flags.once && ctx.term.stderrIsTTY)
      ctx.term.notice(`Watching events every ${intervalS} s (Ctrl-C to stop)...`);

    // Status lines on a terminal fit its width (a long URL or id is cut with …), never wrapping; piped, whole.
    const fitStderr = (text: string, prefix: number): string =>
      ctx.term.stderrIsTTY ? truncate(escapeControls(text), (ctx.term.columns ?? 80) - prefix) : text;
    // A --fields path no event line has is said once: after the first events (a tail runs on), or at the end.
    const fields = human ? undefined : FieldsCheck.for(output);
    // Lines are held until the tail saves its cursor: one write per batch, so a kill re-delivers at most that write.
    let held: string[] = [];
    const flush = async (): Promise<void> => {
      if (held.length === 0) return;
      const text = held.join('');
      held = [];
      await writeChunk(ctx.term.stdout, text);
    };
    const emit = async (event: ListeningRecord, status: number | undefined): Promise<void> => {
      if (human) {
        held.push(`${humanLine(event, status, ctx.term.stdoutIsTTY ? (ctx.term.columns ?? 80) : undefined)}\n`);
        return;
      }
      const shown = output.fields ? selectFields(event, output.fields) : event;
      held.push(`${jsonText(shown)}\n`);
      fields?.see(event);
      if (fields?.count === FIELDS_CHECK_AFTER) fields.warn(ctx.term);
      if (status !== undefined) {
        await flush();
        ctx.term.notice(fitStderr(`forwarded event ${String(event.id)}: HTTP ${status}`, 0));
      }
    };
    let handed: number;
    try {
      handed = await tailEvents(
        {
          ...tailPorts,
          emit,
          flush,
          forwardStatus: (m) => ctx.term.warn(fitStderr(m, 'warning: '.length)),
        },
        // The largest page the route takes, so a backlog takes the fewest requests; the server may apply fewer (the walk copes).
        {
          filters,
          pageSize: EVENTS_PAGE_SIZE.max,
          backlog,
          intervalMs: intervalS * 1000,
          once: flags.once,
          cursorFile,
          forwardTo,
          dryRun: ctx.dryRun,
          server,
          cursorReset: flags.cursorReset,
          named: { cursorReset: '--cursor-reset', backlog: '--backlog' },
        },
      );
    } catch (err) {
      // Ctrl-C is how a tail ends: the cursor is saved; exit 130 without an error line.
      throw err instanceof InterruptedError ? new StoppedError() : err;
    } finally {
      fields?.warn(ctx.term);
    }
    if (ctx.term.stderrIsTTY) ctx.term.notice(`${plural(handed, 'new event')}.`);
  },
});
