/** Printing an error for the user (text) or for a script (one JSON line), always on stderr. */
import type { Terminal } from '../io/terminal.js';
import { colors } from '../io/color.js';
import { escapeControls, escapeJsonC1 } from '../io/safe-text.js';
import { redactCredentialPatterns, type Secrets } from '../http/redact.js';
import { creditCount } from '../words.js';
import type { OutputSettings } from './types.js';

export interface PrintableError {
  message: string;
  code: string;
  status?: number | undefined;
  retryAfter?: number | undefined;
  hint?: string | undefined;
  /** The request may have been processed (and charged) although it failed; it was not retried. */
  maybeCharged?: boolean | undefined;
  spent?: { spentMilli: number; kept: string } | undefined;
}

export function stopLine(spent: { spentMilli: number; kept: string }): string {
  return `Spent ${creditCount(spent.spentMilli)} in this run; ${spent.kept}.`;
}

/**
 * In json/jsonl exactly one line on stderr, for scripts to parse. Error texts often quote a server (a 401
 * body): every credential in `secrets`, and any `Bearer ...` shape, is redacted from them.
 */
export function printError(
  io: Pick<Terminal, 'stderr'>,
  settings: Pick<OutputSettings, 'format' | 'color'> & Partial<OutputSettings> & { secrets?: Secrets | undefined },
  err: PrintableError,
  debugStack?: string,
): void {
  const redact = (text: string): string =>
    settings.secrets ? settings.secrets.redact(text) : redactCredentialPatterns(text);
  if (settings.format === 'json' || settings.format === 'jsonl') {
    const body = {
      error: {
        code: redact(err.code),
        message: redact(err.message),
        status: err.status ?? null,
        retry_after: err.retryAfter ?? null,
        ...(err.hint ? { hint: redact(err.hint) } : {}),
        // A billable request that failed after it may have reached the server: scripts must not blindly re-run it.
        ...(err.maybeCharged ? { maybe_charged: true } : {}),
        ...(err.spent
          ? { spent: { credits: Math.round(err.spent.spentMilli) / 1000, kept: redact(err.spent.kept) } }
          : {}),
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
