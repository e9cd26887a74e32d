import { createInterface } from 'node:readline/promises';
import type { Context } from './context.js';
import { UsageError } from './errors.js';

/**
 * Asks a yes/no question on the terminal (stderr), default no. `--yes` answers it; without a
 * terminal the command fails with exit 2 instead of hanging on a prompt nobody sees.
 */
export async function confirm(ctx: Context, question: string): Promise<boolean> {
  if (ctx.yes) return true;
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError(`Confirmation needed: ${question}`, { hint: 'Run it again with --yes to confirm without a prompt.' });
  }
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: false });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
