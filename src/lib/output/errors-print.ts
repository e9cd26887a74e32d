/** Printing an error for the user (text) or for a script (one JSON line), always on stderr. */
import type { Terminal } from '../io/terminal.js';
import { colors } from '../io/color.js';
import { escapeControls, escapeJsonC1 } from '../io/safe-text.js';
import { redactCredentialPatterns, type Secrets } from '../http/redact.js';
import { creditCount } from './humanize.js';
import type { OutputSettings } from './types.js';

/** What `printError` needs to know about an error; `CliError` from `lib/errors.ts` fits. */
export interface PrintableError {
  message: string;
  code: string;
  status?: number | undefined;
  /** Seconds the server asked to wait. */
  retryAfter?: number | undefined;
  /** A second line telling the user what to do next. */
  hint?: string | undefined;
  /** The request may have been processed (and charged) although it failed; it was not retried. */
  maybeCharged?: boolean | undefined;
  /** What a stopped billable command spent in this run and where the paid results are. */
  spent?: { spentMilli: number; kept: string } | undefined;
}

/** `Spent 5.5 credits in this run; 550 creators kept in p.json, marked partial.` */
export function stopLine(spent: { spentMilli: number; kept: string }): string {
  return `Spent ${creditCount(spent.spentMilli)} in this run; ${spent.kept}.`;
}

/**
 * Writes an error to `io.stderr`. In `json`/`jsonl` format: exactly one line
 * `{"error":{"code","message","status","retry_after"}}` (`null` when absent), plus `hint` when there
 * is one, `maybe_charged: true` when a billable request may have been processed and `spent`
 * (`{credits, kept}`) when a billable command stopped, for scripts to parse.
 * Otherwise `error: <message>` (red `error:` with colour), the hint on the next line when there is one,
 * then the stop line (`Spent ... credits in this run; ...`) when there is one, and the stack only when `debugStack` is given (`--debug`).
 *
 * Error texts often quote a server (a 400's `detail`, an HTML page's title, a 401 body): every credential
 * in `secrets` (and any `Bearer ...` shape) is redacted from them in both forms; the text form shows
 * control characters as visible escapes, the JSON line escapes C1 controls as well as C0.
 */
export function printError(
  io: Pick<Terminal, 'stderr'>,
  settings: Pick<OutputSettings, 'format' | 'color'> & Partial<OutputSettings> & { secrets?: Secrets | undefined },
  err: PrintableError,
  debugStack?: string,
): void {
  const redact = (text: string): string => (settings.secrets ? settings.secrets.redact(text) : redactCredentialPatterns(text));
  if (settings.format === 'json' || settings.format === 'jsonl') {
    const body = {
      error: {
        code: redact(err.code),
        message: redact(err.message),
        status: err.status ?? null,
        retry_after: err.retryAfter ?? null,
        // What to do next, when there is something to say.
        ...(err.hint ? { hint: redact(err.hint) } : {}),
        // A billable request that failed after it may have reached the server: scripts must not blindly re-run it.
        ...(err.maybeCharged ? { maybe_charged: true } : {}),
        // A billable command that stopped: what this run spent and where the paid results are.
        ...(err.spent ? { spent: { credits: Math.round(err.spent.spentMilli) / 1000, kept: redact(err.spent.kept) } } : {}),
      },
    };
    io.stderr.write(`${escapeJsonC1(JSON.stringify(body))}\n`);
    return;
  }
  const c = colors(settings.color);
  const safe = (t: string): string => escapeControls(redact(t));
  let text = `${c.red('error:')} ${safe(err.message)}\n`;
  if (err.hint) text += `${safe(err.hint)}\n`;
  if (err.spent) text += `${safe(stopLine(err.spent))}\n`;
  if (debugStack) text += `${c.dim(safe(debugStack))}\n`;
  io.stderr.write(text);
}
